package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// DueFire is a pending reminder firing whose time has come.
type DueFire struct {
	Seq    int64
	TaskID string
	UserID string
	FireAt time.Time
}

// NotifySend is a notification leased to the worker with what sending it
// takes: its channel, the page a click opens and the action links, all
// absolute; for Web Push the instance's VAPID keys and subject.
type NotifySend struct {
	Notification Notification
	Channel      Channel
	URL          string
	Actions      []NotifyAction
	VAPID        VAPIDKeys
	Subject      string
}

// NotifyAction is a button a notification carries: done or snooze, and the
// single-use link that does it.
type NotifyAction struct {
	Action, Title, URL string
}

// NotifyResult is how one attempt went, reported by the worker. Status is
// the receiver's HTTP status, 0 when no answer came.
type NotifyResult struct {
	Seq    int64
	Status int
	Error  string
}

// Retry policy and bounds of the notification outbox.
var (
	// NotifyRetries are the delays before each retry after a failed
	// attempt; after the last the notification is marked failed.
	NotifyRetries = []time.Duration{30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour}
	// LateAfter is how far past its time a firing the worker first sees
	// counts as late: it fell due while tend was not running.
	LateAfter = 2 * time.Minute
)

const (
	// lateCoalesce is how many late reminders of one person go out one
	// by one; more are told in one notification.
	lateCoalesce = 5
	// firesPerRound bounds the firings one round turns into notifications.
	firesPerRound = 2000
	// ActionLife is how long an action link works after its notification
	// was made.
	ActionLife = 24 * time.Hour
	// noChannel is why a firing of a person without a channel is failed.
	noChannel = "not sent: the person has no channel (add one on the Account page)"
)

type notifyTx interface {
	// DueReminderFires lists pending firings due at now, oldest first.
	DueReminderFires(ctx context.Context, now time.Time, limit int) ([]DueFire, error)
	// SetReminderFire records what became of a firing.
	SetReminderFire(ctx context.Context, seq int64, state, lastError string, at time.Time) error
	// InsertReminderFire queues one firing (a snooze).
	InsertReminderFire(ctx context.Context, f ReminderFire, now time.Time) error
	// DueNotifications lists pending notifications due at now and not
	// leased, oldest first.
	DueNotifications(ctx context.Context, now time.Time, limit int) ([]Notification, error)
	// NextNotifyDue is the soonest a pending firing or notification falls
	// due or its lease runs out; nil when none is pending.
	NextNotifyDue(ctx context.Context) (*time.Time, error)
	LeaseNotification(ctx context.Context, seq int64, until time.Time) error
	// ReleaseNotifyLeases ends every lease of a pending notification.
	ReleaseNotifyLeases(ctx context.Context) error
	NotificationBySeq(ctx context.Context, seq int64) (Notification, error)
	NotificationByID(ctx context.Context, id string) (Notification, error)
	// SetNotification writes a notification's state, attempts, due time,
	// sent time, last error and action use, and ends its lease.
	SetNotification(ctx context.Context, n Notification) error
}

// NotifyLease records the attempts in done, turns the reminder firings
// that have come into notifications (one per channel of the person), and
// leases up to limit due notifications for lease, all in one write. It
// also answers when the next firing or notification falls due (zero when
// none is pending), which is when the worker looks again.
func (s *Service) NotifyLease(ctx context.Context, limit int, lease time.Duration, done ...NotifyResult) ([]NotifySend, time.Time, error) {
	var due bool
	var next time.Time
	// Read first: nothing due is the common case, and a read does not
	// take the writer from the API.
	err := s.store.View(ctx, func(tx Tx) error {
		if len(done) > 0 {
			return nil
		}
		at, err := tx.NextNotifyDue(ctx)
		if at != nil {
			next = *at
		}
		if err != nil {
			return err
		}
		next, err = withDigest(ctx, tx, next)
		due = !next.IsZero() && !next.After(tx.Now())
		return err
	})
	if err != nil || (!due && len(done) == 0) {
		return nil, next, err
	}
	var out []NotifySend
	// The outbox is the worker's own: committed past the watch, it wakes
	// neither the worker itself nor the change feed's waiters.
	err = s.raw.Update(ctx, func(tx Tx) error {
		for _, r := range done {
			if err := recordNotify(ctx, tx, r); err != nil {
				return err
			}
		}
		if err := s.queueFires(ctx, tx); err != nil {
			return err
		}
		if err := s.queueDigests(ctx, tx); err != nil {
			return err
		}
		var err error
		if out, err = s.leaseNotifications(ctx, tx, limit, lease); err != nil {
			return err
		}
		at, err := tx.NextNotifyDue(ctx)
		next = time.Time{}
		if at != nil {
			next = *at
		}
		if err != nil {
			return err
		}
		next, err = withDigest(ctx, tx, next)
		return err
	})
	return out, next, err
}

