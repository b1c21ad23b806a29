package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web/webtest"
)

// The fixtures this package's tests share: the env, readers of listing
// envelopes, and helpers that create and read tasks, documents, projects,
// accounts and credentials through the API. A helper only one file's tests
// use stays in that file.

// sub is e answering to a subtest's t, so that a helper failing inside a
// subtest fails that subtest, from its own goroutine, and not its parent.
func (e *env) sub(t *testing.T) *env { return &env{e.On(t)} }

// lstNum reads a JSON number as an int64 (0 when it is not one).
func lstNum(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

// lstItems returns the items of a listing envelope.
func lstItems(m map[string]any) []map[string]any {
	raw, _ := m["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

// lstPage returns a listing envelope's page.
func lstPage(m map[string]any) map[string]any {
	p, _ := m["page"].(map[string]any)
	return p
}

func lstItoa(n int64) string { return strconv.FormatInt(n, 10) }

// lstRefs collects the refs of items, in order.
func lstRefs(items []map[string]any) []int64 {
	out := []int64{}
	for _, it := range items {
		out = append(out, lstNum(it["ref"]))
	}
	return out
}

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

// newEnv starts a test instance of its own (webtest.New).
func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }

// newCheckedEnv is newEnv for a test that also fails if the server logged
// an internal error: every refusal it provokes must be a deliberate problem.
func newCheckedEnv(t *testing.T) *env {
	e := newEnv(t)
	t.Cleanup(func() { assertNoInternalErrors(t, e) })
	return e
}

// adminActor is the administrator as the service sees a request over HTTP,
// for a test that seeds through the service.
func (e *env) adminActor() app.Actor {
	e.T.Helper()
	a, err := e.Svc.Authenticate(context.Background(), e.Admin, "http")
	if err != nil {
		e.T.Fatal(err)
	}
	return a
}

// newEnvWith is newEnv with the service's options (limits, public URL).
func newEnvWith(t *testing.T, opts app.Options) *env { return &env{webtest.NewWith(t, opts)} }

// tskPath is the address of a task (or of one of its sub-resources).
func tskPath(task map[string]any, rest ...string) string {
	p := fmt.Sprintf("/v1/tasks/%d", int64(task["ref"].(float64)))
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// tskProject creates a project (parent may be empty) as the administrator.
func (e *env) tskProject(key, parent string) map[string]any {
	e.T.Helper()
	body := map[string]any{"key": key, "title": key}
	if parent != "" {
		body["parent"] = parent
	}
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, body)
}

// newProjectsEnv is a fresh instance with the projects the task and
// document listing tests file into: alpha, web under it, and beta.
func newProjectsEnv(t *testing.T) *env {
	e := newEnv(t)
	e.tskProject("alpha", "")
	e.tskProject("web", "alpha")
	e.tskProject("beta", "")
	return e
}

// tskEvents reads a task's whole history in the order asked for ("" or "seq").
func (e *env) tskEvents(token string, task map[string]any, order string) []map[string]any {
	e.T.Helper()
	path := tskPath(task, "events") + "?limit=500"
	if order != "" {
		path += "&order=" + order
	}
	items := e.OK(http.StatusOK, http.MethodGet, path, token, nil)["items"].([]any)
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = it.(map[string]any)
	}
	return out
}

// tskActions lists the actions of events.
func tskActions(evs []map[string]any) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev["action"].(string)
	}
	return out
}

// tskAgent creates a service account answering to the administrator, joins
// it to the default workspace as a member and returns its token.
func (e *env) tskAgent(username string) string {
	e.T.Helper()
	tok := e.Issue(e.Admin, map[string]any{"username": username, "answers_to": "admin"})
	if tok["account_created"] != true {
		e.T.Fatalf("issuing for a new agent creates the account: %v", tok)
	}
	e.Join(username, "member")
	return tok["token"].(string)
}

// tskGet reads a task by ref as the administrator.
func (e *env) tskGet(task map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)
}

