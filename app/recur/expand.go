package recur

import (
	"time"

	"github.com/teambition/rrule-go"

	"tend/app/when"
)

// MaxOccurrences caps one expansion, whatever limit the caller asks for.
const MaxOccurrences = 1000

// maxSteps caps how many occurrences an expansion walks past before its
// window starts; a window that far from the anchor is reported as cut.
const maxSteps = 200_000

// options is the rrule-go form of the rule on dtstart; bounded adds COUNT
// and UNTIL, interval1 forces INTERVAL=1 (to find the anchor).
func (r *Rule) options(dtstart time.Time, bounded, interval1 bool) rrule.ROption {
	o := rrule.ROption{Freq: r.freq, Dtstart: dtstart, Interval: r.interval, Byweekday: r.days, Bymonthday: r.monthDays}
	if interval1 {
		o.Interval = 1
	}
	if r.month != 0 {
		o.Bymonth = []int{int(r.month)}
	}
	if r.clock != nil {
		o.Byhour, o.Byminute, o.Bysecond = []int{r.clock.Hour}, []int{r.clock.Minute}, []int{0}
	}
	if bounded {
		o.Count, o.Until = r.count, r.until
	}
	return o
}

// build anchors the rule on its first occurrence at or after start (for
// an all-day rule, on or after start's day) and prepares the expansion.
func (r *Rule) build(start time.Time) error {
	start = start.In(r.loc).Truncate(time.Second)
	if r.clock == nil {
		y, m, d := start.Date()
		start = time.Date(y, m, d, 0, 0, 0, 0, r.loc)
	}
	probe, err := rrule.NewRRule(r.options(start, false, true))
	if err != nil {
		return err
	}
	a := probe.After(start, true)
	if a.IsZero() {
		return errNever
	}
	if !r.until.IsZero() && a.After(r.until) {
		return errEnded
	}
	rr, err := rrule.NewRRule(r.options(a, true, false))
	if err != nil {
		return err
	}
	r.anchor, r.rr = a, rr
	return nil
}

// Restart is the same rule anchored on its first occurrence at or after
// start, keeping its COUNT and UNTIL (a series going on "from now on").
func (r Rule) Restart(start time.Time) (Rule, error) {
	if r.IsZero() {
		return r, errNever
	}
	err := r.build(start)
	return r, err
}

// At is the rule at the time of day c, for one that has none: a date
// phrase with a time gives its repeat that time ("tomorrow 9am every
// month" is monthly at 9:00). An UNTIL day then includes all of that day.
// The rule is anchored on its first occurrence at or after start.
func (r Rule) At(c when.Clock, start time.Time) (Rule, error) {
	if r.IsZero() {
		return r, errNever
	}
	if r.clock == nil && !r.until.IsZero() {
		y, m, d := r.until.In(r.loc).Date()
		r.until = time.Date(y, m, d, 23, 59, 59, 0, r.loc)
	}
	r.clock = &c
	err := r.build(start)
	return r, err
}

// Next is the first scheduled occurrence strictly after after; false when
// the rule has ended.
func (r Rule) Next(after time.Time) (time.Time, bool) {
	if r.IsZero() {
		return time.Time{}, false
	}
	t := r.rr.After(after, false)
	return t, !t.IsZero()
}

// NextAfterCompletion is the occurrence that follows one done at doneAt.
// For a rule from completion it is doneAt's day (in the rule's zone) plus
// the interval, at the rule's time of day; UNTIL ends it, COUNT is the
// caller's to count. For a scheduled rule it is Next(doneAt): the first
// scheduled occurrence after the moment of completion.
func (r Rule) NextAfterCompletion(doneAt time.Time) (time.Time, bool) {
	if r.IsZero() {
		return time.Time{}, false
	}
	if !r.fromDone {
		return r.Next(doneAt)
	}
	y, m, d := doneAt.In(r.loc).Date()
	var c when.Clock
	if r.clock != nil {
		c = *r.clock
	}
	next := freqUnit[r.freq].Add(time.Date(y, m, d, c.Hour, c.Minute, 0, 0, r.loc), r.interval)
	if !r.until.IsZero() && next.After(r.until) {
		return time.Time{}, false
	}
	return next, true
}

var freqUnit = map[rrule.Frequency]when.Unit{rrule.DAILY: when.Day, rrule.WEEKLY: when.Week, rrule.MONTHLY: when.Month, rrule.YEARLY: when.Year}

// Occurrences lists the scheduled occurrences from from (inclusive; zero
// for no bound) to until (inclusive; zero for no bound), at most limit of them (at most
// MaxOccurrences; 0 or less means MaxOccurrences). hasMore reports that
// the list was cut while the rule goes on.
func (r Rule) Occurrences(from, until time.Time, limit int) (times []time.Time, hasMore bool) {
	if r.IsZero() {
		return nil, false
	}
	if limit <= 0 || limit > MaxOccurrences {
		limit = MaxOccurrences
	}
	next := r.rr.Iterator()
	for steps := 0; ; steps++ {
		t, ok := next()
		if !ok || !until.IsZero() && t.After(until) {
			return times, false
		}
		if len(times) == limit || steps >= maxSteps {
			return times, true
		}
		// A zero from is no bound, not 0001-01-01 UTC: an anchor in year 1
		// east of Greenwich falls before that instant.
		if from.IsZero() || !t.Before(from) {
			times = append(times, t)
		}
	}
}
