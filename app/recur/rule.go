package recur

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"tend/app/when"
)

// Rule is a parsed repeat: the recurrence, its anchor (the first
// occurrence) in its zone, and its mode. The zero Rule repeats nothing;
// build one with Parse or Match.
type Rule struct {
	freq      rrule.Frequency // DAILY, WEEKLY, MONTHLY or YEARLY
	interval  int             // at least 1
	days      []rrule.Weekday // BYDAY: plain for WEEKLY, one with a position for MONTHLY
	monthDays []int           // BYMONTHDAY, sorted; -1 is the last day
	month     time.Month      // BYMONTH for a YEARLY rule on a fixed day
	clock     *when.Clock     // time of day; nil for an all-day rule
	count     int             // COUNT; 0 for none
	until     time.Time       // UNTIL; all-day: the last day's midnight; zero for none
	fromDone  bool            // the next counts from completion
	anchor    time.Time       // DTSTART in loc
	loc       *time.Location
	rr        *rrule.RRule
}

// IsZero reports whether r is the zero Rule.
func (r Rule) IsZero() bool { return r.rr == nil }

// Anchor is the first occurrence (DTSTART), in the rule's zone.
func (r Rule) Anchor() time.Time { return r.anchor }

// AllDay reports whether occurrences are whole days (each given as its
// midnight in the rule's zone) rather than instants.
func (r Rule) AllDay() bool { return r.clock == nil }

// FromCompletion reports whether the next occurrence counts from when the
// last one was done rather than from the schedule.
func (r Rule) FromCompletion() bool { return r.fromDone }

// Location is the zone whose wall clock the occurrences keep.
func (r Rule) Location() *time.Location { return r.loc }

// Count is the number of occurrences the rule is bounded to, 0 for none.
// The schedule counts from the anchor; for a rule from completion the
// caller counts the occurrences of the series.
func (r Rule) Count() int { return r.count }

// Until is the last moment an occurrence may fall on (for an all-day rule,
// the midnight of the last day), zero when none.
func (r Rule) Until() time.Time { return r.until }

// RRule is the RFC 5545 RRULE value, e.g. "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR".
// UNTIL is a DATE for an all-day rule and a UTC date-time otherwise, as
// RFC 5545 asks (rrule-go always writes a date-time). Compare rules with
// Equal, never as strings.
func (r Rule) RRule() string {
	if r.IsZero() {
		return ""
	}
	p := []string{"FREQ=" + r.freq.String()}
	if r.interval > 1 {
		p = append(p, "INTERVAL="+strconv.Itoa(r.interval))
	}
	if r.count > 0 {
		p = append(p, "COUNT="+strconv.Itoa(r.count))
	}
	if !r.until.IsZero() {
		if r.AllDay() {
			p = append(p, "UNTIL="+r.until.Format("20060102"))
		} else {
			p = append(p, "UNTIL="+r.until.UTC().Format("20060102T150405Z"))
		}
	}
	if r.month != 0 {
		p = append(p, "BYMONTH="+strconv.Itoa(int(r.month)))
	}
	if len(r.monthDays) > 0 {
		p = append(p, "BYMONTHDAY="+joinInts(r.monthDays))
	}
	if len(r.days) > 0 {
		ds := make([]string, len(r.days))
		for i, d := range r.days {
			ds[i] = strings.TrimPrefix(d.String(), "+")
		}
		p = append(p, "BYDAY="+strings.Join(ds, ","))
	}
	if r.clock != nil {
		p = append(p, fmt.Sprintf("BYHOUR=%d;BYMINUTE=%d;BYSECOND=0", r.clock.Hour, r.clock.Minute))
	}
	return strings.Join(p, ";")
}

// String is the canonical text of the rule, which Parse reads back to an
// equal Rule: DTSTART (VALUE=DATE for an all-day rule, whose zone is the
// one given to Parse; TZID otherwise), the RRULE, and
// X-TEND-FROM-COMPLETION:TRUE for a rule from completion.
func (r Rule) String() string {
	if r.IsZero() {
		return ""
	}
	var b strings.Builder
	switch {
	case r.AllDay():
		b.WriteString("DTSTART;VALUE=DATE:" + r.anchor.Format("20060102"))
	case r.loc == time.UTC:
		b.WriteString("DTSTART:" + r.anchor.Format("20060102T150405Z"))
	default:
		b.WriteString("DTSTART;TZID=" + r.loc.String() + ":" + r.anchor.Format("20060102T150405"))
	}
	b.WriteString("\nRRULE:" + r.RRule())
	if r.fromDone {
		b.WriteString("\n" + fromDoneProp + ":TRUE")
	}
	return b.String()
}

// fromDoneProp is the property tend writes beside the RRULE for a rule
// whose next occurrence counts from completion.
const fromDoneProp = "X-TEND-FROM-COMPLETION"

// Equal reports whether two rules mean the same: same shape, bounds, mode,
// zone and anchor instant.
func (r Rule) Equal(o Rule) bool {
	if r.IsZero() || o.IsZero() {
		return r.IsZero() == o.IsZero()
	}
	return r.freq == o.freq && r.interval == o.interval && slices.Equal(r.days, o.days) &&
		slices.Equal(r.monthDays, o.monthDays) && r.month == o.month && r.AllDay() == o.AllDay() &&
		(r.clock == nil || *r.clock == *o.clock) && r.count == o.count && r.until.Equal(o.until) &&
		r.fromDone == o.fromDone && r.anchor.Equal(o.anchor) && r.loc.String() == o.loc.String()
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}