// tskWant fails t unless task holds each field of want, compared as printed.
func tskWant(t *testing.T, task map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		got, ok := task[k]
		if !ok {
			t.Errorf("%s is missing", k)
		} else if fmt.Sprint(got) != fmt.Sprint(v) {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
}

// docPath is the address of a document (or of one of its sub-resources).
func docPath(doc map[string]any, rest ...string) string {
	p := fmt.Sprintf("/v1/documents/%d", lstNum(doc["ref"]))
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// docCreate files a document through POST /v1/documents and returns it.
func (e *env) docCreate(token string, body map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", token, body)
}

// docEvents reads an item's whole history, oldest first.
func (e *env) docEvents(token, path string) []map[string]any {
	e.T.Helper()
	return lstItems(e.OK(http.StatusOK, http.MethodGet, path+"/events?order=seq&limit=500", token, nil))
}

// account creates an account through POST /v1/users as the administrator.
func (e *env) account(body map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, body)
}

// agentOf creates a service account answering to boss.
func (e *env) agentOf(username, boss string) map[string]any {
	e.T.Helper()
	return e.account(map[string]any{"username": username, "is_service_account": true, "answers_to": boss})
}

// tokenOf issues a credential for an existing account, as the administrator.
func (e *env) tokenOf(username string) string {
	e.T.Helper()
	return e.Issue(e.Admin, map[string]any{"username": username})["token"].(string)
}

// listing sends a GET for a listing and returns its items and page.
func (e *env) listing(path, token string) ([]any, map[string]any) {
	e.T.Helper()
	body := e.OK(http.StatusOK, http.MethodGet, path, token, nil)
	items, ok := body["items"].([]any)
	if !ok {
		e.T.Fatalf("GET %s: items is not an array: %v", path, body)
	}
	page, ok := body["page"].(map[string]any)
	if !ok {
		e.T.Fatalf("GET %s: page is not an object: %v", path, body)
	}
	return items, page
}

// field collects one string field of each item.
func field(items []any, name string) []string {
	out := []string{}
	for _, it := range items {
		s, _ := it.(map[string]any)[name].(string)
		out = append(out, s)
	}
	return out
}

// assertNoInternalErrors fails if the server logged an internal error: a
// refusal must always be a deliberate problem, never a 500.
func assertNoInternalErrors(t *testing.T, e *env) {
	t.Helper()
	if logs := e.LogText(); strings.Contains(logs, "level=ERROR") {
		t.Fatalf("the server logged an internal error:\n%s", logs)
	}
}

// assertLoc fails unless one of a 422's validation items points at want
// (dotted, such as "body.username").
func assertLoc(t *testing.T, p map[string]any, want string) {
	t.Helper()
	d, _ := p["detail"].([]any)
	var got []string
	for _, it := range d {
		var parts []string
		for _, s := range it.(map[string]any)["loc"].([]any) {
			parts = append(parts, s.(string))
		}
		got = append(got, strings.Join(parts, "."))
	}
	for _, g := range got {
		if g == want {
			return
		}
	}
	t.Fatalf("detail locs %v, want one of them to be %s", got, want)
}

// containsAny reports whether a decoded JSON array holds the string s.
func containsAny(xs []any, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// credSend sends a request with the exact headers given and reports
// transport failures as an error rather than failing the test, so it is
// safe to call from any goroutine.
func (e *env) credSend(method, path string, header map[string]string, body string) (webtest.Response, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.Srv.URL+path, rd)
	if err != nil {
		return webtest.Response{}, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := e.Srv.Client().Do(req)
	if err != nil {
		return webtest.Response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return webtest.Response{Status: res.StatusCode, Header: res.Header, Body: b}, err
}

// credStrings turns a decoded JSON array into strings; null gives nil.
func credStrings(t *testing.T, v any) []string {
	t.Helper()
	if v == nil {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		t.Fatalf("want a JSON array, got %#v", v)
	}
	out := make([]string, len(arr))
	for i, x := range arr {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("want strings, got %#v", v)
		}
		out[i] = s
	}
	return out
}

// credTime formats an instant as a client sends it.
func credTime(at time.Time) string { return at.UTC().Format(time.RFC3339) }

// credParse reads a timestamp from a response.
func credParse(t *testing.T, v any) time.Time {
	t.Helper()
	s, ok := v.(string)
	if !ok {
		t.Fatalf("want a timestamp string, got %#v", v)
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// credWorkspace creates a second workspace as the administrator and returns its id.
func (e *env) credWorkspace(slug string) string {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": slug, "name": strings.ToUpper(slug)})["id"].(string)
}

// credAuthorized asserts that secret authenticates (GET /v1/me answers 200 as username).
func (e *env) credAuthorized(secret, username string) {
	e.T.Helper()
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)
	if got := me["user"].(map[string]any)["username"]; got != username {
		e.T.Fatalf("/v1/me answered as %v, want %s", got, username)
	}
}

// credRefused asserts that secret no longer authenticates: 401 unauthorized
// with a WWW-Authenticate challenge.
func (e *env) credRefused(secret string) {
	e.T.Helper()
	r := e.Do(http.MethodGet, "/v1/me", secret, nil)
	webtest.AssertProblem(e.T, r, http.StatusUnauthorized, "unauthorized")
	if got := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, "Bearer") {
		e.T.Fatalf("WWW-Authenticate %q, want a Bearer challenge", got)
	}
}

// prjItems returns the items of a listing envelope, checking it is one.
func prjItems(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	raw, ok := m["items"].([]any)
	if !ok {
		t.Fatalf("not a listing: %v", m)
	}
	if _, ok := m["page"].(map[string]any); !ok {
		t.Fatalf("listing without page: %v", m)
	}
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

// prjStrings collects one string field from every item.
func prjStrings(items []map[string]any, field string) []string {
	out := []string{}
	for _, it := range items {
		s, _ := it[field].(string)
		out = append(out, s)
	}
	return out
}

// prjNew creates a project and fails the test unless it is created.
func (e *env) prjNew(token string, body map[string]any) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", token, body)
}

// prjTask files a task in project (the inbox when empty) and returns it.
func (e *env) prjTask(token, title, project string) map[string]any {
	e.T.Helper()
	body := map[string]any{"title": title}
	if project != "" {
		body["project"] = project
	}
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", token, body)
}

// prjRef is the URL form of a task's ref.
func prjRef(task map[string]any) string { return fmt.Sprint(int64(task["ref"].(float64))) }

// tskLinks reads the links of a task as token sees them.
func (e *env) tskLinks(token string, task map[string]any) []map[string]any {
	e.T.Helper()
	res := e.OK(http.StatusOK, http.MethodGet, tskPath(task, "links"), token, nil)
	if page := res["page"].(map[string]any); page["has_more"] != false {
		e.T.Fatalf("a record's links are returned whole: %v", page)
	}
	items := res["items"].([]any)
	out := make([]map[string]any, len(items))
	for i, it := range items {
		out[i] = it.(map[string]any)
	}
	return out
}

// itemWhere finds the item whose field holds value, or fails.
func itemWhere(t *testing.T, items []map[string]any, field string, value any) map[string]any {
	t.Helper()
	for _, it := range items {
		if it[field] == value {
			return it
		}
	}
	t.Fatalf("no item with %s %v among %v", field, value, items)
	return nil
}

// tskLinkWant checks a link as seen from one end.
func tskLinkWant(t *testing.T, l map[string]any, direction, label, linkType string, other map[string]any) {
	t.Helper()
	o := l["other"].(map[string]any)
	if l["direction"] != direction || l["label"] != label || l["link_type"] != linkType || o["ref"] != other["ref"] || o["id"] != other["id"] {
		t.Fatalf("link %v, want %s %q (%s) to #%v", l, direction, label, linkType, other["ref"])
	}
	if o["entity_type"] != "task" || o["title"] != other["title"] {
		t.Fatalf("the far end names the task: %v", o)
	}
	if _, ok := o["description"]; ok {
		t.Fatalf("a link end carries no description: %v", o)
	}
}

// createWorkspace creates a workspace as the holder of token.
func (e *env) createWorkspace(token, slug, name string) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", token, map[string]any{"slug": slug, "name": name})
}

// memberRoles maps each member row's username to its role.
func memberRoles(items []any) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		m := it.(map[string]any)
		out[m["user"].(map[string]any)["username"].(string)] = m["role"].(string)
	}
	return out
}

// itoaRef is the URL form of a decoded ref.
func itoaRef(v any) string {
	f, _ := v.(float64)
	return strconv.FormatInt(int64(f), 10)
}

// allChanges reads the whole feed from the start through the cursor.
func (e *env) allChanges(query, token string) []map[string]any {
	e.T.Helper()
	var out []map[string]any
	path := "/v1/changes?since=0&limit=500" + query
	for {
		p := e.feed(path, token)
		out = append(out, p.items...)
		if !p.more {
			return out
		}
		path = "/v1/changes?since=0&limit=500" + query + "&cursor=" + url.QueryEscape(p.cursor)
	}
}

// seqs collects the seq of each change or event, in order.
func seqs(items []map[string]any) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = lstNum(it["seq"])
	}
	return out
}
