package calfeed

import (
	"strconv"

	"tend/app"
)

// appendAlarms appends a VALARM (ACTION:DISPLAY) for each of an open
// task's reminders: one at an instant as an absolute TRIGGER, one before
// a timed due relative to it (RELATED=END when the event starts earlier,
// at its start, else at DTSTART, which is the due). A reminder before an
// all-day due fires at each person's own reminder time, which a calendar
// shared by several cannot say, so it is left out.
func appendAlarms(b []byte, t app.FeedTask) []byte {
	if len(t.Reminders) == 0 || t.Status.Category == app.CategoryDone || t.Status.Category == app.CategoryCancelled {
		return b
	}
	timed := t.DueAt != nil && !t.DueIsAllDay
	related := ""
	if timed && t.StartsAt != nil && t.StartsAt.Before(*t.DueAt) {
		related = ";RELATED=END"
	}
	for _, r := range t.Reminders {
		var trigger []byte
		switch {
		case r.At != nil:
			trigger = r.At.UTC().AppendFormat([]byte("TRIGGER;VALUE=DATE-TIME:"), utcStamp)
		case timed:
			trigger = append(append([]byte("TRIGGER"), related...), ':')
			trigger = AppendBefore(trigger, r.Before)
		default:
			continue
		}
		b = append(b, "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:"...)
		b = appendText(b, t.Title)
		b = append(append(append(b, "\r\n"...), trigger...), "\r\nEND:VALARM\r\n"...)
	}
	return b
}

// AppendBefore appends a reminder's offset before the due ("30m", "2h",
// "1d") as a negative RFC 5545 DURATION; at the due itself, PT0S. It is
// the one writing of a reminder's TRIGGER, for the feeds and for CalDAV.
func AppendBefore(b []byte, before string) []byte {
	n, err := strconv.Atoi(before[:len(before)-1])
	if err != nil || n == 0 {
		return append(b, "PT0S"...)
	}
	b = append(b, "-P"...)
	switch before[len(before)-1] {
	case 'd':
		return append(strconv.AppendInt(b, int64(n), 10), 'D')
	case 'h':
		return append(strconv.AppendInt(append(b, 'T'), int64(n), 10), 'H')
	}
	return append(strconv.AppendInt(append(b, 'T'), int64(n), 10), 'M')
}
