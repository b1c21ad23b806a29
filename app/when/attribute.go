package when

import "time"

// AttributeDates are the named dates of Taskwarrior's due: that tend
// reads as Taskwarrior does: the end of today (a day is due by its end),
// of this month and of this year. The others are left out, so that the
// word stays in the title rather than land on a day the person did not
// mean: the start-of dates (sow, som, soy) named the next period in
// Taskwarrior 2 and name the current one in Taskwarrior 3, and the week
// Taskwarrior's eow ends depends on its configuration.
var AttributeDates = map[string]func(today time.Time) time.Time{
	"eod": func(t time.Time) time.Time { return t },
	"eom": func(t time.Time) time.Time { return endOf(t, Month) },
	"eoy": func(t time.Time) time.Time { return endOf(t, Year) },
}

// attributeDate reads the value of Taskwarrior's due: attribute, one word
// with no spaces: now, a named date (eom), a day word or weekday
// (tomorrow, friday, fri), an ISO date (also 20270415) or instant, a month
// (jan: the next January 1st), a day of the month (23rd: the next 23rd)
// or an offset from now (3d, 2wks, 9hrs).
func attributeDate(v string, now time.Time) (Moment, bool) {
	today := midnight(now)
	if f, ok := AttributeDates[v]; ok {
		return day(f(today)), true
	}
	if v == "now" {
		return Moment{Time: now.Truncate(time.Minute)}, true
	}
	if _, ok := smallInt(v, 8); ok && len(v) == 8 {
		d, err := time.ParseInLocation("20060102", v, now.Location())
		return day(d), err == nil && validYear(d)
	}
	if m, ok := Months[v]; ok {
		first := time.Date(today.Year(), m, 1, 0, 0, 0, 0, today.Location())
		if !first.After(today) {
			first = first.AddDate(1, 0, 0)
		}
		return day(first), true
	}
	if m, n, _ := matchDay(texts{{Text: v}}, 0, now, true); n == 1 {
		return m, true
	}
	if dom, ok := Ordinal(v); ok && v[len(v)-1] > '9' {
		return nextDayOfMonth(today, dom)
	}
	if n, u, ok := splitOffset(v); ok && v[0] >= '0' && v[0] <= '9' {
		if m := offset(now, u, n); validYear(m.Time) {
			return m, true
		}
	}
	return Moment{}, false
}
