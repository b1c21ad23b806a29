package wire

import (
	"time"

	"tend/app"
)

// Reminder is one reminder as a request sends it: {"before": "30m"} or
// {"at": "<instant>"}. A fire_at sent back from a read is ignored, so a
// record read can be written again as it is.
type Reminder struct {
	Before string     `json:"before,omitempty"`
	At     *time.Time `json:"at,omitempty"`
	FireAt *time.Time `json:"fire_at,omitempty"`
	// Acknowledged is never read from a request: only a calendar app's
	// VALARM says it. It is here so that a request's reminders convert to
	// the Service's.
	Acknowledged *time.Time `json:"-"`
}

// TaskReminder is a reminder as a task reads: its before or at, and
// fire_at, the next time it fires (null once past, or without a due).
type TaskReminder struct {
	Before *string `json:"before,omitempty"`
	At     *string `json:"at,omitempty"`
	FireAt *string `json:"fire_at"`
}

// NewReminders is a task's reminders for the wire, [] for none.
func NewReminders(rs []app.Reminder) []TaskReminder {
	out := make([]TaskReminder, len(rs))
	for i, r := range rs {
		out[i] = TaskReminder{Before: OrNull(r.Before), At: StampPtr(r.At), FireAt: StampPtr(r.FireAt)}
	}
	return out
}

// appReminders is a request's reminders as the Service takes them.
func appReminders(rs []Reminder) []app.Reminder {
	if rs == nil {
		return nil
	}
	out := make([]app.Reminder, len(rs))
	for i, r := range rs {
		out[i] = app.Reminder(r)
	}
	return out
}

// appendReminders appends rs as encoding/json writes them.
func appendReminders(b []byte, rs []TaskReminder) []byte {
	b = append(b, '[')
	for i, r := range rs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if r.Before != nil {
			b = append(b, `"before":`...)
			b = appendString(b, *r.Before)
			b = append(b, ',')
		}
		if r.At != nil {
			b = append(b, `"at":`...)
			b = appendString(b, *r.At)
			b = append(b, ',')
		}
		b = append(b, `"fire_at":`...)
		b = appendStringPtr(b, r.FireAt)
		b = append(b, '}')
	}
	return append(b, ']')
}
