package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

type notificationRow struct {
	Seq          int64          `db:"seq"`
	ID           string         `db:"id"`
	UserID       string         `db:"user_id"`
	ChannelID    sql.NullString `db:"channel_id"`
	Kind         string         `db:"kind"`
	FireSeq      sql.NullInt64  `db:"fire_seq"`
	TaskID       sql.NullString `db:"task_id"`
	WorkspaceID  sql.NullString `db:"workspace_id"`
	Title        string         `db:"title"`
	Body         string         `db:"body"`
	Path         string         `db:"path"`
	Late         bool           `db:"late"`
	State        string         `db:"state"`
	Attempts     int            `db:"attempts"`
	DueAt        string         `db:"due_at"`
	LeaseUntil   sql.NullString `db:"lease_until"`
	SentAt       sql.NullString `db:"sent_at"`
	LastError    sql.NullString `db:"last_error"`
	ActionUsedAt sql.NullString `db:"action_used_at"`
	CreatedAt    string         `db:"created_at"`
	Clears       sql.NullString `db:"clears"`
}

func (r notificationRow) notification() app.Notification {
	return app.Notification{Seq: r.Seq, ID: r.ID, UserID: r.UserID, ChannelID: r.ChannelID.String, Kind: r.Kind,
		FireSeq: r.FireSeq.Int64, TaskID: r.TaskID.String, WorkspaceID: r.WorkspaceID.String, Title: r.Title, Body: r.Body,
		Path: r.Path, Late: r.Late, State: r.State, Attempts: r.Attempts, DueAt: parseTime(r.DueAt),
		LeaseUntil: parseTimePtr(r.LeaseUntil), SentAt: parseTimePtr(r.SentAt), LastError: r.LastError.String,
		ActionUsedAt: parseTimePtr(r.ActionUsedAt), CreatedAt: parseTime(r.CreatedAt), Clears: r.Clears.String}
}

const notificationSelect = `SELECT seq, id, user_id, channel_id, kind, fire_seq, task_id, workspace_id, title, body, path, late,
	state, attempts, due_at, lease_until, sent_at, last_error, action_used_at, created_at, clears FROM notifications `

// InsertNotification queues a notification; its Seq is set.
func (t *Tx) InsertNotification(ctx context.Context, n *app.Notification) error {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO notifications (id, user_id, channel_id, kind, fire_seq, task_id, workspace_id,
		title, body, path, late, state, due_at, created_at, clears) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		n.ID, n.UserID, nullStr(n.ChannelID), n.Kind, nullInt64(n.FireSeq), nullStr(n.TaskID), nullStr(n.WorkspaceID), n.Title,
		n.Body, n.Path, n.Late, n.State, fmtTime(n.DueAt), fmtTime(n.CreatedAt), nullStr(n.Clears))
	if err != nil {
		return mapErr(err)
	}
	n.Seq, err = res.LastInsertId()
	return err
}

