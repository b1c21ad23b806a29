package recur

import (
	"maps"
	"slices"

	"tend/app/when"
)

// Grammar describes the repeat phrases for GET /v1/meta's grammars.
var Grammar = when.Grammar{
	Description: "A repeat: 'every' and a period (day, other day, 3 days, second week, weekday or workday = Monday to Friday, weekend = each Saturday and Sunday, " +
		"monday and thursday, other friday, week, 2 weeks, month, quarter, year, morning = each day at 9:00, evening = at 19:00), " +
		"or an adverb (daily, weekly, fortnightly, monthly, quarterly, yearly). " +
		"A week may name its days ('every 2 weeks on monday'); a month its day ('on the 15th', 'on the 1st and 15th', 'on the last day', " +
		"'on the 2nd tuesday', 'on the last friday'; also 'every 15th', 'every 2nd tuesday', 'every last day of the month'; an ordinal before a weekday counts within the month, " +
		"'other' alternates); the day may come first: 'on the 1st of every month', 'the 15th of each month', 'on the last day of every month', " +
		"'the 2nd tuesday of every other month', 'the 1st of every 3 months'; a year its date ('every year on december 5', 'every jan 27th'). Then, in any order: a time of day ('at 9am', 'morning', 'evening at 7'), " +
		"'until <date>' (or 'till', 'ending'), 'for N times', and 'starting <date>' (or 'from', 'beginning'). " +
		"'every! 3 days' or '3 days after done' counts the next from when the last was done (plain intervals only). " +
		"The first occurrence is the first day the repeat produces on or after the start; RRULE text (as tend writes it) is read too.",
	Examples: []string{"every day", "every other friday at 9am", "every weekday at 8:30", "every month on the last day", "every 2nd tuesday",
		"every 3 months on the 1st and 15th", "every year on december 5", "every monday and thursday until 2027-06-30", "every week for 6 times",
		"every! 3 days", "2 weeks after done", "every workday at 9:15", "every sunday evening", "every jan 27th", "every 14 days starting dec 1",
		"on the 1st of every month", "the last day of each month",
		"FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"},
	Vocabulary: vocabulary(),
}

func vocabulary() []string {
	v := slices.Concat([]string{"every", "every!", "other", "weekday", "workday", "weekend", "on", "the", "of", "of every", "of each", "last day", "at", "for", "times", "after"},
		UntilWords, StartWords, slices.Sorted(maps.Keys(when.PartsOfDay)), DoneWords, slices.Sorted(maps.Keys(Adverbs)), slices.Sorted(maps.Keys(PeriodWords)), slices.Sorted(maps.Keys(when.OrdinalWords)))
	return slices.Concat(v, slices.Sorted(maps.Keys(when.Weekdays)), slices.Sorted(maps.Keys(when.WeekdayAbbrevs)), slices.Sorted(maps.Keys(when.Months)))
}
