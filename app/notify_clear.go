package app

import (
	"context"
	"time"
)

type notifyClearTx interface {
	// ClearableNotifications lists the ntfy reminders of a task sent
	// since since and not cleared yet.
	ClearableNotifications(ctx context.Context, taskID string, since time.Time) ([]Notification, error)
	// WithdrawNotifications fails a task's reminders not yet sent nor in
	// the worker's hands, with why.
	WithdrawNotifications(ctx context.Context, taskID, why string) error
}

// clearNotified takes back what was said of t once it is finished, in the
// write that finished it: a reminder not yet sent is not sent, and each
// ntfy reminder sent within ActionLife (older ones have gone from a phone
// or been seen) gets a clear queued, which the worker sends as ntfy's
// PUT /<topic>/<sequence_id>/clear. Web Push has no such request: a
// browser's notification stays until the person dismisses it.
func clearNotified(ctx context.Context, tx Tx, t *Task) error {
	if err := tx.WithdrawNotifications(ctx, t.ID, "not sent: the task was finished or put in the trash first"); err != nil {
		return err
	}
	now := tx.Now()
	sent, err := tx.ClearableNotifications(ctx, t.ID, now.Add(-ActionLife))
	if err != nil {
		return err
	}
	for _, n := range sent {
		c := Notification{ID: newNotificationID(), UserID: n.UserID, ChannelID: n.ChannelID, Kind: "clear", TaskID: n.TaskID,
			WorkspaceID: n.WorkspaceID, Title: n.Title, Path: n.Path, State: "pending", DueAt: now, CreatedAt: now, Clears: n.ID}
		if err := tx.InsertNotification(ctx, &c); err != nil {
			return err
		}
	}
	return nil
}