// NotifyReleaseLeases ends the leases a worker that is gone held, so that
// what it had in flight goes out again at once (it may have gone out
// already: that is the one repeat, and it carries the same id).
func (s *Service) NotifyReleaseLeases(ctx context.Context) error {
	return s.store.Update(ctx, func(tx Tx) error { return tx.ReleaseNotifyLeases(ctx) })
}

// queueFires turns the firings that have come into notifications. A
// firing of a person without a channel is failed with the reason (there is
// nowhere to tell, and a channel added later does not bring back an old
// reminder); one of a task the person may no longer see is failed as if
// the task did not exist, and one of a task finished or in the trash by
// then is failed with that reason (the row stays, so the task's history
// of what it owed is whole). More than lateCoalesce late firings of one
// person become one late notification.
func (s *Service) queueFires(ctx context.Context, tx Tx) error {
	now := tx.Now()
	fires, err := tx.DueReminderFires(ctx, now, firesPerRound)
	if err != nil || len(fires) == 0 {
		return err
	}
	byUser := map[string][]DueFire{}
	var order []string
	for _, f := range fires {
		if byUser[f.UserID] == nil {
			order = append(order, f.UserID)
		}
		byUser[f.UserID] = append(byUser[f.UserID], f)
	}
	for _, uid := range order {
		if err := s.queueUserFires(ctx, tx, uid, byUser[uid], now); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) queueUserFires(ctx context.Context, tx Tx, uid string, fires []DueFire, now time.Time) error {
	fail := func(why string) error {
		for _, f := range fires {
			if err := tx.SetReminderFire(ctx, f.Seq, "failed", why, now); err != nil {
				return err
			}
		}
		return nil
	}
	u, err := tx.UserByID(ctx, uid)
	if err != nil {
		return err
	}
	if !u.Active {
		return fail("not sent: the person is deactivated")
	}
	chans, err := tx.Channels(ctx, uid)
	if err != nil {
		return err
	}
	if len(chans) == 0 {
		return fail(noChannel)
	}
	ids := make([]string, len(fires))
	for i, f := range fires {
		ids[i] = f.TaskID
	}
	tasks, zone, err := visibleTasks(ctx, tx, u, ids)
	if err != nil {
		return err
	}
	var late []DueFire
	var lateTitles []string
	for _, f := range fires {
		t, ok := tasks[f.TaskID]
		why := "not sent: the task is gone from the person's sight"
		if ok && t.finished() {
			// A write that finishes the task withdraws its firings; this
			// holds for any row such a write did not reach.
			ok, why = false, "not sent: the task was finished or put in the trash first"
		}
		if !ok {
			if err := tx.SetReminderFire(ctx, f.Seq, "failed", why, now); err != nil {
				return err
			}
			continue
		}
		if now.Sub(f.FireAt) > LateAfter {
			late = append(late, f)
			lateTitles = append(lateTitles, t.Title)
		}
	}
	coalesce := len(late) > lateCoalesce
	if coalesce {
		title, body := lateSummary(lateTitles)
		for _, c := range chans {
			n := Notification{ID: newNotificationID(), UserID: uid, ChannelID: c.ID, Kind: "late", Title: title, Body: body,
				Path: "/", Late: true, State: "pending", DueAt: now, CreatedAt: now}
			if err := tx.InsertNotification(ctx, &n); err != nil {
				return err
			}
		}
	}
	for _, f := range fires {
		t, ok := tasks[f.TaskID]
		if !ok || t.finished() {
			continue
		}
		isLate := now.Sub(f.FireAt) > LateAfter
		if !(coalesce && isLate) {
			for _, c := range chans {
				n := Notification{ID: newNotificationID(), UserID: uid, ChannelID: c.ID, Kind: "reminder", FireSeq: f.Seq,
					TaskID: t.ID, WorkspaceID: t.WorkspaceID, Title: t.Title, Body: notifyDueText(t, zone.Loc, now), Path: taskPath(t),
					Late: isLate, State: "pending", DueAt: now, CreatedAt: now}
				if err := tx.InsertNotification(ctx, &n); err != nil {
					return err
				}
			}
		}
		if err := tx.SetReminderFire(ctx, f.Seq, "sent", "", now); err != nil {
			return err
		}
	}
	return nil
}

// leaseNotifications leases up to limit due notifications and makes what
// sending each takes. One whose channel was removed is failed.
func (s *Service) leaseNotifications(ctx context.Context, tx Tx, limit int, lease time.Duration) ([]NotifySend, error) {
	now := tx.Now()
	ns, err := tx.DueNotifications(ctx, now, limit)
	if err != nil || len(ns) == 0 {
		return nil, err
	}
	base, err := s.baseURL(ctx, tx)
	if err != nil {
		return nil, err
	}
	key, err := actionKey(ctx, tx)
	if err != nil {
		return nil, err
	}
	var vapid *VAPIDKeys
	out := make([]NotifySend, 0, len(ns))
	chans := map[string]Channel{}
	for _, n := range ns {
		c, ok := chans[n.ChannelID]
		if !ok && n.ChannelID != "" {
			if c, err = tx.ChannelByID(ctx, "", n.ChannelID); err != nil && CodeOf(err) != CodeNotFound {
				return nil, err
			}
			ok = err == nil
			chans[n.ChannelID] = c
		}
		if !ok {
			n.State, n.LastError = "failed", "not sent: the channel was removed"
			if err := tx.SetNotification(ctx, n); err != nil {
				return nil, err
			}
			continue
		}
		send := NotifySend{Notification: n, Channel: c, URL: base + n.Path, Subject: vapidSubject(base)}
		if n.TaskID != "" && n.Kind != "clear" {
			send.Actions = []NotifyAction{
				{Action: "done", Title: "Done", URL: base + "/v1/actions/" + actionToken(key, n.ID, "done")},
				{Action: "snooze", Title: "Snooze 1 h", URL: base + "/v1/actions/" + actionToken(key, n.ID, "snooze")},
			}
		}
		if c.Type == "webpush" {
			if vapid == nil {
				k, err := vapidKeys(ctx, tx)
				if err != nil && CodeOf(err) != CodeNotFound {
					return nil, err
				}
				vapid = &k
			}
			send.VAPID = *vapid
		}
		if err := tx.LeaseNotification(ctx, n.Seq, now.Add(lease)); err != nil {
			return nil, err
		}
		out = append(out, send)
	}
	return out, nil
}

// baseURL is where a person's browser reaches tend: the public URL, else
// the address tend serve last listened on.
func (s *Service) baseURL(ctx context.Context, tx Tx) (string, error) {
	if s.opts.PublicURL != "" {
		return strings.TrimRight(s.opts.PublicURL, "/"), nil
	}
	in, err := tx.Instance(ctx)
	return strings.TrimRight(in.Serving.URL(), "/"), err
}

// recordNotify records how an attempt went: a 2xx sent; a Web Push 404 or
// 410 means the browser dropped the subscription, so the channel goes and
// the notification fails with that reason; anything else retries on
// NotifyRetries, then fails with the reason. The channel keeps its last
// success and its last failure for the Account page.
func recordNotify(ctx context.Context, tx Tx, r NotifyResult) error {
	n, err := tx.NotificationBySeq(ctx, r.Seq)
	if err != nil {
		return err
	}
	c, err := tx.ChannelByID(ctx, "", n.ChannelID)
	if CodeOf(err) == CodeNotFound {
		c = Channel{}
	} else if err != nil {
		return err
	}
	now := tx.Now()
	n.Attempts++
	why := r.Error
	if why == "" && r.Status != 0 {
		why = "the receiver answered " + statusText(r.Status)
	}
	switch {
	case r.Status >= 200 && r.Status < 300:
		n.State, n.SentAt, n.LastError = "sent", &now, ""
		c.LastOKAt, c.FailingSince, c.LastError = &now, nil, ""
	case n.Kind == "clear" && (r.Status == 400 || r.Status == 404 || r.Status == 405):
		// An ntfy before 2.16 knows no clear: nothing is wrong with the
		// channel, and asking again would not help.
		n.State, n.LastError = "failed", "not cleared: the ntfy server answered "+statusText(r.Status)+
			" (clearing a message needs ntfy 2.16 or later)"
		return tx.SetNotification(ctx, n)
	case c.Type == "webpush" && (r.Status == 404 || r.Status == 410):
		n.State, n.LastError = "failed", "the browser's subscription is gone ("+statusText(r.Status)+"): the channel was removed"
		if err := tx.DeleteChannel(ctx, c.ID); err != nil {
			return err
		}
		return tx.SetNotification(ctx, n)
	case n.Attempts > len(NotifyRetries):
		n.State, n.LastError = "failed", why
	default:
		n.LastError, n.DueAt = why, now.Add(NotifyRetries[n.Attempts-1])
	}
	if r.Status < 200 || r.Status >= 300 {
		if c.FailingSince == nil {
			c.FailingSince = &now
		}
		c.LastError = why
	}
	if err := tx.SetNotification(ctx, n); err != nil {
		return err
	}
	if c.ID == "" {
		return nil
	}
	return tx.SetChannelHealth(ctx, c)
}

// statusText is an HTTP status as a person reads it: "HTTP 503".
func statusText(status int) string { return "HTTP " + strconv.Itoa(status) }

// actionToken is the link that does action to the notification id: the
// id, the action and an HMAC of both under the instance's key. Nothing
// secret is stored beside the notification: the key makes every link.
func actionToken(key []byte, id, action string) string {
	return id + "." + action + "." + actionMAC(key, id, action)
}

func actionMAC(key []byte, id, action string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + action))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// vapidSubject is the contact a Web Push service is given (RFC 8292 §2.1):
// the public address where it is https, which push services accept, and
// otherwise a mailto: naming the host, since Apple's refuses any other
// scheme and tend knows no operator's address.
func vapidSubject(base string) string {
	if strings.HasPrefix(base, "https://") {
		return base
	}
	host := strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")
	if i := strings.IndexAny(host, ":/"); i >= 0 {
		host = host[:i]
	}
	if host == "" {
		host = "localhost"
	}
	return "mailto:tend@" + host
}
