package when

import (
	"slices"
	"strings"
	"time"
)

// Moment is a resolved date phrase: an instant, or (AllDay) a whole day
// given as its midnight in the reader's zone.
type Moment struct {
	Time   time.Time
	AllDay bool
}

// String writes the moment canonically: "2026-12-05" for a day, RFC 3339
// in its zone for an instant. ParseDate reads it back to an equal Moment.
func (m Moment) String() string {
	if m.AllDay {
		return m.Time.Format(time.DateOnly)
	}
	// RFC 3339 writes an offset in whole minutes; a zone's local mean time
	// before standard time (Auckland's +11:39:04) would lose its seconds,
	// so such an instant is written in UTC, which keeps it exact.
	if _, off := m.Time.Zone(); off%60 != 0 {
		return m.Time.UTC().Format(time.RFC3339)
	}
	return m.Time.Format(time.RFC3339)
}

// Equal reports whether two moments are the same day or the same instant.
func (m Moment) Equal(o Moment) bool { return m.AllDay == o.AllDay && m.Time.Equal(o.Time) }

// MatchDate reads a date phrase at toks[i] as a captured line does: a
// prefix ("by", "on", "due"), a day, a time of day, or both in either
// order ("friday 9am", "at 17:30", "9am tomorrow"), or Taskwarrior's
// due:<word>. Abbreviated weekdays count only after a prefix or "next",
// or before a time, "next week" or "in 2 weeks" ("fri 7pm"). It returns
// how many tokens it read, 0 when no date phrase starts at i.
func MatchDate(toks []Token, i int, now time.Time, loc *time.Location) (Moment, int) {
	return matchDate(toks, i, now.In(loc), false)
}

// ParseDate reads s as one date phrase, all of it. It is the reading of
// `defer`, `plan` and `until`, and of a date in a repeat phrase.
func ParseDate(s string, now time.Time, loc *time.Location) (Moment, error) {
	toks := Tokenize(s)
	if len(toks) == 0 {
		return Moment{}, SyntaxErrorf(s, 0, "a date is empty")
	}
	m, n := matchDate(toks, 0, now.In(loc), true)
	if n == 0 {
		return Moment{}, SyntaxErrorf(s, toks[0].Start, "%q is not a date", toks[0].Text)
	}
	if n < len(toks) {
		return Moment{}, SyntaxErrorf(s, toks[n].Start, "%q does not belong to the date", toks[n].Text)
	}
	return m, nil
}

func matchDate(toks []Token, i int, now time.Time, loose bool) (Moment, int) {
	t := texts(toks)
	if v, ok := strings.CutPrefix(t.at(i), "due:"); ok {
		m, ok := attributeDate(v, now)
		if !ok {
			return Moment{}, 0
		}
		return m, 1
	}
	j := i
	if slices.Contains(DatePrefixes, t.at(j)) {
		j, loose = j+1, true
	}
	// A time, "next week" or "in 2 weeks" right after an abbreviated
	// weekday makes it a day: "fri 7pm", "Fri @ 7pm", "Mon next week".
	if _, abbrev := WeekdayAbbrevs[t.at(j)]; abbrev && !loose {
		_, n := MatchClock(toks, j+1, true)
		loose = n > 0 || t.at(j+1) == "next" && t.at(j+2) == "week" || t.at(j+1) == "in" && Units[t.at(j+3)] == Week
	}
	if m, n, open := matchDay(t, j, now, loose); n > 0 {
		j += n
		if !open {
			return m, j - i
		}
		if c, n := MatchDayTime(toks, j); n > 0 {
			return at(m.Time, c), j + n - i
		}
		return m, j - i
	}
	c, n, hourOnly := matchClock(toks, j, loose)
	if n == 0 {
		c, n = matchPartOfDay(toks, j)
	}
	if n == 0 {
		return Moment{}, 0
	}
	j += n
	k := j
	if t.at(k) == "on" {
		k++
	}
	if m, n, open := matchDay(t, k, now, true); n > 0 && open {
		return at(m.Time, c), k + n - i
	}
	return nextAt(now, c, hourOnly), j - i
}

