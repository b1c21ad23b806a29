package when

import (
	"strings"
	"time"
)

// ParseTime reads a value where a listing filter, `until` or an
// occurrence bound expects a time: an RFC 3339 instant, "now", an offset
// from now ("-7d", "+3 months", "+36h", "2 weeks ago") or any date phrase
// of ParseDate ("tomorrow", "next week", "2026-12-05"). Offsets in days,
// weeks, months or years give a day (all-day, counted from today); offsets
// in hours or minutes give an instant.
func ParseTime(s string, now time.Time, loc *time.Location) (Moment, error) {
	now = now.In(loc)
	v := strings.TrimSpace(s)
	if v == "" {
		return Moment{}, SyntaxErrorf(s, 0, "a time is empty")
	}
	if strings.EqualFold(v, "now") {
		return Moment{Time: now}, nil
	}
	if v[0] == '+' || v[0] == '-' {
		n, u, ok := splitOffset(v[1:])
		if !ok {
			return Moment{}, SyntaxErrorf(s, 1, "an offset is a number and a unit (-7d, +3 months, +36h)")
		}
		if v[0] == '-' {
			n = -n
		}
		return checkYear(s, offset(now, u, n))
	}
	if rest, ok := strings.CutSuffix(lower(v), " ago"); ok {
		if n, u, ok := splitOffset(rest); ok {
			return checkYear(s, offset(now, u, -n))
		}
	}
	return ParseDate(s, now, loc)
}

func checkYear(s string, m Moment) (Moment, error) {
	if !validYear(m.Time) {
		return Moment{}, SyntaxErrorf(s, 0, "the time falls outside the years 1 to 9999")
	}
	return m, nil
}

// splitOffset reads "7d", "3 months" or "a week".
func splitOffset(s string) (int, Unit, bool) {
	s = strings.TrimSpace(lower(s))
	k := 0
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	num, unit := s[:k], strings.TrimSpace(s[k:])
	if k == 0 {
		num, unit, _ = strings.Cut(s, " ")
	}
	n, ok := Count(num)
	u, uok := Units[unit]
	return n, u, ok && uok
}
