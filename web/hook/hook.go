// Package hook delivers the webhook outbox (app/webhook_delivery.go): it
// leases due deliveries from the Service, sends each signed per Standard
// Webhooks v1, and reports how it went. What to send, when to retry and
// who may see what are the Service's rules; this package is the HTTP.
package hook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"tend/app"
	"tend/app/outbound"
	"tend/web/outbox"
	"tend/web/wire"
)

// Service is the part of app.Service the worker calls.
type Service interface {
	WebhookLease(ctx context.Context, limit int, lease time.Duration, done ...app.WebhookResult) ([]app.WebhookSend, time.Time, error)
	WebhookReleaseLeases(ctx context.Context) error
	Written() <-chan struct{}
	TaskGet(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Task, error)
	DocumentGet(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Document, error)
}

// Delivery bounds.
const (
	// Timeout is how long an attempt may take, answer included.
	Timeout = 15 * time.Second
	// AnswerRead is how much of an answer is read.
	AnswerRead = 4096
	// lease is how long a delivery is the worker's: past it, a crashed
	// worker's delivery is due again (sooner if a worker starts: Run).
	lease = Timeout + 45*time.Second
	// parallel is how many endpoints are sent to at once.
	parallel = 16
)

// Options configure a Worker (outbox.Options); Now stamps
// webhook-timestamp.
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
	client := Client(opts.Outbound, opts.Timeout)
	return &Worker{svc: svc, opts: opts, client: client}
}

// Client is the HTTP client tend calls out with (webhooks, notification
// channels): it dials only what policy allows, checked at the connection,
// follows no redirect, and gives up after timeout.
func Client(policy outbound.Policy, timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: timeout, Control: policy.Control}
	return &http.Client{
		Timeout: timeout,
		// No proxy: a proxy would dial the address in place of the
		// check above.
		Transport: &http.Transport{DialContext: dialer.DialContext, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 2,
			IdleConnTimeout: 90 * time.Second, TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: timeout},
		// A redirect is an answer, not an address to follow: following it
		// would send the payload somewhere nobody configured.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// loop is the worker's outbox loop. Deliveries to different endpoints go
// out side by side; one endpoint's go one at a time, in order (the
// Service leases an endpoint's head only).
func (w *Worker) loop() outbox.Loop[app.WebhookSend, app.WebhookResult] {
	return outbox.Loop[app.WebhookSend, app.WebhookResult]{Name: "webhook outbox",
		Lease: func(ctx context.Context, limit int, done []app.WebhookResult) ([]app.WebhookSend, time.Time, error) {
			return w.svc.WebhookLease(ctx, limit, lease, done...)
		},
		Release: w.svc.WebhookReleaseLeases, Written: w.svc.Written,
		Round: func() func(context.Context, app.WebhookSend) *app.WebhookResult {
			round := newBodies()
			return func(ctx context.Context, s app.WebhookSend) *app.WebhookResult { return w.deliver(ctx, s, round) }
		},
		Parallel: parallel, Options: w.opts}
}

// Run sends deliveries as they fall due until ctx ends (outbox.Loop.Run).
func (w *Worker) Run(ctx context.Context) { w.loop().Run(ctx) }

// RunOnce sends every delivery due now and answers how many attempts it
// made: for tests, which move the clock themselves.
func (w *Worker) RunOnce(ctx context.Context) (int, error) { return w.loop().RunOnce(ctx) }

// deliver makes one attempt and answers how it went; nil for an attempt
// cut short by the worker stopping, which is not recorded: it goes again
// after the next start.
func (w *Worker) deliver(ctx context.Context, s app.WebhookSend, round *bodies) *app.WebhookResult {
	body, err := round.get(bodyKey{seq: s.Event.Seq, reader: s.Reader.User.ID}, func() ([]byte, error) { return w.body(ctx, s) })
	if err != nil {
		w.opts.Log.Error("webhook payload", "webhook", s.Delivery.WebhookID, "seq", s.Event.Seq, "err", err)
		return nil
	}
	r := w.post(ctx, s, body)
	if ctx.Err() != nil {
		return nil
	}
	return &r
}

// Payload is a delivery's body: Standard Webhooks' type, timestamp and data.
type Payload struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      Data   `json:"data"`
}