// nextAt is the first time after now that a clock shows c: today, or
// tomorrow once it has passed. An hour said alone ("at 8") is read on a
// twelve-hour clock, as people say it: at 14:00, "at 8" is 20:00 today
// and "at 3" 15:00; at 21:00, "at 8" is 8:00 tomorrow.
func nextAt(now time.Time, c Clock, hourOnly bool) Moment {
	today := midnight(now)
	if m := at(today, c); m.Time.After(now) {
		return m
	}
	if hourOnly && c.Hour >= 1 && c.Hour < 12 {
		if m := at(today, Clock{c.Hour + 12, c.Minute}); m.Time.After(now) {
			return m
		}
	}
	return at(today.AddDate(0, 0, 1), c)
}

// at puts a clock on a day; a time that does not exist that day (a spring
// change) moves forward as Go's time.Date moves it.
func at(day time.Time, c Clock) Moment {
	y, m, d := day.Date()
	return Moment{Time: time.Date(y, m, d, c.Hour, c.Minute, 0, 0, day.Location())}
}

func midnight(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

func day(t time.Time) Moment { return Moment{Time: midnight(t), AllDay: true} }

// matchDay reads a day at t[j]. open reports whether a time of day may
// follow (not after "in 2 hours", which is already an instant).
func matchDay(t texts, j int, now time.Time, loose bool) (m Moment, n int, open bool) {
	today := midnight(now)
	w := t.at(j)
	if d, ok := DayWords[w]; ok {
		return day(today.AddDate(0, 0, d)), 1, true
	}
	if w == "tonight" {
		if c, n := MatchClock(t, j+1, true); n > 0 {
			return at(today, inPart(PartsOfDay["night"], c)), 1 + n, false
		}
		return Moment{Time: today.Add(Tonight)}, 1, false
	}
	if wd, ok := Weekday(w, loose); ok {
		if t.at(j+1) == "next" && t.at(j+2) == "week" {
			return day(inNextWeek(today, wd)), 3, true
		}
		// "Tue in 2 weeks": that day of the week two weeks on.
		if n, ok := Count(t.at(j + 2)); ok && t.at(j+1) == "in" && Units[t.at(j+3)] == Week && n >= 1 && n <= 520 {
			return day(inNextWeek(today, wd).AddDate(0, 0, 7*(n-1))), 4, true
		}
		return day(coming(today, wd, false)), 1, true
	}
	if m, n := relativeDay(t, j, today, loose); n > 0 {
		return m, n, true
	}
	switch w {
	case "next", "this":
		if wd, ok := Weekday(t.at(j+1), true); ok {
			if w == "next" {
				return day(inNextWeek(today, wd)), 2, true
			}
			return day(coming(today, wd, true)), 2, true
		}
		if t.at(j+1) == "weekend" {
			if w == "next" {
				return day(inNextWeek(today, time.Saturday)), 2, true
			}
			if wd := today.Weekday(); wd == time.Sunday {
				return day(today), 2, true
			}
			return day(coming(today, time.Saturday, true)), 2, true
		}
		if _, ok := PartsOfDay[t.at(j+1)]; ok && w == "this" {
			c, n := MatchDayTime(t, j+1)
			return at(today, c), 1 + n, false
		}
		if u, ok := Periods[t.at(j+1)]; ok && w == "next" {
			return day(startOfNext(today, u)), 2, true
		}
	case "end":
		k := j + 1
		if t.at(k) != "of" {
			return Moment{}, 0, false
		}
		if k++; t.at(k) == "the" || t.at(k) == "this" {
			k++
		}
		if u, ok := Periods[t.at(k)]; ok {
			return day(endOf(today, u)), k + 1 - j, true
		}
	case "in":
		if n, ok := Count(t.at(j + 1)); ok {
			if u, ok := Units[t.at(j+2)]; ok {
				if m := offset(now, u, n); validYear(m.Time) {
					return m, 3, u.Calendar()
				}
			}
		}
	}
	if m, n := matchCalendarDate(t, j, today); n > 0 {
		return m, n, true
	}
	if isoLike(w, 20) {
		if inst, err := time.Parse(time.RFC3339, strings.ToUpper(w)); err == nil && validYear(inst) {
			return Moment{Time: inst.In(now.Location())}, 1, false
		}
	}
	return Moment{}, 0, false
}

// offset steps from now: calendar units give a day, clock units an instant.
func offset(now time.Time, u Unit, n int) Moment {
	if u.Calendar() {
		return day(u.Add(midnight(now), n))
	}
	return Moment{Time: u.Add(now, n).Truncate(time.Minute)}
}

// inNextWeek is the day wd of next week, weeks starting on Monday (the
// week "next week" names): said on Wednesday 25 November, "next tuesday"
// is 1 December and "next friday" 4 December; said on a Sunday, "next
// monday" is the day after.
func inNextWeek(today time.Time, wd time.Weekday) time.Time {
	return coming(today, time.Monday, false).AddDate(0, 0, (int(wd)+6)%7)
}

// coming is the next wd after today, or today itself when orToday is set.
func coming(today time.Time, wd time.Weekday, orToday bool) time.Time {
	d := (int(wd) - int(today.Weekday()) + 7) % 7
	if d == 0 && !orToday {
		d = 7
	}
	return today.AddDate(0, 0, d)
}

// startOfNext is the Monday of next week, the 1st of next month or
// January 1st of next year.
func startOfNext(today time.Time, u Unit) time.Time {
	y, m, _ := today.Date()
	switch u {
	case Week:
		return coming(today, time.Monday, false)
	case Month:
		return time.Date(y, m+1, 1, 0, 0, 0, 0, today.Location())
	}
	return time.Date(y+1, 1, 1, 0, 0, 0, 0, today.Location())
}

// endOf is the Friday ending this working week (the coming one at the
// weekend), the last day of this month or December 31st.
func endOf(today time.Time, u Unit) time.Time {
	y, m, _ := today.Date()
	switch u {
	case Week:
		return coming(today, time.Friday, true)
	case Month:
		return time.Date(y, m+1, 0, 0, 0, 0, 0, today.Location())
	}
	return time.Date(y, 12, 31, 0, 0, 0, 0, today.Location())
}

// matchCalendarDate reads "2026-12-05", "dec 5", "december 5th 2027",
// "5 dec" and "5th of december". Without a year it is the next such day
// from today on.
func matchCalendarDate(t texts, j int, today time.Time) (Moment, int) {
	if w := t.at(j); isoLike(w, 10) && len(w) == 10 {
		if d, err := time.ParseInLocation(time.DateOnly, w, today.Location()); err == nil && validYear(d) {
			return day(d), 1
		}
	}
	var mon time.Month
	var dom, n int
	if m, ok := Months[t.at(j)]; ok {
		if d, ok := Ordinal(t.at(j + 1)); ok {
			mon, dom, n = m, d, 2
		}
	} else if d, ok := Ordinal(t.at(j)); ok {
		k := j + 1
		if t.at(k) == "of" {
			k++
		}
		if m, ok := Months[t.at(k)]; ok {
			mon, dom, n = m, d, k+1-j
		}
	}
	if n == 0 || dom > daysIn(2028, mon) {
		return Moment{}, 0
	}
	if y, ok := smallInt(t.at(j+n), 4); ok && len(t.at(j+n)) == 4 && y >= 1 {
		if dom > daysIn(y, mon) {
			return Moment{}, 0
		}
		return day(time.Date(y, mon, dom, 0, 0, 0, 0, today.Location())), n + 1
	}
	for y := today.Year(); y < today.Year()+8; y++ {
		d := time.Date(y, mon, dom, 0, 0, 0, 0, today.Location())
		if d.Day() == dom && !d.Before(today) {
			return day(d), n
		}
	}
	return Moment{}, 0
}

// validYear keeps a time within the years 1 to 9999 both where it is read
// and in UTC, where it is stored and written back: a zone's offset must not
// carry 0001-01-01 into year 0, which RFC 3339 cannot say.
func validYear(t time.Time) bool {
	u := t.UTC()
	return t.Year() >= 1 && t.Year() <= 9999 && u.Year() >= 1 && u.Year() <= 9999
}

// isoLike is a cheap test before time.Parse, which allocates its error:
// at least min bytes, starting "dddd-".
func isoLike(w string, min int) bool {
	return len(w) >= min && w[4] == '-' && w[0] >= '0' && w[0] <= '9'
}
