package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
	"tend/web"
	"tend/web/passkeys"
)

// Env is one test's instance: a real database file, the real router behind
// httptest (every request and answer checked against the OpenAPI document:
// Validated), and the administrator's token from the first start.
type Env struct {
	T     *testing.T
	DB    *store.DB
	Clock *storetest.Clock // the database's fixed clock; tests advance it
	Svc   *app.Service
	Srv   *httptest.Server
	Admin string // the first administrator's secret
	Logs  *LogBuffer

	server *web.Server // behind Srv, inside Validated
}

// New starts a test instance: a bootstrapped database on the fixed clock, served by web.NewServer on httptest.
func New(t *testing.T) *Env {
	t.Helper()
	return NewWith(t, app.Options{Version: "test"})
}

// NewWith is New with the service's options (limits, public URL), as
// storetest.Options completes them.
func NewWith(t *testing.T, opts app.Options) *Env {
	t.Helper()
	db, clock, admin := OpenBootstrapped(t)
	if opts.Passkeys == nil {
		opts.Passkeys = passkeys.Ceremonies{}
	}
	return Around(t, db, clock, app.New(db, storetest.Options(opts)), admin)
}

// Around is the Env of a service the test made itself (on a store of its
// own, an import, a first start of its own), served as New serves one:
// every answer checked against the OpenAPI document, the log kept in Logs.
// admin is the credential e.Admin names.
func Around(t *testing.T, db *store.DB, clock *storetest.Clock, svc *app.Service, admin string) *Env {
	t.Helper()
	logs := &LogBuffer{}
	server := web.NewServer(svc, slog.New(slog.NewTextHandler(logs, nil)))
	srv := httptest.NewServer(Validated(t, server))
	t.Cleanup(srv.Close)
	return &Env{T: t, DB: db, Clock: clock, Svc: svc, Srv: srv, Admin: admin, Logs: logs, server: server}
}

// TrustTailscale makes the server trust Tailscale-User-Login from
// loopback, where httptest's requests come from (tend serve
// --trust-tailscale).
func (e *Env) TrustTailscale() { e.server.TrustTailscale() }

// Quiet is svc's router with its log discarded, for a benchmark or a test
// that builds its own service (its own file, steps or clock) and checks the
// answers rather than the log.
func Quiet(svc *app.Service) *web.Server {
	return web.NewServer(svc, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

// Serve serves Quiet(svc) over loopback until tb ends. Unlike New's server
// it does not check the answers against the OpenAPI document: a benchmark
// times the server alone.
func Serve(tb testing.TB, svc *app.Service) *httptest.Server {
	tb.Helper()
	srv := httptest.NewServer(Quiet(svc))
	tb.Cleanup(srv.Close)
	return srv
}

// ServeBootstrapped serves a fresh first start as Serve does, with wrap
// (when given) in front of the router, for a test that drives the server
// only as a client would (the bench harnesses), and answers its URL and
// the administrator's token; the administrator is AdminUsername.
func ServeBootstrapped(tb testing.TB, wrap func(http.Handler) http.Handler) (string, string) {
	tb.Helper()
	db, _, admin := OpenBootstrapped(tb)
	var h http.Handler = Quiet(app.New(db, app.Options{Version: "test"}))
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv.URL, admin
}

// AdminUsername is the first administrator's user name in every first
// start the helpers make.
const AdminUsername = "admin"

// OpenBootstrapped opens a fresh copy of a first start (migrated, the
// instance, the default workspace and vocabularies, the administrator) on a
// fixed clock at storetest.Epoch, for a test that builds its own service or
// server around it, and returns the administrator's token.
func OpenBootstrapped(tb testing.TB) (*store.DB, *storetest.Clock, string) {
	tb.Helper()
	db, clock := bootstrapped.Open(tb)
	return db, clock, adminSecret
}

// CopyBootstrapped writes a copy of the first start's files at path, for a
// test that opens the database itself with options of its own, and returns
// the administrator's token.
func CopyBootstrapped(tb testing.TB, path string) string {
	tb.Helper()
	bootstrapped.Copy(tb, path)
	return adminSecret
}

// bootstrapped is a first start (migrated, the instance, the default
// workspace and vocabularies, the administrator), made once per test binary
// and copied for each test: migrating and bootstrapping a new file costs
// seconds under the race detector, a copy a fraction of one. adminSecret is
// the administrator's token of that first start, good in every copy.
var (
	adminSecret  string
	bootstrapped = storetest.NewTemplate(func(ctx context.Context, db *store.DB) error {
		first, err := app.New(db, app.Options{Version: "test"}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC", AdminUsername: AdminUsername})
		adminSecret = first.Token.Secret
		return err
	})
)

// Response is a decoded answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic map.
func (r Response) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.Body)
	}
	return m
}

