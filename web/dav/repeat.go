package dav

import (
	"strings"

	"github.com/emersion/go-ical"

	"tend/app"
)

// writeRepeat writes a repeating task's RRULE (its series from this
// occurrence on) and, where the task has no plan, the occurrence's due as
// its DTSTART too: RFC 5545 counts a rule from DTSTART, and Thunderbird
// shows no repeating task without one.
func writeRepeat(p ical.Props, o app.DavObject, z zones) {
	rr := o.RRule()
	if rr == "" {
		return
	}
	if o.Task.StartsAt == nil {
		setWhen(p, ical.PropDateTimeStart, o.Task.DueAt, o.Task.DueIsAllDay, z)
	}
	setRaw(p, ical.PropRecurrenceRule, rr)
}

// readRepeat reads a master's RRULE and, beside one, the overrides sent
// with it (VTODOs with a RECURRENCE-ID), which tend reads for a completion
// and does not keep: it serves the series at its current occurrence. It
// reports whether it took the overrides. More than one RRULE is passed on
// as written, for the repeat's reader to refuse.
func readRepeat(in *app.DavPut, todo *ical.Component, overrides []*ical.Component) (bool, error) {
	var rules []string
	for _, p := range todo.Props.Values(ical.PropRecurrenceRule) {
		rules = append(rules, p.Value)
	}
	if len(rules) == 0 {
		return false, nil
	}
	in.RRule = strings.Join(rules, "\nRRULE:")
	for _, c := range overrides {
		at, _, err := readWhen(c, ical.PropRecurrenceID)
		if err != nil {
			return false, err
		}
		status, _ := c.Props.Text(ical.PropStatus)
		done := strings.EqualFold(status, "COMPLETED") || status == "" && c.Props.Get(ical.PropCompleted) != nil
		in.Overrides = append(in.Overrides, app.DavOverride{RecurrenceID: *at, Completed: done})
	}
	return true, nil
}

// nextExtra is what tend keeps of a repeating task's resource for its next
// occurrence, when the write completes the current one: what keptLines
// keeps, but the current occurrence's progress (PERCENT-COMPLETE).
func nextExtra(rest *ical.Calendar, keep *ical.Component) (string, error) {
	progress, ok := keep.Props[ical.PropPercentComplete]
	if !ok {
		return keptLines(rest, keep)
	}
	delete(keep.Props, ical.PropPercentComplete)
	defer func() { keep.Props[ical.PropPercentComplete] = progress }()
	return keptLines(rest, keep)
}
