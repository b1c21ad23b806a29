package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web"
	"tend/web/webtest"
)

// newLogEnv is newEnv with the server's log in the given handler's format
// at debug level, and onActive called when a connection starts a request.
func newLogEnv(t *testing.T, format string, onActive func()) *env {
	t.Helper()
	db, clock, admin := webtest.OpenBootstrapped(t)
	svc := app.New(db, app.Options{Version: "test"})
	logs := &webtest.LogBuffer{}
	opts := &slog.HandlerOptions{Level: slog.LevelDebug}
	var h slog.Handler = slog.NewTextHandler(logs, opts)
	if format == "json" {
		h = slog.NewJSONHandler(logs, opts)
	}
	srv := httptest.NewUnstartedServer(webtest.Validated(t, web.NewServer(svc, slog.New(h))))
	if onActive != nil {
		srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateActive {
				onActive()
			}
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return &env{&webtest.Env{T: t, DB: db, Clock: clock, Svc: svc, Srv: srv, Admin: admin, Logs: logs}}
}

// accessLines are the JSON log's access lines.
func (e *env) accessLines() []map[string]any {
	e.T.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(e.LogText()))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			e.T.Fatalf("a log line is not one JSON object: %v\n%s", err, sc.Text())
		}
		if m["msg"] == "request" {
			out = append(out, m)
		}
	}
	return out
}

// TestAccessLogJSON: with the JSON format every request is one JSON object
// naming its route pattern, redacted URL, status, duration and the public
// prefix of the credential or session it presented. No secret reaches the
// log: not a token in the header, the path or the query, not a sign-in
// link, not a feed's secret, not a session cookie.
func TestAccessLogJSON(t *testing.T) {
	t.Parallel()
	e := newLogEnv(t, "json", nil)
	adminPrefix := e.Admin[:len("tend_abcdefghij")]
	link := e.MintLink(e.Admin, nil)
	session := e.SignIn(e.MintLink(e.Admin, nil))
	feed, _ := e.Calendar(e.Admin, map[string]any{})
	feedPath := strings.TrimPrefix(feed, e.Srv.URL)
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/987", e.Admin, nil)
	e.Problem(http.StatusBadRequest, "secret_in_query", http.MethodGet, "/v1/tasks?q="+e.Admin, "", nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/documents/"+e.Admin, e.Admin, nil)
	e.Browser(http.MethodGet, "/signin?link="+link, "", "", nil)
	e.Browser(http.MethodGet, "/", session.Value, "", nil)
	e.FetchFeed(feed, nil)

	lines := e.accessLines()
	find := func(route string, status float64) map[string]any {
		t.Helper()
		for _, l := range lines {
			if l["route"] == route && l["status"] == status {
				return l
			}
		}
		t.Fatalf("no access line for %s with status %v in\n%s", route, status, e.LogText())
		return nil
	}
	me := find("/v1/me", 200)
	if me["level"] != "INFO" || me["method"] != "GET" || me["url"] != "/v1/me" || me["credential"] != adminPrefix {
		t.Errorf("access line of GET /v1/me: %v", me)
	}
	if d, ok := me["duration"].(float64); !ok || d <= 0 {
		t.Errorf("duration %v, want the nanoseconds the request took", me["duration"])
	}
	if l := find("/v1/tasks/:task", 404); l["url"] != "/v1/tasks/987" {
		t.Errorf("access line of a missing task: %v", l)
	}
	if l := find("/v1/tasks", 400); l["url"] != "/v1/tasks?q="+adminPrefix+"_…" || l["credential"] != nil {
		t.Errorf("a token in the query: %v", l)
	}
	if l := find("/v1/documents/:document", 404); l["url"] != "/v1/documents/"+adminPrefix+"_…" {
		t.Errorf("a token in the path: %v", l)
	}
	if l := find("/signin", 200); l["url"] != "/signin?link=…" {
		t.Errorf("sign-in link logged as %v", l["url"])
	}
	if l := find("/", 200); l["session"] != session.Value[:len(adminPrefix)] || l["credential"] != nil {
		t.Errorf("a page seen through a session: %v", l)
	}
	if l := find("/v1/calendars/:calendar/:secret", 200); !strings.HasSuffix(l["url"].(string), "/….ics") || l["url"] == feedPath {
		t.Errorf("feed logged as %v", l["url"])
	}
	logs := e.LogText()
	for name, secret := range map[string]string{"token": e.Admin, "sign-in link": link, "session": session.Value, "feed": strings.TrimSuffix(feedPath, ".ics")} {
		if tail := secret[len(secret)-20:]; strings.Contains(logs, tail) {
			t.Errorf("the %s's secret reached the log:\n%s", name, logs)
		}
	}
}

// TestAccessLogText: the text format's access line carries the same
// fields, and a bearer value that is not a tend secret is not echoed.
func TestAccessLogText(t *testing.T) {
	t.Parallel()
	e := newLogEnv(t, "text", nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", "not-a-tend-secret-but-private", nil)
	logs := e.LogText()
	want := "level=INFO msg=request method=GET route=/v1/me url=/v1/me status=200 duration="
	if !strings.Contains(logs, want) || !strings.Contains(logs, " credential="+e.Admin[:15]+"\n") {
		t.Errorf("no access line like %q with the credential's prefix:\n%s", want, logs)
	}
	if strings.Contains(logs, "not-a-tend-secret") || strings.Contains(logs, e.Admin[15:]) {
		t.Errorf("a presented secret reached the log:\n%s", logs)
	}
}

// TestClientGoneIsNotAnError: a browser tab closed while its live-update
// stream waits, and a request whose caller gave up before it was served,
// are logged with status 499 and no error line; the cause is at debug.
func TestClientGoneIsNotAnError(t *testing.T) {
	t.Parallel()
	active := make(chan struct{}, 8)
	e := newLogEnv(t, "text", func() { active <- struct{}{} })
	session := e.SignIn(e.MintLink(e.Admin, nil))
	seq := lstNum(e.OK(http.StatusOK, http.MethodGet, "/live", e.Admin, nil)["seq"])
	for len(active) > 0 {
		<-active
	}

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.Srv.URL+"/live?after="+lstItoa(seq), nil)
	req.AddCookie(session)
	done := make(chan error, 1)
	go func() {
		res, err := (&http.Client{Transport: &http.Transport{}}).Do(req)
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	<-active // the server is reading the request: closing now is closing a tab
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("the live request ended with %v, want the client's cancellation", err)
	}

	// A request whose context is already cancelled when it is served,
	// through the API and through a page.
	gone, stop := context.WithCancel(context.Background())
	stop()
	h := e.Handler()
	for _, path := range []string{"/v1/me", "/tasks"} {
		r := httptest.NewRequestWithContext(gone, http.MethodGet, path, nil)
		r.AddCookie(session)
		h.ServeHTTP(httptest.NewRecorder(), r)
	}

	for _, want := range []string{`route=/live url="/live?after=` + lstItoa(seq) + `" status=499`, "route=/v1/me url=/v1/me status=499", "route=/tasks url=/tasks status=499"} {
		waitFor(t, e, want)
	}
	if logs := e.LogText(); strings.Contains(logs, "level=ERROR") || strings.Contains(logs, "level=WARN") {
		t.Errorf("a client going away was logged as a failure:\n%s", logs)
	}
}

// waitFor waits until the log holds want: the server logs a request after
// noticing its client left, which it does on its own schedule.
func waitFor(t *testing.T, e *env, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(e.LogText(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never held %q:\n%s", want, e.LogText())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
