package recur

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// freqWords names the period of each frequency, singular.
var freqWords = map[rrule.Frequency]string{rrule.DAILY: "day", rrule.WEEKLY: "week", rrule.MONTHLY: "month", rrule.YEARLY: "year"}

// Description is the rule in words, written so that Parse reads it back
// to the same rule: "every other Friday at 9:00", "every month on the
// last day until 2027-06-30", "3 days after done".
func (r Rule) Description() string {
	if r.IsZero() {
		return ""
	}
	var b strings.Builder
	if r.fromDone {
		b.WriteString(count(r.interval, freqWords[r.freq]) + " after done")
	} else {
		b.WriteString(r.pattern())
	}
	if r.clock != nil {
		b.WriteString(" at " + r.clock.String())
	}
	switch {
	case r.count == 1:
		b.WriteString(", 1 time")
	case r.count > 1:
		b.WriteString(", " + strconv.Itoa(r.count) + " times")
	case !r.until.IsZero():
		b.WriteString(" until " + r.untilWords())
	}
	return b.String()
}

func (r Rule) pattern() string {
	period := every(r.interval, freqWords[r.freq])
	switch {
	case r.freq == rrule.WEEKLY && len(r.days) > 0:
		if r.interval == 1 && slices.Equal(r.days, WorkWeek) {
			return "every weekday"
		}
		names := make([]string, len(r.days))
		for i, d := range r.days {
			names[i] = dayName(d)
		}
		switch r.interval {
		case 1:
			return "every " + list(names)
		case 2:
			return "every other " + list(names)
		}
		return period + " on " + list(names)
	case r.freq == rrule.MONTHLY && len(r.days) == 1:
		pos := r.days[0].N()
		p := "last"
		if pos > 0 {
			p = ordinal(pos)
		}
		return period + " on the " + p + " " + dayName(r.days[0])
	case r.freq == rrule.MONTHLY && slices.Equal(r.monthDays, []int{-1}):
		return period + " on the last day"
	case r.freq == rrule.MONTHLY && len(r.monthDays) > 0:
		names := make([]string, len(r.monthDays))
		for i, d := range r.monthDays {
			names[i] = ordinal(d)
		}
		return period + " on the " + list(names)
	case r.freq == rrule.YEARLY && r.month != 0:
		return period + " on " + r.month.String() + " " + strconv.Itoa(r.monthDays[0])
	}
	return period
}

// untilWords writes UNTIL as a date when it is a whole last day, and as
// an instant otherwise.
func (r Rule) untilWords() string {
	u := r.until.In(r.loc)
	if r.clock == nil || u.Hour() == 23 && u.Minute() == 59 && u.Second() == 59 {
		return u.Format(time.DateOnly)
	}
	return u.Format(time.RFC3339)
}

func every(n int, unit string) string {
	switch n {
	case 1:
		return "every " + unit
	case 2:
		return "every other " + unit
	}
	return "every " + strconv.Itoa(n) + " " + unit + "s"
}

func count(n int, unit string) string {
	if n == 1 {
		return "a " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func dayName(d rrule.Weekday) string {
	return time.Weekday((d.Day() + 1) % 7).String()
}

func ordinal(n int) string {
	suf := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suf = "st"
	case n%10 == 2:
		suf = "nd"
	case n%10 == 3:
		suf = "rd"
	}
	return strconv.Itoa(n) + suf
}

// list joins words as "a", "a and b", "a, b and c".
func list(w []string) string {
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}
