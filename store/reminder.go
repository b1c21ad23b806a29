package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

// reminderList is a task's reminders, held as a JSON array (NULL for none).
func reminderList[T any](f func(*T) *[]app.Reminder) field[T] {
	return field[T]{dest: func(v *T) sql.Scanner { return remindersDest{f(v)} },
		value: func(v *T) any { return nullStr(app.RemindersText(*f(v))) }}
}

type remindersDest struct{ p *[]app.Reminder }

func (d remindersDest) Scan(src any) error {
	var s string
	if err := (textDest{&s}).Scan(src); err != nil {
		return err
	}
	rs, err := app.ParseRemindersText(s)
	*d.p = rs
	return err
}

// ReplaceReminderFires deletes the pending firings of the tasks ids and
// queues fires in their place, each in one statement; a firing sent
// already keeps its row (the key is unique), so the same reminder is not
// queued twice. With keepDue, a pending firing whose time has come (at or
// before now) and a snooze keep their rows.
func (t *Tx) ReplaceReminderFires(ctx context.Context, ids []string, fires []app.ReminderFire, now time.Time, keepDue bool) error {
	if err := t.withdrawFutureReminders(ctx, ids, now, keepDue); err != nil {
		return err
	}
	if len(fires) == 0 {
		return nil
	}
	rows := make([][5]any, len(fires))
	for i, f := range fires {
		rows[i] = [5]any{f.TaskID, f.UserID, f.Reminder, fmtTime(f.FireAt), fmtTimePtr(f.DueAt)}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO reminder_fires (task_id, user_id, reminder, fire_at, due_at, created_at)
		SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ? FROM json_each(?)`, fmtTime(now), jsonText(rows))
	return mapErr(err)
}

// PendingReminderFires lists the pending firings of the tasks ids, by task.
func (t *Tx) PendingReminderFires(ctx context.Context, ids []string) (map[string][]app.ReminderFire, error) {
	var rows []struct {
		TaskID   string         `db:"task_id"`
		UserID   string         `db:"user_id"`
		Reminder string         `db:"reminder"`
		FireAt   string         `db:"fire_at"`
		DueAt    sql.NullString `db:"due_at"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT task_id, user_id, reminder, fire_at, due_at FROM reminder_fires
		WHERE task_id IN (SELECT value FROM json_each(?)) AND state = 'pending' ORDER BY fire_at`, jsonText(ids))
	out := make(map[string][]app.ReminderFire, len(ids))
	for _, r := range rows {
		out[r.TaskID] = append(out[r.TaskID], app.ReminderFire{TaskID: r.TaskID, UserID: r.UserID, Reminder: r.Reminder,
			FireAt: parseTime(r.FireAt), DueAt: parseTimePtr(r.DueAt)})
	}
	return out, mapErr(err)
}

// withdrawReminders deletes the pending firings of the tasks ids.
func (t *Tx) withdrawReminders(ctx context.Context, ids []string) error {
	return t.withdrawFutureReminders(ctx, ids, time.Time{}, false)
}

// withdrawFutureReminders deletes the pending firings of the tasks ids;
// with keepDue, all but those due at now and the snoozes.
func (t *Tx) withdrawFutureReminders(ctx context.Context, ids []string, now time.Time, keepDue bool) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := t.tx.ExecContext(ctx, `DELETE FROM reminder_fires WHERE task_id IN (SELECT value FROM json_each(?)) AND state = 'pending'
		AND NOT (? AND (fire_at <= ? OR reminder LIKE 'snooze:%'))`, jsonText(ids), keepDue, fmtTime(now))
	return mapErr(err)
}

// PendingReminderTasks lists the tasks with a firing pending for the
// person userID.
func (t *Tx) PendingReminderTasks(ctx context.Context, userID string) ([]app.TaskLocation, error) {
	var rows []struct {
		ID          string `db:"id"`
		WorkspaceID string `db:"workspace_id"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT t.id, t.workspace_id FROM tasks t
		WHERE t.id IN (SELECT task_id FROM reminder_fires WHERE user_id = ? AND state = 'pending') ORDER BY t.id`, userID)
	out := make([]app.TaskLocation, len(rows))
	for i, r := range rows {
		out[i] = app.TaskLocation{ID: r.ID, WorkspaceID: r.WorkspaceID}
	}
	return out, mapErr(err)
}
