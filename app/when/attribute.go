package when

import "time"

// AttributeDates are the named dates Taskwarrior's due: takes that tend
// reads as Taskwarrior does: the end of this month or year, the start of
// the next week (its Monday), month or year. Taskwarrior's "eow" is left
// out: its week ends on a day its configuration chooses, which a line
// cannot know, and tend's own "end of week" (Friday) would be a guess.
var AttributeDates = map[string]func(today time.Time) time.Time{
	"eom": func(t time.Time) time.Time { return endOf(t, Month) },
	"eoy": func(t time.Time) time.Time { return endOf(t, Year) },
	"sow": func(t time.Time) time.Time { return startOfNext(t, Week) },
	"som": func(t time.Time) time.Time { return startOfNext(t, Month) },
	"soy": func(t time.Time) time.Time { return startOfNext(t, Year) },
}

// attributeDate reads the value of Taskwarrior's due: attribute, one word
// with no spaces: a named date (eom), a day word or weekday (tomorrow,
// friday, fri), an ISO date or instant, a day of the month (23rd: the next
// 23rd) or an offset from now (3d, 2wks, 9hrs).
func attributeDate(v string, now time.Time) (Moment, bool) {
	today := midnight(now)
	if f, ok := AttributeDates[v]; ok {
		return day(f(today)), true
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
