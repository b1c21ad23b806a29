// Package notify sends the notification outbox (app/notify_delivery.go):
// it leases due notifications from the Service, sends each to its channel
// (an ntfy topic, or a browser through Web Push), and reports how it went.
// What to send, when to retry and who may see what are the Service's
// rules; this package is the HTTP.
package notify

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"tend/app"
	"tend/web/hook"
	"tend/web/notify/webpush"
	"tend/web/outbox"
)

// Service is the part of app.Service the worker calls.
type Service interface {
	NotifyLease(ctx context.Context, limit int, lease time.Duration, done ...app.NotifyResult) ([]app.NotifySend, time.Time, error)
	NotifyReleaseLeases(ctx context.Context) error
	Written() <-chan struct{}
}

// Delivery bounds.
const (
	// Timeout is how long an attempt may take, answer included.
	Timeout = 15 * time.Second
	// lease is how long a notification is the worker's: past it, a
	// crashed worker's notification is due again (at once if a worker
	// starts: Run).
	lease = Timeout + 45*time.Second
	// parallel is how many notifications are sent at once.
	parallel = 64
	// pushTTL is how long a push service keeps a push for a browser that
	// is away: a reminder a day late is of little use.
	pushTTL = 12 * time.Hour
)

// Options configure a Worker (outbox.Options).
type Options = outbox.Options

// Worker sends the outbox.
type Worker struct {
	svc    Service
	opts   Options
	client *http.Client
}

// New makes a worker over svc.
func New(svc Service, opts Options) *Worker {
	opts = opts.Defaults(Timeout)
	client := hook.Client(opts.Outbound, opts.Timeout)
	if t, ok := client.Transport.(*http.Transport); ok {
		// Many notifications go to one ntfy server: keep a connection
		// for each sender rather than dialling one a message.
		t.MaxIdleConnsPerHost = parallel
	}
	return &Worker{svc: svc, opts: opts, client: client}
}

// loop is the worker's outbox loop: up to parallel notifications go out
// at once.
func (w *Worker) loop() outbox.Loop[app.NotifySend, app.NotifyResult] {
	return outbox.Loop[app.NotifySend, app.NotifyResult]{Name: "notification outbox",
		Lease: func(ctx context.Context, limit int, done []app.NotifyResult) ([]app.NotifySend, time.Time, error) {
			return w.svc.NotifyLease(ctx, limit, lease, done...)
		},
		Release: w.svc.NotifyReleaseLeases, Written: w.svc.Written,
		Round:    func() func(context.Context, app.NotifySend) *app.NotifyResult { return w.deliver },
		Parallel: parallel, Options: w.opts}
}

// Run sends notifications as they fall due until ctx ends
// (outbox.Loop.Run). What the previous run had in flight when it stopped
// or was killed goes out first: at most that one repeat, with its id.
func (w *Worker) Run(ctx context.Context) { w.loop().Run(ctx) }

// RunOnce sends every notification due now and answers how many attempts
// it made: for tests, which move the clock themselves.
func (w *Worker) RunOnce(ctx context.Context) (int, error) { return w.loop().RunOnce(ctx) }

// deliver makes one attempt and answers how it went; nil for one cut short
// by the worker stopping, which is not recorded: it goes again after the
// next start.
func (w *Worker) deliver(ctx context.Context, s app.NotifySend) *app.NotifyResult {
	r := app.NotifyResult{Seq: s.Notification.Seq}
	var err error
	switch s.Channel.Type {
	case "ntfy":
		r.Status, err = w.ntfy(ctx, s)
	case "webpush":
		r.Status, err = w.push(ctx, s)
	default:
		err = errors.New("a channel of a type this tend does not send")
	}
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		r.Error = hook.AttemptError(err)
	}
	return &r
}

// Payload is what every channel carries (the shape the service worker and
// the tests read): at most 3 KB of JSON.
type Payload struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Title   string          `json:"title"`
	Body    string          `json:"body"`
	URL     string          `json:"url"`
	TaskID  *string         `json:"task_id"`
	Late    bool            `json:"late"`
	Actions []PayloadAction `json:"actions"`
}

// PayloadAction is one button of a notification.
type PayloadAction struct {
	Action string `json:"action"`
	Title  string `json:"title"`
	URL    string `json:"url"`
}

// NewPayload is s as every channel carries it; a title or body that would
// take it past 3 KB is cut.
func NewPayload(s app.NotifySend) Payload {
	n := s.Notification
	p := Payload{ID: n.ID, Kind: n.Kind, Title: cut(n.Title, 200), Body: cut(n.Body, 1000), URL: s.URL, Late: n.Late,
		Actions: []PayloadAction{}}
	if n.TaskID != "" {
		p.TaskID = &n.TaskID
	}
	for _, a := range s.Actions {
		p.Actions = append(p.Actions, PayloadAction{Action: a.Action, Title: a.Title, URL: a.URL})
	}
	return p
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n - len("…")
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}

func (w *Worker) push(ctx context.Context, s app.NotifySend) (int, error) {
	body, err := json.Marshal(NewPayload(s))
	if err != nil {
		return 0, err
	}
	c := s.Channel
	return webpush.Send(ctx, w.client, webpush.Subscription{Endpoint: c.URL, P256dh: c.P256dh, Auth: c.Auth}, body,
		webpush.Keys{Public: s.VAPID.Public, Private: s.VAPID.Private}, s.Subject, pushTTL)
}

// drain reads what is left of an answer, so that the connection is kept.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}
