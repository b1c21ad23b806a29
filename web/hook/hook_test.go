package hook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"tend/app"
	"tend/store/storetest"
	"tend/web/hook"
	"tend/web/webtest"
)

// received is one request a receiver took.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a webhook receiver on loopback that answers with the
// statuses queued in answers (200 once they run out) and keeps every
// request.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	answers []int
	arrived chan struct{}
}

func newReceiver(t *testing.T, answers ...int) *receiver {
	r := &receiver{answers: answers, arrived: make(chan struct{}, 100)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, received{req.Header.Clone(), b})
		status := http.StatusOK
		if len(r.answers) > 0 {
			status, r.answers = r.answers[0], r.answers[1:]
		}
		r.mu.Unlock()
		if status == http.StatusFound {
			w.Header().Set("Location", "http://127.0.0.1:1/elsewhere")
		}
		w.WriteHeader(status)
		_, _ = fmt.Fprintf(w, "answered %d", status)
		r.arrived <- struct{}{}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) requests() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// hookEnv is a test instance whose webhooks may call loopback, with a
// worker over it and retries that are not spread.
type hookEnv struct {
	*webtest.Env
	worker *hook.Worker
}

func newHookEnv(t *testing.T) *hookEnv {
	t.Helper()
	allow := storetest.Loopback(t)
	e := webtest.NewWith(t, app.Options{Version: "test", Outbound: allow, WebhookJitter: func(d time.Duration) time.Duration { return d }})
	return &hookEnv{Env: e, worker: hook.New(e.Svc, hook.Options{Outbound: allow})}
}

func (e *hookEnv) run() int {
	e.T.Helper()
	n, err := e.worker.RunOnce(context.Background())
	if err != nil {
		e.T.Fatal(err)
	}
	return n
}

func (e *hookEnv) webhook(token, url string, events ...string) map[string]any {
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/webhooks", token, map[string]any{"url": url, "events": events})
}

// verify checks a request's signature with the Standard Webhooks library.
func verify(t *testing.T, secret string, r received) {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(r.body, r.header); err != nil {
		t.Fatalf("signature does not verify: %v (%s)", err, r.header.Get("webhook-signature"))
	}
}

func payload(t *testing.T, r received) hook.Payload {
	t.Helper()
	var p hook.Payload
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestDeliversSignedInOrder: each event goes out once, in seq order,
// signed so the Standard Webhooks library verifies it, with the event, its
// changes before and after, and the item as it is now.
func TestDeliversSignedInOrder(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL+"/in", "task.*")
	task := e.CreateTask(e.Admin, map[string]any{"title": "Boil water"})
	path := fmt.Sprintf("/v1/tasks/%d", int(task["ref"].(float64)))
	e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"title": "Boil more water"})
	e.CreateTask(e.Admin, map[string]any{"title": "Make tea"})
	if n := e.run(); n != 3 {
		t.Fatalf("sent %d, want 3", n)
	}
	got := rcv.requests()
	if len(got) != 3 {
		t.Fatalf("received %d", len(got))
	}
	var last int64
	for i, r := range got {
		verify(t, w["secret"].(string), r)
		p := payload(t, r)
		if r.header.Get("webhook-id") != p.Data.ID || r.header.Get("Content-Type") != "application/json" {
			t.Errorf("request %d: webhook-id %q, event %q", i, r.header.Get("webhook-id"), p.Data.ID)
		}
		if p.Data.Seq <= last {
			t.Errorf("request %d: seq %d after %d", i, p.Data.Seq, last)
		}
		last = p.Data.Seq
	}
	upd := payload(t, got[1])
	item, _ := upd.Data.Item.(map[string]any)
	changed, _ := json.Marshal(upd.Data.Changed)
	if upd.Type != "task.updated" || item["title"] != "Boil more water" || !strings.Contains(string(changed), `"before":"Boil water"`) {
		t.Errorf("update delivered as %s: item %v, changed %s", got[1].body, item, changed)
	}
	log := e.OK(http.StatusOK, http.MethodGet, "/v1/webhooks/"+w["id"].(string)+"/deliveries", e.Admin, nil)
	items := log["items"].([]any)
	first := items[0].(map[string]any)
	if len(items) != 3 || first["outcome"] != "delivered" || first["status"] != float64(200) || first["answer"] != "answered 200" {
		t.Errorf("log %v", log)
	}
}

