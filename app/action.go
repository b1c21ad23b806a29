package app

import (
	"context"
	"crypto/hmac"
	"strings"
	"time"
)

// ActionDone is what an action link did: the action, and the task it did
// it to as the person it was sent to reads it now.
type ActionDone struct {
	Action string // done or snooze
	Task   Task
	// Until is when a snoozed reminder fires again.
	Until *time.Time
}

// SnoozeFor is how long Snooze puts a reminder off.
const SnoozeFor = time.Hour

// UseAction does what an action link says, once: done completes the task
// as the API's completion does (a repeating task brings its next
// occurrence), as the person the notification went to, refused as the API
// would refuse them; snooze queues the reminder again SnoozeFor from now.
// A token the instance's key did not make answers not_found, as does one
// of a notification that is gone; a second use answers action_used, and
// one past ActionLife action_expired.
func (s *Service) UseAction(ctx context.Context, token string) (ActionDone, error) {
	id, action, mac, ok := splitActionToken(token)
	gone := NotFound("action link")
	if !ok {
		return ActionDone{}, gone
	}
	var out ActionDone
	err := s.store.Update(ctx, func(tx Tx) error {
		key, err := actionKey(ctx, tx)
		if err != nil {
			return err
		}
		if !hmac.Equal([]byte(mac), []byte(actionMAC(key, id, action))) {
			return gone
		}
		n, err := tx.NotificationByID(ctx, id)
		if err != nil || n.TaskID == "" {
			return notFoundAs(err, "action link")
		}
		now := tx.Now()
		switch {
		case n.ActionUsedAt != nil:
			return Errorf(CodeActionUsed, "this link was used already, at %s; a link works once", n.ActionUsedAt.UTC().Format(time.RFC3339))
		case now.Sub(n.CreatedAt) > ActionLife:
			return Errorf(CodeActionExpired, "this link worked for 24 hours after the notification; open the task instead")
		}
		n.ActionUsedAt = &now
		if err := tx.SetNotification(ctx, n); err != nil {
			return err
		}
		u, err := tx.UserByID(ctx, n.UserID)
		if err != nil {
			return err
		}
		a := Actor{User: u, Interface: "action"}
		out.Action = action
		return withFound(ctx, a, n.WorkspaceID, n.TaskID, writableTask, func(tx Tx, sc *scope, t Task) error {
			if action == "snooze" {
				until := now.Add(SnoozeFor)
				out.Task, out.Until = t, &until
				// The key names the notification snoozed, so it never
				// meets a reminder's own firing in the unique key.
				return tx.InsertReminderFire(ctx, ReminderFire{TaskID: t.ID, UserID: u.ID, Reminder: "snooze:" + n.ID,
					FireAt: until, DueAt: t.DueAt}, now)
			}
			out.Task, _, err = finishTask(ctx, tx, a, sc, t, CategoryDone, "task.completed")
			return err
		})(tx)
	})
	return out, err
}

// splitActionToken reads a token actionToken made.
func splitActionToken(token string) (id, action, mac string, ok bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], "ntf_") || (parts[1] != "done" && parts[1] != "snooze") {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}