// Do sends a request with token as the bearer credential (none when empty)
// and body marshalled as JSON (a string is sent as it is).
func (e *Env) Do(method, path, token string, body any) Response {
	e.T.Helper()
	req := e.JSONRequest(method, path, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return e.Send(req)
}

// JSONRequest is a request to the server at path with body marshalled as
// JSON (a string is sent as it is, nil sends none), for headers Do does
// not set.
func (e *Env) JSONRequest(method, path string, body any) *http.Request {
	e.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req := e.Request(method, path, rd)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// Request is a request to the server at path, for headers Do does not set.
func (e *Env) Request(method, path string, body io.Reader) *http.Request {
	e.T.Helper()
	req, err := http.NewRequest(method, e.Srv.URL+path, body)
	if err != nil {
		e.T.Fatal(err)
	}
	return req
}

// Send sends req as it is and answers the response, its body read; a
// request that cannot be sent or read fails the test.
func (e *Env) Send(req *http.Request) Response {
	e.T.Helper()
	return e.send(e.Srv.Client(), req)
}

// Exchange is Send without following a redirect: the answer is the
// server's own, as a browser receives it before it goes on.
func (e *Env) Exchange(req *http.Request) Response {
	e.T.Helper()
	client := *e.Srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return e.send(&client, req)
}

func (e *Env) send(client *http.Client, req *http.Request) Response {
	e.T.Helper()
	return Fetch(e.T, client, req)
}

// Fetch sends req with client, to any server, and answers the response,
// its body read; a request that cannot be sent or read fails the test.
func Fetch(tb testing.TB, client *http.Client, req *http.Request) Response {
	tb.Helper()
	res, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// OK sends a request and fails the test unless the status is want; it
// returns the decoded JSON object (nil for an empty body).
func (e *Env) OK(want int, method, path, token string, body any) map[string]any {
	e.T.Helper()
	r := e.Do(method, path, token, body)
	if r.Status != want {
		e.T.Fatalf("%s %s: status %d, want %d\n%s", method, path, r.Status, want, r.Body)
	}
	if len(r.Body) == 0 {
		return nil
	}
	return r.JSON(e.T)
}

// Problem sends a request and asserts it is refused with status and code as
// an RFC 9457 problem document; it returns the problem.
func (e *Env) Problem(status int, code, method, path, token string, body any) map[string]any {
	e.T.Helper()
	r := e.Do(method, path, token, body)
	AssertProblem(e.T, r, status, code)
	return r.JSON(e.T)
}

// AssertProblem fails t unless r is an RFC 9457 problem document with status and code, a 422 carrying the HTTPValidationError array.
func AssertProblem(t *testing.T, r Response, status int, code string) {
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

// Issue issues a credential through POST /v1/tokens with issuer's token and
// returns the IssuedToken.
func (e *Env) Issue(issuer string, body map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/tokens", issuer, body)
}

// Person creates a person through the API and returns a token for them,
// issued by the administrator.
func (e *Env) Person(username string) string {
	e.T.Helper()
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": username})
	return e.Issue(e.Admin, map[string]any{"username": username})["token"].(string)
}

// Member creates a person, adds them to the default workspace with role
// and returns a token for them.
func (e *Env) Member(username, role string) string {
	e.T.Helper()
	token := e.Person(username)
	e.Join(username, role)
	return token
}

// Join adds username to the default workspace with role.
func (e *Env) Join(username, role string) {
	e.T.Helper()
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/members", e.Admin, map[string]any{"username": username, "role": role})
}

// LogBuffer is a buffer that a writer (the server's logger, a command
// running) and a test's reads may share.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the log.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// LogText returns everything the server logged so far.
func (e *Env) LogText() string {
	return e.Logs.String()
}

// String returns everything written so far; a test may read it while
// another goroutine writes.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// IsComplete reports whether the task ref is complete, read through the API.
func (e *Env) IsComplete(ref int) bool {
	e.T.Helper()
	return e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks/%d", ref), e.Admin, nil)["is_complete"].(bool)
}

// LocOfProblem is the first place a problem names, dotted ("" for none).
func LocOfProblem(p map[string]any) string {
	d, ok := p["detail"].([]any)
	if !ok || len(d) == 0 {
		return ""
	}
	var parts []string
	for _, x := range d[0].(map[string]any)["loc"].([]any) {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ".")
}

// Browser sends requests with a session cookie (and no Authorization
// header), from the server's own origin unless origin says otherwise.
func (e *Env) Browser(method, path, session, origin string, form url.Values) Response {
	e.T.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := e.Request(method, path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	return e.Exchange(req)
}

// MintLink mints a sign-in link with token and returns its secret.
func (e *Env) MintLink(token string, body map[string]any) string {
	e.T.Helper()
	l := e.OK(http.StatusCreated, http.MethodPost, "/v1/login-links", token, body)
	u, err := url.Parse(l["url"].(string))
	if err != nil || u.Path != "/signin" {
		e.T.Fatalf("sign-in url %v", l["url"])
	}
	return u.Query().Get("link")
}

// SignIn spends secret from the confirmation page and returns the session cookie.
func (e *Env) SignIn(secret string) *http.Cookie {
	e.T.Helper()
	r := e.Browser(http.MethodPost, "/signin", "", e.Srv.URL, url.Values{"link": {secret}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		e.T.Fatalf("sign in: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" {
			return c
		}
	}
	e.T.Fatal("no tend_session cookie")
	return nil
}

// CreateTask files a task through POST /v1/tasks and returns it.
func (e *Env) CreateTask(token string, body map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", token, body)
}

// On is e answering to t, so that its helpers fail a subtest and not its
// parent.
func (e *Env) On(t *testing.T) *Env {
	c := *e
	c.T = t
	return &c
}