// TestRetriesThenGone: a failure is retried under the same webhook-id once
// the clock reaches the retry; a redirect is an answer, never followed;
// 410 disables the endpoint, with a notice on it.
func TestRetriesThenGone(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t, http.StatusInternalServerError, http.StatusFound, http.StatusOK, http.StatusGone)
	w := e.webhook(e.Admin, rcv.URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	e.run()
	if n := e.run(); n != 0 {
		t.Fatalf("retried before it was due: %d", n)
	}
	e.Clock.Advance(5 * time.Second)
	e.run() // the 302
	e.Clock.Advance(5 * time.Minute)
	e.run()
	got := rcv.requests()
	if len(got) != 3 || got[0].header.Get("webhook-id") != got[2].header.Get("webhook-id") {
		t.Fatalf("received %d requests, ids %q and %q", len(got), got[0].header.Get("webhook-id"), got[len(got)-1].header.Get("webhook-id"))
	}
	e.CreateTask(e.Admin, map[string]any{"title": "two"})
	e.run()
	got2 := e.OK(http.StatusOK, http.MethodGet, "/v1/webhooks/"+w["id"].(string), e.Admin, nil)
	if got2["active"] != false || !strings.Contains(fmt.Sprint(got2["notice"]), "410") {
		t.Fatalf("after 410: %v", got2)
	}
	e.CreateTask(e.Admin, map[string]any{"title": "three"})
	if n := e.run(); n != 0 {
		t.Fatalf("a disabled endpoint was sent %d", n)
	}
}

// TestRotationSignsWithBoth: during a rotation both secrets verify a
// delivery; after a day only the new one signs.
func TestRotationSignsWithBoth(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL, "task.created")
	rot := e.OK(http.StatusOK, http.MethodPost, "/v1/webhooks/"+w["id"].(string)+"/rotate", e.Admin, nil)
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	e.run()
	r := rcv.requests()[0]
	verify(t, w["secret"].(string), r)
	verify(t, rot["secret"].(string), r)
	if n := len(strings.Fields(r.header.Get("webhook-signature"))); n != 2 {
		t.Fatalf("%d signatures during the rotation", n)
	}
	e.Clock.Advance(app.WebhookRotation)
	e.CreateTask(e.Admin, map[string]any{"title": "two"})
	e.run()
	r = rcv.requests()[1]
	verify(t, rot["secret"].(string), r)
	if old, _ := standardwebhooks.NewWebhook(w["secret"].(string)); old.Verify(r.body, r.header) == nil {
		t.Fatalf("the rotated-out secret still verifies after a day")
	}
}

// TestDisclosure: the endpoint gets only what its creator may see; a
// private project's events never reach it, and a deactivated creator
// stops it.
func TestDisclosure(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	ann := e.Member("ann", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	e.webhook(ann, rcv.URL, "*")
	e.CreateTask(e.Admin, map[string]any{"title": "hidden", "project": "secret"})
	e.CreateTask(e.Admin, map[string]any{"title": "seen"})
	e.run()
	for _, r := range rcv.requests() {
		if strings.Contains(string(r.body), "hidden") {
			t.Fatalf("a private project's event reached ann's endpoint: %s", r.body)
		}
	}
	if len(rcv.requests()) != 1 {
		t.Fatalf("received %d, want the visible task alone", len(rcv.requests()))
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/ann", e.Admin, map[string]any{"active": false})
	e.CreateTask(e.Admin, map[string]any{"title": "after"})
	e.run()
	if len(rcv.requests()) != 1 {
		t.Fatalf("a deactivated creator's endpoint was still sent to")
	}
}

// TestRedeliverAndReplay: both send the same event again under its id.
func TestRedeliverAndReplay(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL, "task.created")
	id := w["id"].(string)
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	e.CreateTask(e.Admin, map[string]any{"title": "two"})
	e.run()
	log := e.OK(http.StatusOK, http.MethodGet, "/v1/webhooks/"+id+"/deliveries", e.Admin, nil)["items"].([]any)
	oldest := log[len(log)-1].(map[string]any)
	e.OK(http.StatusAccepted, http.MethodPost, fmt.Sprintf("/v1/webhooks/%s/redeliver/%d", id, int(oldest["delivery"].(float64))), e.Admin, nil)
	e.run()
	got := rcv.requests()
	if len(got) != 3 || got[2].header.Get("webhook-id") != got[0].header.Get("webhook-id") {
		t.Fatalf("redelivered: %d requests", len(got))
	}
	r := e.OK(http.StatusAccepted, http.MethodPost, fmt.Sprintf("/v1/webhooks/%s/replay?since=%d", id, int(oldest["event_seq"].(float64))), e.Admin, nil)
	if r["queued"] != float64(2) {
		t.Fatalf("replay %v", r)
	}
	e.run()
	got = rcv.requests()
	if len(got) != 5 || got[3].header.Get("webhook-id") != got[0].header.Get("webhook-id") || got[4].header.Get("webhook-id") != got[1].header.Get("webhook-id") {
		t.Fatalf("replayed: %d requests", len(got))
	}
}

// TestDialRefused: an address allowed when the endpoint was made but not
// when it is dialled (a name that now resolves to loopback) is refused at
// the connection, logged, and retried like any failure.
func TestDialRefused(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	w := e.webhook(e.Admin, rcv.URL, "task.created")
	strict := hook.New(e.Svc, hook.Options{})
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	if _, err := strict.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(rcv.requests()) != 0 {
		t.Fatalf("a refused address was reached")
	}
	log := e.OK(http.StatusOK, http.MethodGet, "/v1/webhooks/"+w["id"].(string)+"/deliveries", e.Admin, nil)["items"].([]any)
	first := log[0].(map[string]any)
	if first["outcome"] != "retry" || !strings.Contains(fmt.Sprint(first["error"]), "refused") {
		t.Fatalf("log %v", first)
	}
}

// TestRunWakesOnCommit: the running worker sends an event once it
// commits, without polling.
func TestRunWakesOnCommit(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	e.webhook(e.Admin, rcv.URL, "task.created")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.worker.Run(ctx)
	}()
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	<-rcv.arrived
	cancel()
	<-done
}

