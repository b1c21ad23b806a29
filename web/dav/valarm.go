package dav

import (
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-ical"

	"tend/app"
	"tend/web/calfeed"
)

// readAlarms takes from a VTODO's VALARMs the reminders tend models,
// leaving among its children those it keeps as written. A VALARM is a
// reminder when it is exactly what writeAlarms writes for one: a DISPLAY
// or AUDIO alarm that fires once, at an instant or at or before a timed
// due. TRIGGER relative to the start means the due when the VTODO has no
// DTSTART (as task apps write it) or its DTSTART is the due. The same
// reminder twice is kept as written the second time.
func readAlarms(todo *ical.Component, in app.DavPut) []app.Reminder {
	var rs []app.Reminder
	seen := map[string]bool{}
	kept := todo.Children[:0:0]
	for _, c := range todo.Children {
		r, ok := alarmReminder(c, in)
		if ok && !seen[r.Key()] {
			seen[r.Key()] = true
			rs = append(rs, r)
			continue
		}
		kept = append(kept, c)
	}
	todo.Children = kept
	return rs
}

// alarmReminder reads one VALARM as a reminder; ok is false for one tend
// does not model.
func alarmReminder(c *ical.Component, in app.DavPut) (app.Reminder, bool) {
	if c.Name != ical.CompAlarm || len(c.Props.Values(ical.PropTrigger)) != 1 || c.Props.Get(ical.PropRepeat) != nil ||
		c.Props.Get(ical.PropDuration) != nil {
		return app.Reminder{}, false
	}
	if a := c.Props.Get(ical.PropAction); a == nil || !strings.EqualFold(a.Value, "DISPLAY") && !strings.EqualFold(a.Value, "AUDIO") {
		return app.Reminder{}, false
	}
	p := c.Props.Get(ical.PropTrigger)
	if p.ValueType() == ical.ValueDateTime {
		at, err := p.DateTime(time.UTC)
		if err != nil || !strings.HasSuffix(p.Value, "Z") {
			return app.Reminder{}, false
		}
		at = at.UTC()
		return app.Reminder{At: &at}, true
	}
	d, err := p.Duration()
	if err != nil || d > 0 || in.Due == nil || in.Due.AllDay {
		return app.Reminder{}, false
	}
	rel := strings.ToUpper(p.Params.Get(ical.ParamRelated))
	startIsDue := in.Start == nil || in.Start.AllDay == in.Due.AllDay && in.Start.At.Equal(in.Due.At)
	if rel != "END" && (rel != "" && rel != "START" || !startIsDue) {
		return app.Reminder{}, false
	}
	return app.Reminder{Before: beforeText(-d)}, true
}

// beforeText is an offset as a reminder's before, in whole minutes
// (rounded), in the largest unit that counts it exactly: 1440 minutes are
// "1d", 90 are "90m".
func beforeText(d time.Duration) string {
	m := int64(d.Round(time.Minute) / time.Minute)
	switch {
	case m == 0:
		return "0m"
	case m%(24*60) == 0:
		return strconv.FormatInt(m/(24*60), 10) + "d"
	case m%60 == 0:
		return strconv.FormatInt(m/60, 10) + "h"
	}
	return strconv.FormatInt(m, 10) + "m"
}

// writeAlarms adds a VALARM for each of a task's reminders a VTODO can
// say: one at an instant, and one before a timed due (RELATED=END, the
// due). A reminder before an all-day due fires at the person's reminder
// time, which a VALARM cannot say, and one before no due does not fire:
// neither is written, and a PUT keeps them (app.PutDavObject).
func writeAlarms(todo *ical.Component, t app.Task) {
	timed := t.DueAt != nil && !t.DueIsAllDay
	for _, r := range t.Reminders {
		trigger := &ical.Prop{Name: ical.PropTrigger, Params: ical.Params{}}
		switch {
		case r.At != nil:
			trigger.SetDateTime(r.At.UTC())
		case timed:
			trigger.Params.Set(ical.ParamRelated, "END")
			trigger.Value = string(calfeed.AppendBefore(nil, r.Before))
		default:
			continue
		}
		a := ical.NewComponent(ical.CompAlarm)
		setRaw(a.Props, ical.PropAction, "DISPLAY")
		a.Props.SetText(ical.PropDescription, t.Title)
		a.Props.Set(trigger)
		todo.Children = append(todo.Children, a)
	}
}
