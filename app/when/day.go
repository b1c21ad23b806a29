package when

import "time"

// PartsOfDay are the parts of a day a phrase may name instead of a time of
// day ("tomorrow morning", "this evening", "every friday afternoon"), and
// the time each stands for. Night is tonight's time.
var PartsOfDay = map[string]Clock{"morning": {9, 0}, "afternoon": {14, 0}, "evening": {19, 0}, "night": {20, 0}}

// MatchDayTime reads the time of day that may follow a day, at toks[i]:
// a time as MatchClock reads it after a day ("9am", "at 17:30", "17:30"),
// or a part of the day ("morning"), which a time may follow to say when
// in it ("evening at 7" is 19:00). It returns how many tokens it read.
func MatchDayTime(toks []Token, i int) (Clock, int) {
	if c, n := MatchClock(toks, i, true); n > 0 {
		return c, n
	}
	if c, n := matchPartOfDay(toks, i); n > 0 {
		return c, n
	}
	part, ok := PartsOfDay[texts(toks).at(i)]
	if !ok {
		return Clock{}, 0
	}
	if c, n := MatchClock(toks, i+1, true); n > 0 {
		return inPart(part, c), n + 1
	}
	return part, 1
}

// matchPartOfDay reads a part of the day said with its preposition: "in
// the morning", "in the evening at 7", "at night". Said alone, such a
// phrase is a time of day ("Call Sam in the morning"), while a bare
// "morning" is a title word ("Morning run").
func matchPartOfDay(toks []Token, i int) (Clock, int) {
	t := texts(toks)
	switch {
	case t.at(i) == "in" && t.at(i+1) == "the":
		if _, ok := PartsOfDay[t.at(i+2)]; ok {
			c, n := MatchDayTime(toks, i+2)
			return c, n + 2
		}
	case t.at(i) == "at" && t.at(i+1) == "night":
		return PartsOfDay["night"], 2
	}
	return Clock{}, 0
}

// inPart reads an hour said in a part of the day that begins at noon or
// later on the afternoon's clock: "tonight at 8" is 20:00.
func inPart(part, c Clock) Clock {
	if part.Hour >= 12 && c.Hour >= 1 && c.Hour < 12 {
		c.Hour += 12
	}
	return c
}

// relativeDay reads the days named from today in more than a word: "the
// day after tomorrow" ("the" is optional), and, after a prefix, "the
// weekend" and a day of the month ("by the 15th", "on the 1st"): the next
// such day from today.
func relativeDay(t texts, j int, today time.Time, loose bool) (Moment, int) {
	k := j
	if t.at(k) == "the" {
		k++
	}
	if t.at(k) == "day" && t.at(k+1) == "after" && t.at(k+2) == "tomorrow" {
		return day(today.AddDate(0, 0, 2)), k + 3 - j
	}
	if !loose || k == j {
		return Moment{}, 0
	}
	if t.at(k) == "weekend" { // "by the weekend": its Saturday, or today on one
		if today.Weekday() == time.Saturday || today.Weekday() == time.Sunday {
			return day(today), k + 1 - j
		}
		return day(coming(today, time.Saturday, false)), k + 1 - j
	}
	if m, n := matchCalendarDate(t, k, today); n > 0 {
		return m, k + n - j
	}
	dom, ok := Ordinal(t.at(k))
	if !ok || !endsDayOfMonth(t, k+1) {
		return Moment{}, 0
	}
	if m, ok := nextDayOfMonth(today, dom); ok {
		return m, k + 1 - j
	}
	return Moment{}, 0
}

// nextDayOfMonth is the next day numbered dom from today on, in a month
// that has one.
func nextDayOfMonth(today time.Time, dom int) (Moment, bool) {
	y, m, _ := today.Date()
	for i := 0; i < 12; i++ {
		d := time.Date(y, m+time.Month(i), dom, 0, 0, 0, 0, today.Location())
		if d.Day() == dom && !d.Before(today) {
			return day(d), true
		}
	}
	return Moment{}, false
}

// endsDayOfMonth reports whether "the 15th" ends at t[k]: a word after
// it may only be a time ("by the 15th at noon") or start a repeat ("on
// the 1st every month"), so that "on the 3rd floor" is not a date.
func endsDayOfMonth(t texts, k int) bool {
	w := t.at(k)
	if w == "" || w == "at" || w == "every" || w == "every!" {
		return true
	}
	c := w[0]
	letter := c >= 'a' && c <= 'z' || c >= 0x80
	if !letter {
		return true
	}
	_, n := MatchDayTime(t, k)
	return n > 0
}
