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
		"today, tomorrow, tonight (20:00), a weekday (the coming one, never today; 'this friday' may be today, 'next friday' is the one after the coming one), " +
		"'next week' (its Monday), 'next month' (its 1st), 'next year' (January 1st), 'end of week' (Friday), 'end of month', 'end of year', " +
		"'in 3 days', 'in 2 weeks', 'in 2 hours', ISO dates (2026-12-05), 'dec 5', '5 dec', 'december 5th 2027' (without a year: the next such day), " +
		"optionally after 'by', 'on' or 'due'. A time of day ('9am', '9:30 pm', 'at 17:30', 'noon') makes it a timed instant; without one it is all-day. " +
		"A time alone is today at that time, or tomorrow once it has passed.",
	Examples:   []string{"tomorrow", "by friday", "next friday 9am", "on dec 5", "5 dec at 17:30", "in 2 weeks", "end of month", "2026-12-05", "tonight"},
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
	v := slices.Concat(sortedKeys(DayWords), []string{"tonight", "next", "this", "end of", "in", "at", "am", "pm"},
		DatePrefixes, sortedKeys(ClockWords), sortedKeys(Weekdays), sortedKeys(WeekdayAbbrevs), sortedKeys(Months), sortedKeys(Periods))
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
