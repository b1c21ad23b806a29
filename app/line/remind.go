package line

import (
	"regexp"
	"strconv"
	"time"

	"tend/app/when"
)

// Remind is a reminder read from a line: Before its due (canonical, as
// "30m"), or At an instant.
type Remind struct {
	Before string
	At     time.Time
}

// remindUnits are the words of a count before the due, by unit.
var remindUnits = map[string]string{"m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
	"h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h", "d": "d", "day": "d", "days": "d"}

var remindOffset = regexp.MustCompile(`^([0-9]{1,4})(m|min|mins|h|hr|hrs|d)$`)

// remind reads a reminder at token i: "remind [me] 30m before", "remind
// 1 hour before", "remind at 8:00" (on the due's day, else the next such
// time), "remind tomorrow 7pm". It returns how many tokens it took, 0
// when the words are no reminder (they stay in the title).
func (r *reader) remind(toks []when.Token, i int) int {
	if toks[i].Text != "remind" {
		return 0
	}
	j := i + 1
	if j < len(toks) && toks[j].Text == "me" {
		j++
	}
	if j >= len(toks) {
		return 0
	}
	if n, unit, k := offsetAt(toks, j); k > 0 {
		if j+k < len(toks) && toks[j+k].Text == "before" {
			k++
		}
		b := strconv.Itoa(n) + unit
		r.res.Reminders = append(r.res.Reminders, Remind{Before: b})
		r.span(KindRemind, i, j+k-i, b+" before")
		return j + k - i
	}
	if toks[j].Text == "at" {
		if c, n := when.MatchClock(toks, j+1, true); n > 0 {
			r.clocks = append(r.clocks, remindClock{len(r.res.Reminders), c, len(r.res.Spans)})
			r.res.Reminders = append(r.res.Reminders, Remind{})
			r.span(KindRemind, i, j+1+n-i, "at "+c.String())
			return j + 1 + n - i
		}
	}
	if m, n := when.MatchDate(toks, j, r.now, r.loc); n > 0 && !m.AllDay {
		r.res.Reminders = append(r.res.Reminders, Remind{At: m.Time})
		r.span(KindRemind, i, j+n-i, m.String())
		return j + n - i
	}
	return 0
}

// remindClock is a "remind at 8:00" read, which settle puts on a day once
// the whole line (and so its due) is known.
type remindClock struct {
	index int // in Result.Reminders
	clock when.Clock
	span  int // in Result.Spans
}

// offsetAt reads a count and its unit at toks[j]: "30m" or "30 min".
func offsetAt(toks []when.Token, j int) (int, string, int) {
	if m := remindOffset.FindStringSubmatch(toks[j].Text); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, remindUnits[m[2]], 1
	}
	n, err := strconv.Atoi(toks[j].Text)
	if err != nil || n > 9999 || j+1 >= len(toks) {
		return 0, "", 0
	}
	if u, ok := remindUnits[toks[j+1].Text]; ok {
		return n, u, 2
	}
	return 0, "", 0
}

// settleReminders puts each "remind at <time>" on the due's day, or
// without a due on the next such time from now.
func (r *reader) settleReminders() {
	for _, c := range r.clocks {
		var at time.Time
		if r.res.Due.IsZero() {
			y, mo, d := r.now.Date()
			at = time.Date(y, mo, d, c.clock.Hour, c.clock.Minute, 0, 0, r.loc)
			if !at.After(r.now) {
				at = time.Date(y, mo, d+1, c.clock.Hour, c.clock.Minute, 0, 0, r.loc)
			}
		} else {
			y, mo, d := r.res.Due.In(r.loc).Date()
			at = time.Date(y, mo, d, c.clock.Hour, c.clock.Minute, 0, 0, r.loc)
		}
		r.res.Reminders[c.index].At = at
		r.res.Spans[c.span].Value = when.Moment{Time: at}.String()
	}
}