// TestRunSendsWhatWasInFlight: a delivery leased by a worker that is gone
// (killed while it sent) goes out as soon as the next worker runs, not when
// its lease would run out, which on this fixed clock is never.
func TestRunSendsWhatWasInFlight(t *testing.T) {
	e := newHookEnv(t)
	rcv := newReceiver(t)
	e.webhook(e.Admin, rcv.URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "one"})
	sends, _, err := e.Svc.WebhookLease(context.Background(), 1, time.Hour)
	if err != nil || len(sends) != 1 {
		t.Fatalf("leased %d: %v", len(sends), err)
	}
	if n := e.run(); n != 0 {
		t.Fatalf("sent %d while leased", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.worker.Run(ctx)
	}()
	<-rcv.arrived
	cancel()
	<-done
	if got := payload(t, rcv.requests()[0]); got.Data.Seq != sends[0].Event.Seq {
		t.Errorf("sent event %d, event %d was in flight", got.Data.Seq, sends[0].Event.Seq)
	}
}

// countingService is the real Service, counting the item reads a payload
// makes.
type countingService struct {
	*app.Service
	mu    sync.Mutex
	reads int
}

func (c *countingService) TaskGet(ctx context.Context, a app.Actor, workspace, idOrRef string) (app.Task, error) {
	c.mu.Lock()
	c.reads++
	c.mu.Unlock()
	return c.Service.TaskGet(ctx, a, workspace, idOrRef)
}

// TestRoundSharesPayload: an event going to two endpoints one person made
// is read and encoded once in a round, and each copy is still signed with
// its own endpoint's secret.
func TestRoundSharesPayload(t *testing.T) {
	e := newHookEnv(t)
	counted := &countingService{Service: e.Svc}
	allow := storetest.Loopback(t)
	worker := hook.New(counted, hook.Options{Outbound: allow})
	a, b := newReceiver(t), newReceiver(t)
	wa := e.webhook(e.Admin, a.URL, "task.created")
	wb := e.webhook(e.Admin, b.URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "Water the plants"})
	if n, err := worker.RunOnce(context.Background()); err != nil || n != 2 {
		t.Fatalf("sent %d (%v), want 2", n, err)
	}
	ga, gb := a.requests(), b.requests()
	if len(ga) != 1 || len(gb) != 1 || string(ga[0].body) != string(gb[0].body) {
		t.Fatalf("bodies differ: %s and %s", ga, gb)
	}
	verify(t, wa["secret"].(string), ga[0])
	verify(t, wb["secret"].(string), gb[0])
	if counted.reads != 1 {
		t.Errorf("the task was read %d times for one event to two endpoints", counted.reads)
	}
}

// TestBookkeepingWakesNobody: the worker's leases and attempts are no
// event, so they do not wake whoever waits on the next write (the change
// feed's long polls, the worker itself); an endpoint it disables is one.
func TestBookkeepingWakesNobody(t *testing.T) {
	e := newHookEnv(t)
	e.webhook(e.Admin, newReceiver(t).URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "Sweep the floor"})
	written := e.Svc.Written()
	if n := e.run(); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
	select {
	case <-written:
		t.Fatal("a delivery's lease and attempt woke the waiters")
	default:
	}
	e.webhook(e.Admin, newReceiver(t, http.StatusGone).URL, "task.created")
	e.CreateTask(e.Admin, map[string]any{"title": "Mop the floor"})
	written = e.Svc.Written()
	e.run()
	select {
	case <-written:
	default:
		t.Fatal("the endpoint the worker disabled woke nobody")
	}
}
