package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web"
)

// env is one test's instance: a real database file, the real router behind
// httptest, and the administrator's token from the first start.
type env struct {
	t     *testing.T
	db    *store.DB
	clock *storetest.Clock // the database's fixed clock; tests advance it
	svc   *app.Service
	srv   *httptest.Server
	admin string // the first administrator's secret
	logs  *lockedWriter
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvWith(t, app.Options{Version: "test"})
}

// newEnvWith is newEnv with the service's options (limits, public URL).
func newEnvWith(t *testing.T, opts app.Options) *env {
	t.Helper()
	db, clock := bootstrapped.Open(t)
	svc := app.New(db, opts)
	logs := &lockedWriter{}
	srv := httptest.NewServer(web.NewServer(svc, slog.New(slog.NewTextHandler(logs, nil))))
	t.Cleanup(srv.Close)
	return &env{t: t, db: db, clock: clock, svc: svc, srv: srv, admin: adminSecret, logs: logs}
}

// bootstrapped is a first start (migrated, the instance, the default
// workspace and vocabularies, the administrator), made once per test binary
// and copied for each test: migrating and bootstrapping a new file costs
// seconds under the race detector, a copy milliseconds. adminSecret is the
// administrator's token of that first start, good in every copy.
var (
	adminSecret  string
	bootstrapped = storetest.NewTemplate(func(ctx context.Context, db *store.DB) error {
		first, err := app.New(db, app.Options{Version: "test"}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
		adminSecret = first.Token.Secret
		return err
	})
)

// response is a decoded answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic map.
func (r response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// do sends a request with token as the bearer credential (none when empty)
// and body marshalled as JSON (a string is sent as it is).
func (e *env) do(method, path, token string, body any) response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// ok sends a request and fails the test unless the status is want; it
// returns the decoded JSON object (nil for an empty body).
func (e *env) ok(want int, method, path, token string, body any) map[string]any {
	e.t.Helper()
	r := e.do(method, path, token, body)
	if r.Status != want {
		e.t.Fatalf("%s %s: status %d, want %d\n%s", method, path, r.Status, want, r.Body)
	}
	if len(r.Body) == 0 {
		return nil
	}
	return r.JSON(e.t)
}

// problem sends a request and asserts it is refused with status and code as
// an RFC 9457 problem document; it returns the problem.
func (e *env) problem(status int, code, method, path, token string, body any) map[string]any {
	e.t.Helper()
	r := e.do(method, path, token, body)
	assertProblem(e.t, r, status, code)
	return r.JSON(e.t)
}

func assertProblem(t *testing.T, r response, status int, code string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d\n%s", r.Status, status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type %q, want application/problem+json", ct)
	}
	p := r.JSON(t)
	if p["code"] != code {
		t.Fatalf("code %v, want %s\n%s", p["code"], code, r.Body)
	}
	if p["status"] != float64(status) || p["type"] != "tag:tend,2026:problem/"+code || p["title"] == "" {
		t.Fatalf("malformed problem document: %s", r.Body)
	}
	if status == http.StatusUnprocessableEntity {
		d, ok := p["detail"].([]any)
		if !ok || len(d) == 0 {
			t.Fatalf("a 422 carries the HTTPValidationError detail array: %s", r.Body)
		}
		for _, it := range d {
			m, _ := it.(map[string]any)
			if _, ok := m["loc"].([]any); !ok || m["msg"] == "" || m["type"] == "" {
				t.Fatalf("validation item needs loc, msg and type: %s", r.Body)
			}
		}
	}
}

// issue issues a credential through POST /v1/tokens with issuer's token and
// returns the IssuedToken.
func (e *env) issue(issuer string, body map[string]any) map[string]any {
	e.t.Helper()
	return e.ok(http.StatusCreated, http.MethodPost, "/v1/tokens", issuer, body)
}

// person creates a person through the API and returns a token for them,
// issued by the administrator.
func (e *env) person(username string) string {
	e.t.Helper()
	e.ok(http.StatusCreated, http.MethodPost, "/v1/users", e.admin, map[string]any{"username": username})
	return e.issue(e.admin, map[string]any{"username": username})["token"].(string)
}

// join adds username to the default workspace with role.
func (e *env) join(username, role string) {
	e.t.Helper()
	e.ok(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/members", e.admin, map[string]any{"username": username, "role": role})
}

// lockedWriter lets the server's logger and a test's reads share a buffer.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// logText returns everything the server logged so far.
func (e *env) logText() string {
	e.logs.mu.Lock()
	defer e.logs.mu.Unlock()
	return e.logs.b.String()
}

// lstSub is e answering to a subtest's t, so e.ok and e.problem fail the
// subtest and not its parent.
func lstSub(e *env, t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

func lstNum(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func lstItems(m map[string]any) []map[string]any {
	raw, _ := m["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

func lstPage(m map[string]any) map[string]any {
	p, _ := m["page"].(map[string]any)
	return p
}

func lstItoa(n int64) string { return strconv.FormatInt(n, 10) }

func lstRefs(items []map[string]any) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, lstNum(it["ref"]))
	}
	return out
}
