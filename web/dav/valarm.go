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
// reminder twice is kept as written the second time. A reminder's alarm
// is kept too, marked with the reminder it says (reminderMark), so that
// its identity (UID, X-WR-ALARMUID, RELATED-TO), ACTION, ATTACH and
// ACKNOWLEDGED come back as the app wrote them; its ACKNOWLEDGED is the
// reminder's Acknowledged.
func readAlarms(todo *ical.Component, in app.DavPut) []app.Reminder {
	var rs []app.Reminder
	seen := map[string]bool{}
	kept := todo.Children[:0:0]
	for _, c := range todo.Children {
		r, ok := alarmReminder(c, in)
		if ok && !seen[r.Key()] {
			seen[r.Key()] = true
			if p := c.Props.Get(propAcknowledged); p != nil {
				if at, err := p.DateTime(time.UTC); err == nil {
					at = at.UTC()
					r.Acknowledged = &at
				}
			}
			rs = append(rs, r)
			setRaw(c.Props, reminderMark, r.Key())
		}
		kept = append(kept, c)
	}
	todo.Children = kept
	return rs
}

// propAcknowledged is RFC 9074's ACKNOWLEDGED: when the alarm was last
// shown or dismissed.
const propAcknowledged = "ACKNOWLEDGED"

// reminderMark names, on a VALARM tend keeps, the reminder (its Key) the
// alarm says: it is served for that reminder while the task has it, and
// never served as it is.
const reminderMark = "X-TEND-REMINDER"

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
// neither is written, and a PUT keeps them (app.PutDavObject). The alarm
// an app wrote for a reminder (kept, marked) is served as written, its
// TRIGGER too while it still says the reminder of the VTODO as served;
// tend writes one for the others. A marked alarm of a reminder the task no
// longer has is not served.
func writeAlarms(todo *ical.Component, t app.Task, kept []*ical.Component) {
	timed := t.DueAt != nil && !t.DueIsAllDay
	served := servedWhen(todo)
	used := make([]bool, len(kept))
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
		if a := keptAlarm(kept, used, r); a != nil {
			if said, ok := alarmReminder(a, served); !ok || !said.SameTime(r) {
				a.Props.Set(trigger)
			}
			todo.Children = append(todo.Children, a)
			continue
		}
		a := ical.NewComponent(ical.CompAlarm)
		setRaw(a.Props, ical.PropAction, "DISPLAY")
		a.Props.SetText(ical.PropDescription, t.Title)
		a.Props.Set(trigger)
		todo.Children = append(todo.Children, a)
	}
}

// keptAlarm is the first kept alarm not used yet marked with a reminder
// that fires when r does, without its mark; nil when there is none.
func keptAlarm(kept []*ical.Component, used []bool, r app.Reminder) *ical.Component {
	for i, c := range kept {
		mark := c.Props.Get(reminderMark)
		if used[i] || mark == nil {
			continue
		}
		if said, ok := app.ReminderOfKey(mark.Value); ok && said.SameTime(r) {
			used[i] = true
			a := &ical.Component{Name: c.Name, Props: ical.Props{}, Children: c.Children}
			for name, ps := range c.Props {
				if name != reminderMark {
					a.Props[name] = ps
				}
			}
			return a
		}
	}
	return nil
}

// servedWhen is the DUE and DTSTART of a VTODO as tend serves it, which an
// app reads a kept alarm's relative TRIGGER against.
func servedWhen(todo *ical.Component) app.DavPut {
	var in app.DavPut
	in.Due, _, _ = readWhen(todo, ical.PropDue)
	in.Start, _, _ = readWhen(todo, ical.PropDateTimeStart)
	return in
}
