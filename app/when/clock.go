package when

import (
	"fmt"
	"strings"
)

// Clock is a time of day on a 24-hour clock.
type Clock struct {
	Hour, Minute int
}

// String writes the clock as "9:00" or "17:30", which MatchClock reads.
func (c Clock) String() string { return fmt.Sprintf("%d:%02d", c.Hour, c.Minute) }

// ClockWords are the times of day written as words.
var ClockWords = map[string]Clock{"noon": {12, 0}, "midday": {12, 0}, "midnight": {0, 0}}

// MatchClock reads a time of day at toks[i]: "9am", "9:30 pm", "noon",
// "17:30", and after "at" also a bare hour ("at 9" is 9:00). A 24-hour
// "17:30" without "at" is read only when bare is true: a captured line
// takes it only right after a date. It returns how many tokens it read,
// 0 when there is no time of day at i.
func MatchClock(toks []Token, i int, bare bool) (Clock, int) {
	c, n, _ := matchClock(toks, i, bare)
	return c, n
}

// matchClock is MatchClock that also reports an hour said alone ("at 8"),
// which may be morning or evening.
func matchClock(toks []Token, i int, bare bool) (c Clock, n int, hourOnly bool) {
	t := texts(toks)
	at := 0
	if t.at(i) == "at" || t.at(i) == "@" { // "Fri @ 7pm", as Todoist teaches
		at, bare = 1, true
	}
	w := t.at(i + at)
	if c, ok := ClockWords[w]; ok {
		return c, at + 1, false
	}
	if c, ok := ampm(w, ""); ok {
		return c, at + 1, false
	}
	if next := t.at(i + at + 1); next == "am" || next == "pm" || next == "a.m" || next == "p.m" {
		if c, ok := ampm(w, next); ok {
			return c, at + 2, false
		}
	}
	if !bare {
		return Clock{}, 0, false
	}
	if h, m, ok := hhmm(w); ok {
		return Clock{h, m}, at + 1, false
	}
	if at == 1 {
		if h, ok := smallInt(w, 2); ok && h < 24 {
			return Clock{h, 0}, 2, w[0] != '0' // "at 09" is a 24-hour clock
		}
	}
	return Clock{}, 0, false
}

// ampm reads "9am", "9:30pm" (suffix "") or "9" followed by the word suf.
func ampm(w, suf string) (Clock, bool) {
	if suf == "" {
		var ok bool
		for _, s := range []string{"am", "pm", "a.m", "p.m"} {
			if w, ok = strings.CutSuffix(w, s); ok {
				suf = s
				break
			}
		}
		if !ok {
			return Clock{}, false
		}
	}
	h, m, ok := hhmm(w)
	if !ok {
		h, ok = smallInt(w, 2)
	}
	if !ok || h < 1 || h > 12 {
		return Clock{}, false
	}
	h %= 12
	if suf[0] == 'p' {
		h += 12
	}
	return Clock{h, m}, true
}

// hhmm reads "17:30" or "9:05".
func hhmm(w string) (int, int, bool) {
	hs, ms, ok := strings.Cut(w, ":")
	if !ok || len(ms) != 2 {
		return 0, 0, false
	}
	h, ok1 := smallInt(hs, 2)
	m, ok2 := smallInt(ms, 2)
	if !ok1 || !ok2 || h > 23 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}
