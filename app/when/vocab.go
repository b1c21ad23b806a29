package when

import (
	"strconv"
	"strings"
	"time"
)

// The tables below are the vocabulary: the parsers read them and the
// grammars (grammar.go) list them, so the two cannot drift apart.

// Weekdays names each day in full; WeekdayAbbrevs are the short forms,
// which a captured line only reads after a word like "by" or "next"
// ("enjoy the sun" is not about Sunday).
var (
	Weekdays = map[string]time.Weekday{"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
		"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday}
	WeekdayAbbrevs = map[string]time.Weekday{"mon": time.Monday, "tue": time.Tuesday, "tues": time.Tuesday,
		"wed": time.Wednesday, "thu": time.Thursday, "thur": time.Thursday, "thurs": time.Thursday,
		"fri": time.Friday, "sat": time.Saturday, "sun": time.Sunday}
)

// Months names each month in full and in short.
var Months = map[string]time.Month{"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6,
	"july": 7, "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
	"nov": 11, "dec": 12}

// DayWords are the days named relative to today, with the short forms
// people text ("tmrw", "tmr"). Todoist's "tod" and "tom" are left out:
// they are names ("Tell Tom the plan").
var DayWords = map[string]int{"today": 0, "tomorrow": 1, "yesterday": -1, "tmrw": 1, "tmr": 1}

// Tonight is the time of day "tonight" means when no time is given.
const Tonight = 20 * time.Hour

// DatePrefixes may stand before a date without changing it: "by friday",
// "on dec 5", "due tomorrow", "before monday".
var DatePrefixes = []string{"by", "on", "due", "before"}

// Unit is a calendar or clock step.
type Unit int

// The units of offsets ("in 3 days", "-7d") and repeats.
const (
	Minute Unit = iota + 1
	Hour
	Day
	Week
	Month
	Year
)

// Units maps the written units, long and short, to a Unit. "m" is left
// out on purpose: in an offset it could be minutes or months.
var Units = map[string]Unit{"min": Minute, "mins": Minute, "minute": Minute, "minutes": Minute,
	"h": Hour, "hr": Hour, "hrs": Hour, "hour": Hour, "hours": Hour,
	"d": Day, "day": Day, "days": Day, "w": Week, "wk": Week, "wks": Week, "week": Week, "weeks": Week,
	"mo": Month, "month": Month, "months": Month, "y": Year, "yr": Year, "year": Year, "years": Year}

// NumberWords are the counts that may be written as words.
var NumberWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
	"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

// Periods are what "next" and "end of" take besides a weekday.
var Periods = map[string]Unit{"week": Week, "month": Month, "year": Year}

// Add steps t by n units in its zone; calendar units keep the wall clock
// and a month step stays in its month (Jan 31 + 1 month is Feb 28 or 29).
func (u Unit) Add(t time.Time, n int) time.Time {
	switch u {
	case Minute:
		return t.Add(time.Duration(n) * time.Minute)
	case Hour:
		return t.Add(time.Duration(n) * time.Hour)
	case Day:
		return t.AddDate(0, 0, n)
	case Week:
		return t.AddDate(0, 0, 7*n)
	case Month:
		return addMonths(t, n)
	case Year:
		return addMonths(t, 12*n)
	}
	return t
}

// Calendar reports whether the unit counts days rather than clock time.
func (u Unit) Calendar() bool { return u >= Day }

func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), 0, t.Location())
	if last := daysIn(first.Year(), first.Month()); d > last {
		d = last
	}
	return first.AddDate(0, 0, d-1)
}

func daysIn(y int, m time.Month) int { return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day() }

// Count reads a count written as digits (at most 4) or as a word.
func Count(s string) (int, bool) {
	if n, ok := NumberWords[s]; ok {
		return n, true
	}
	return smallInt(s, 4)
}

// smallInt reads at most max digits, so no count can overflow.
func smallInt(s string, max int) (int, bool) {
	if s == "" || len(s) > max {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, _ := strconv.Atoi(s)
	return n, true
}

// Ordinal reads a day of the month: "5", "5th", "1st", "22nd", "23rd".
func Ordinal(s string) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if t, ok := strings.CutSuffix(s, suf); ok {
			s = t
			break
		}
	}
	n, ok := smallInt(s, 2)
	return n, ok && n >= 1 && n <= 31
}

// OrdinalWords are the positions of a weekday in its month.
var OrdinalWords = map[string]int{"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3,
	"fourth": 4, "4th": 4, "fifth": 5, "5th": 5, "last": -1}

// Weekday reads a weekday name, full or (when short is true) abbreviated.
func Weekday(s string, short bool) (time.Weekday, bool) {
	if d, ok := Weekdays[s]; ok {
		return d, true
	}
	if short {
		d, ok := WeekdayAbbrevs[s]
		return d, ok
	}
	return 0, false
}
