package web_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// TestChangesWaitHTTP is GET /v1/changes?wait=S over HTTP: a waiting
// request answers with the event whose commit woke it, the wait ends
// empty, and the refusals (wait out of range or without since, a
// credential's waits all held) are problem documents.
func TestChangesWaitHTTP(t *testing.T) {
	t.Parallel()
	ends := make(chan time.Time)
	e := newEnvWith(t, app.Options{Version: "test", Limits: app.Limits{WaitersPerCredential: 1},
		Timer: func(time.Duration) (<-chan time.Time, func()) { return ends, func() {} }})
	newest := int64(e.feed("/v1/changes?limit=1", e.Admin).items[0]["seq"].(float64))
	since := fmt.Sprintf("/v1/changes?since=%d", newest+1)

	// waiting sends GET path as token in the background, returning once
	// the server holds it open (or has answered already, which the
	// caller's checks then report).
	waiting := func(path, token string) <-chan feedPage {
		before := e.Svc.Waiting()
		return storetest.Waiting(func() feedPage { return e.feed(path, token) }, func() bool { return e.Svc.Waiting() != before })
	}

	got := waiting(since+"&wait=30", e.Admin)
	// Its one wait is held: the credential's next is refused with 429.
	r := e.Do(http.MethodGet, since+"&wait=5", e.Admin, nil)
	webtest.AssertProblem(t, r, http.StatusTooManyRequests, string(app.CodeTooManyWaiters))
	if r.Header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", r.Header.Get("Retry-After"))
	}
	task := e.CreateTask(e.Admin, map[string]any{"title": "wakes the feed"})
	p := <-got
	if len(p.items) != 1 || p.items[0]["action"] != "task.created" || p.items[0]["entity_id"] != task["id"] {
		t.Fatalf("the waiting request answered %v, want the task's creation", p.items)
	}

	after := fmt.Sprintf("/v1/changes?since=%d&wait=60", int64(p.items[0]["seq"].(float64))+1)
	got = waiting(after, e.Admin)
	ends <- time.Time{}
	if p := <-got; len(p.items) != 0 || p.more {
		t.Errorf("an expired wait answered %v", p.items)
	}

	for _, q := range []string{"?wait=5", since + "&wait=0", since + "&wait=61", since + "&wait=soon"} {
		if q[0] == '?' {
			q = "/v1/changes" + q
		}
		e.Problem(http.StatusUnprocessableEntity, string(app.CodeValidation), http.MethodGet, q, e.Admin, nil)
	}
}