// Data is the event as the change feed shows it, with its changes spelled
// out before and after (as the journal has them) and the item it happened
// to as the endpoint's creator reads it now; null when the event is of no
// item, or the item is gone from the creator's sight.
type Data struct {
	wire.Event
	Changed any `json:"changed"`
	Item    any `json:"item"`
}

func (w *Worker) body(ctx context.Context, s app.WebhookSend) ([]byte, error) {
	e := s.Event
	entry := wire.NewJournalEntry(app.JournalEntry{Event: e, Changed: s.Changed})
	d := Data{Event: wire.NewEvent(e), Changed: entry.Changed}
	kind, id := e.EntityType, e.EntityID
	if e.SubjectType == "task" || e.SubjectType == "document" {
		kind, id = e.SubjectType, e.SubjectID
	}
	switch kind {
	case "task":
		if t, err := w.svc.TaskGet(ctx, s.Reader, e.WorkspaceID, id); err == nil {
			d.Item = wire.NewTask(t)
		}
	case "document":
		if doc, err := w.svc.DocumentGet(ctx, s.Reader, e.WorkspaceID, id); err == nil {
			d.Item = wire.NewDocument(doc)
		}
	}
	return json.Marshal(Payload{Type: e.Action, Timestamp: wire.Stamp(e.CreatedAt), Data: d})
}

// bodies are the payloads of one round, shared by its deliveries: an
// event goes to every endpoint one person made (and so reads through) with
// the same body, so that it is read and encoded once, not once an endpoint.
type bodies struct {
	mu sync.Mutex
	m  map[bodyKey]*sharedBody
}

// bodyKey is what a payload depends on: the event, and whose sight the
// item is read with.
type bodyKey struct {
	seq    int64
	reader string
}

type sharedBody struct {
	once sync.Once
	body []byte
	err  error
}

func newBodies() *bodies { return &bodies{m: map[bodyKey]*sharedBody{}} }

// get answers the payload for key, made by build the first time it is asked.
func (c *bodies) get(key bodyKey, build func() ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	b := c.m[key]
	if b == nil {
		b = &sharedBody{}
		c.m[key] = b
	}
	c.mu.Unlock()
	b.once.Do(func() { b.body, b.err = build() })
	return b.body, b.err
}

// post sends body and reads the answer.
func (w *Worker) post(ctx context.Context, s app.WebhookSend, body []byte) app.WebhookResult {
	r := app.WebhookResult{DeliverySeq: s.Delivery.Seq}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	ts := strconv.FormatInt(w.opts.Now().Unix(), 10)
	sig, err := Sign(s.Secrets, s.Event.ID, ts, body)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "tend-webhooks")
	req.Header.Set("webhook-id", s.Event.ID)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", sig)
	start := time.Now()
	resp, err := w.client.Do(req)
	if err != nil {
		r.Duration = time.Since(start)
		r.Error = AttemptError(err)
		return r
	}
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, AnswerRead))
	_ = resp.Body.Close()
	r.Duration = time.Since(start)
	r.Status = resp.StatusCode
	r.Answer = string(answer[:min(len(answer), app.WebhookAnswerLogged)])
	r.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), w.opts.Now())
	return r
}

// AttemptError says why no answer came, without the URL, which may carry
// a receiver's own secret.
func AttemptError(err error) string {
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) {
		if inner := ue.Unwrap(); inner != nil {
			err = inner
		}
	}
	if errors.Is(err, outbound.ErrRefused) {
		return "refused: " + err.Error()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "no answer within the timeout"
	}
	return err.Error()
}

// retryAfter reads Retry-After: seconds, or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// Sign is the webhook-signature header for body: a v1 entry per secret,
// space-separated, each the base64 HMAC-SHA256 of "id.timestamp.body"
// under the secret's key (its base64 after whsec_).
func Sign(secrets []string, id, timestamp string, body []byte) (string, error) {
	out := make([]string, len(secrets))
	for i, s := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil {
			return "", fmt.Errorf("a webhook secret that is not base64: %w", err)
		}
		m := hmac.New(sha256.New, key)
		m.Write([]byte(id + "." + timestamp + "."))
		m.Write(body)
		out[i] = "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
	}
	return strings.Join(out, " "), nil
}