// nullInt64 is n, or NULL for 0.
func nullInt64(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// Notifications lists a person's notifications, newest first.
func (t *Tx) Notifications(ctx context.Context, userID string, limit int) ([]app.Notification, error) {
	return selectRows(ctx, t, notificationRow.notification, notificationSelect+`WHERE user_id = ? ORDER BY seq DESC LIMIT ?`,
		userID, limit)
}

// NotificationBySeq reads one notification.
func (t *Tx) NotificationBySeq(ctx context.Context, seq int64) (app.Notification, error) {
	return getRow(ctx, t, notificationRow.notification, notificationSelect+`WHERE seq = ?`, seq)
}

// NotificationByID reads one notification by its id.
func (t *Tx) NotificationByID(ctx context.Context, id string) (app.Notification, error) {
	return getRow(ctx, t, notificationRow.notification, notificationSelect+`WHERE id = ?`, id)
}

// DueNotifications lists the pending notifications due at now whose lease
// (if any) has run out, oldest first.
func (t *Tx) DueNotifications(ctx context.Context, now time.Time, limit int) ([]app.Notification, error) {
	at := fmtTime(now)
	return selectRows(ctx, t, notificationRow.notification, notificationSelect+`WHERE state = 'pending' AND due_at <= ?
		AND (lease_until IS NULL OR lease_until <= ?) ORDER BY due_at, seq LIMIT ?`, at, at, limit)
}

// NextNotifyDue is the soonest a pending firing comes or a pending
// notification falls due or its lease runs out. Both are probes of the
// pending indexes' first entries, bar the leased rows, which are at most
// the worker's few in flight.
func (t *Tx) NextNotifyDue(ctx context.Context) (*time.Time, error) {
	var at sql.NullString
	err := t.tx.GetContext(ctx, &at, `SELECT min(
		coalesce((SELECT min(fire_at) FROM reminder_fires WHERE state = 'pending'), '9999'),
		coalesce((SELECT min(due_at) FROM notifications WHERE state = 'pending' AND lease_until IS NULL), '9999'),
		coalesce((SELECT min(max(due_at, lease_until)) FROM notifications WHERE state = 'pending' AND lease_until IS NOT NULL), '9999'))`)
	if err != nil {
		return nil, mapErr(err)
	}
	if !at.Valid || at.String == "9999" {
		return nil, nil
	}
	return parseTimePtr(at), nil
}

// LeaseNotification claims a notification for the worker until until.
func (t *Tx) LeaseNotification(ctx context.Context, seq int64, until time.Time) error {
	return t.lease(ctx, "notifications", seq, until)
}

// ReleaseNotifyLeases ends every lease of a pending notification.
func (t *Tx) ReleaseNotifyLeases(ctx context.Context) error {
	return t.releaseLeases(ctx, "notifications")
}

// SetNotification writes a notification's state and ends its lease.
func (t *Tx) SetNotification(ctx context.Context, n app.Notification) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE notifications SET state = ?, attempts = ?, due_at = ?, lease_until = NULL, sent_at = ?,
		last_error = ?, action_used_at = ? WHERE seq = ?`, n.State, n.Attempts, fmtTime(n.DueAt), fmtTimePtr(n.SentAt),
		nullStr(n.LastError), fmtTimePtr(n.ActionUsedAt), n.Seq)
	return mapErr(err)
}

// DueReminderFires lists the pending firings whose time has come, oldest
// first.
func (t *Tx) DueReminderFires(ctx context.Context, now time.Time, limit int) ([]app.DueFire, error) {
	var rows []struct {
		Seq    int64  `db:"seq"`
		TaskID string `db:"task_id"`
		UserID string `db:"user_id"`
		FireAt string `db:"fire_at"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT seq, task_id, user_id, fire_at FROM reminder_fires
		WHERE state = 'pending' AND fire_at <= ? ORDER BY fire_at, seq LIMIT ?`, fmtTime(now), limit)
	out := make([]app.DueFire, len(rows))
	for i, r := range rows {
		out[i] = app.DueFire{Seq: r.Seq, TaskID: r.TaskID, UserID: r.UserID, FireAt: parseTime(r.FireAt)}
	}
	return out, mapErr(err)
}

// SetReminderFire records what became of a firing.
func (t *Tx) SetReminderFire(ctx context.Context, seq int64, state, lastError string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE reminder_fires SET state = ?, last_error = ?, sent_at = ?, attempts = attempts + 1
		WHERE seq = ?`, state, nullStr(lastError), fmtTime(at), seq)
	return mapErr(err)
}

// InsertReminderFire queues one firing.
func (t *Tx) InsertReminderFire(ctx context.Context, f app.ReminderFire, now time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO reminder_fires (task_id, user_id, reminder, fire_at, due_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, f.TaskID, f.UserID, f.Reminder, fmtTime(f.FireAt), fmtTimePtr(f.DueAt), fmtTime(now))
	return mapErr(err)
}

// DigestUsers lists up to limit active people whose daily digest is on,
// those digested longest ago first, through the partial index of 0034.
func (t *Tx) DigestUsers(ctx context.Context, limit int) ([]app.DigestUser, error) {
	var rows []struct {
		ID       string         `db:"id"`
		Timezone string         `db:"timezone"`
		Minute   int            `db:"digest_minute"`
		Day      sql.NullString `db:"digest_day"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT id, timezone, digest_minute, digest_day FROM users
		WHERE digest_minute IS NOT NULL AND active ORDER BY digest_day, seq LIMIT ?`, limit)
	out := make([]app.DigestUser, len(rows))
	for i, r := range rows {
		out[i] = app.DigestUser{ID: r.ID, Timezone: r.Timezone, Minute: r.Minute, Day: r.Day.String}
	}
	return out, mapErr(err)
}

// SetDigestDay records the day a person's digest was last queued.
func (t *Tx) SetDigestDay(ctx context.Context, userID, day string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE users SET digest_day = ? WHERE id = ?`, day, userID)
	return mapErr(err)
}

// ClearableNotifications lists the ntfy reminders of the task taskID sent
// since since and not cleared yet, through the task index of 0035.
func (t *Tx) ClearableNotifications(ctx context.Context, taskID string, since time.Time) ([]app.Notification, error) {
	return selectRows(ctx, t, notificationRow.notification, notificationSelect+`WHERE task_id = ? AND kind = 'reminder'
		AND state = 'sent' AND sent_at >= ? AND channel_id IN (SELECT id FROM channels WHERE type = 'ntfy')
		AND NOT EXISTS (SELECT 1 FROM notifications c WHERE c.task_id = notifications.task_id AND c.clears = notifications.id)`,
		taskID, fmtTime(since))
}

// WithdrawNotifications fails the reminders of the task taskID not yet
// sent nor in the worker's hands, with why.
func (t *Tx) WithdrawNotifications(ctx context.Context, taskID, why string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE notifications SET state = 'failed', last_error = ?
		WHERE task_id = ? AND kind = 'reminder' AND state = 'pending' AND lease_until IS NULL`, why, taskID)
	return mapErr(err)
}
