package when

import (
	"maps"
	"slices"
)

// Grammar describes one written language for GET /v1/meta's grammars.
// The vocabularies are built from the tables the parsers read.
type Grammar struct {
	Description string
	Examples    []string
	Vocabulary  []string
}

// DateGrammar describes the date phrases.
var DateGrammar = Grammar{
	Description: "A day, a time of day, or both, resolved in the reader's timezone at the moment of the request. " +
		"today, tomorrow (tmrw, tmr), 'the day after tomorrow', tonight (20:00), a weekday (the coming one, never today; 'this friday' may be today), " +
		"'next <weekday>' and '<weekday> next week' (that day of next week, weeks starting on Monday: said on Wednesday 25 November, 'next tuesday' is 1 December), " +
		"'next week' (its Monday), 'next month' (its 1st), 'next year' (January 1st), 'this weekend' and 'by the weekend' (Saturday), 'next weekend' (next week's Saturday), " +
		"'end of week' (Friday), 'end of month', 'end of year', 'in 3 days', 'in 2 weeks', 'in 2 hours', ISO dates (2026-12-05), 'dec 5', '5 dec', " +
		"'december 5th 2027' (without a year: the next such day), optionally after 'by', 'on', 'due' or 'before'; after one of these also 'the 15th' (the next 15th). " +
		"A time of day ('9am', '9:30 pm', 'at 17:30', 'noon') or a part of the day after a day ('tomorrow morning' 9:00, 'afternoon' 14:00, 'evening' 19:00, 'night' 20:00; " +
		"'this evening'; 'in the morning', 'at night'; 'friday evening at 7' is 19:00; 'fri @ 7pm') makes it a timed instant; without one it is all-day. " +
		"A time alone ('9am', 'in the morning') is today at that time, or tomorrow once it has passed; an hour alone ('at 8') is the next time a twelve-hour clock shows it. " +
		"Taskwarrior's due:<value> is read as one word: due:2027-04-15, due:20270415, due:friday, due:now, due:eod, due:eom, due:eoy, due:jan (the next January 1st), due:23rd, due:3d.",
	Examples: []string{"tomorrow", "by friday", "next tuesday at 3pm", "on dec 5", "5 dec at 17:30", "in 2 weeks", "end of month", "2026-12-05", "tonight",
		"tomorrow morning", "by the 15th", "this weekend", "tmrw", "in the morning", "fri @ 7pm", "due:2027-04-15"},
	Vocabulary: dateVocabulary(),
}

// DurationGrammar describes durations (estimates).
var DurationGrammar = Grammar{
	Description: "A duration of effort: a number and a unit, largest unit first: w (5 working days), d (a working day of 8 hours), h, m; " +
		"decimals are allowed ('1.5h'); a plain number is minutes.",
	Examples:   []string{"30m", "1h30m", "2h", "1.5h", "1d", "90"},
	Vocabulary: durationVocabulary(),
}

// FilterGrammar describes a time given to a listing filter, `until` or an
// occurrence bound.
var FilterGrammar = Grammar{
	Description: "A time where a filter, until or a bound expects one: an RFC 3339 instant, 'now', an offset from now " +
		"('-7d', '+3 months', '+36h', '2 weeks ago'; days and longer give a whole day counted from today, hours and minutes an instant), " +
		"or any date phrase. A whole day compares as its midnight in the reader's timezone.",
	Examples:   []string{"tomorrow", "-7d", "+3 months", "next week", "2026-12-05", "2026-12-05T09:00:00Z", "2 weeks ago"},
	Vocabulary: filterVocabulary(),
}

func dateVocabulary() []string {
	v := slices.Concat(sortedKeys(DayWords), []string{"tonight", "day after tomorrow", "next", "this", "weekend", "the", "end of", "in", "in the", "at", "at night", "@", "am", "pm", "due:"},
		DatePrefixes, sortedKeys(ClockWords), sortedKeys(PartsOfDay), sortedKeys(Weekdays), sortedKeys(WeekdayAbbrevs), sortedKeys(Months), sortedKeys(Periods), sortedKeys(AttributeDates))
	return append(v, sortedKeys(Units)...)
}

func durationVocabulary() []string {
	var v []string
	for _, u := range DurationUnits {
		v = append(v, u.Name)
	}
	return v
}

func filterVocabulary() []string {
	return slices.Concat([]string{"now", "+", "-", "ago"}, sortedKeys(Units), sortedKeys(DayWords), []string{"next", "end of"})
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
