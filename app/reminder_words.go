package app

import (
	"context"
	"strings"
	"time"

	"tend/app/line"
)

// ReadReminder reads one reminder as a person writes it beside the task
// ref, in the words a captured line's remind takes: an offset before the
// due ("30m", "1h before"), "at 8:00" (on the due's day, or without a due
// the next 8:00) or a moment ("tomorrow 7pm"), in the task's zone. The
// pages' add control sends it; the reminder is then written as any other.
func (s *Service) ReadReminder(ctx context.Context, a Actor, workspace, ref, text string) (Reminder, error) {
	t, err := s.TaskGet(ctx, a, workspace, ref)
	if err != nil {
		return Reminder{}, err
	}
	var now time.Time
	if err := s.store.View(ctx, func(tx Tx) error { now = tx.Now(); return nil }); err != nil {
		return Reminder{}, err
	}
	return readReminder(strings.TrimSpace(text), t, now)
}

// readReminder is ReadReminder's reading of text for task t at now.
func readReminder(text string, t Task, now time.Time) (Reminder, error) {
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "remind "), "me "))
	if b, ok := ParseBefore(strings.TrimSpace(strings.TrimSuffix(text, " before"))); ok {
		return Reminder{Before: b}, nil
	}
	zone := t.Timezone
	if zone == "" {
		zone = t.ReaderZone
	}
	loc := loadZone(zone).Loc
	if m, ok := ParseClock(strings.TrimSpace(strings.TrimPrefix(text, "at "))); ok && t.DueAt != nil && strings.HasPrefix(text, "at ") {
		y, mo, d := t.DueAt.In(loc).Date()
		at := time.Date(y, mo, d, m/60, m%60, 0, 0, loc).UTC()
		return Reminder{At: &at}, nil
	}
	res, err := line.Parse("reminder remind "+text, now, loc)
	if err != nil || len(res.Reminders) != 1 || res.Title != "reminder" {
		return Reminder{}, Invalidf("body.reminders", "%q is no reminder: write 30m, 1h or 1d (before the due), at 8:00, or a moment such as tomorrow 7pm", text)
	}
	return lineReminders(res.Reminders)[0], nil
}
