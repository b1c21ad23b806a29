package web_test

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"tend/web/webtest"
)

// TestTransport: a request served in process (Server.Transport, what the
// terminal on the file and MCP's service_call_api go through) answers the
// same status and the same bytes as over HTTP, refusals included, as the
// account it is given; the Service records the work as done through that
// account's interface; and only the JSON API's routes take it.
func TestTransport(t *testing.T) {
	t.Parallel()
	e := webtest.New(t)
	bob := e.Member("bob", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	open := e.TaskRef(e.Admin, map[string]any{"title": "Open task", "tags": []string{"x"}})
	secret := e.TaskRef(e.Admin, map[string]any{"title": "Secret task", "project": "sec"})
	tokens := map[string]string{"admin": e.Admin, "bob": bob}
	huge := `{"title": "` + strings.Repeat("x", e.Svc.Limits().MaxBodyBytes) + `"}`

	inProcess := func(as, method, path, body string) webtest.Response {
		t.Helper()
		sess, err := e.Svc.LocalActor(t.Context(), as)
		if err != nil {
			t.Fatal(err)
		}
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequestWithContext(t.Context(), method, path, rd)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := e.Handler().Transport(sess.Actor).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body) // the whole answer, already in memory
		return webtest.Response{Status: res.StatusCode, Header: res.Header, Body: b}
	}

	for _, c := range []struct {
		name, as, method, path, body string
		status                       int
		code                         string // the problem's, "" for an answer
	}{
		{"a task", "admin", http.MethodGet, "/v1/tasks/" + strconv.Itoa(open), "", http.StatusOK, ""},
		{"a listing", "admin", http.MethodGet, "/v1/tasks?format=compact&tag=x", "", http.StatusOK, ""},
		{"no such task", "admin", http.MethodGet, "/v1/tasks/99", "", http.StatusNotFound, "not_found"},
		{"no such route", "admin", http.MethodGet, "/v1/nope", "", http.StatusNotFound, "not_found"},
		{"a method the route does not take", "admin", http.MethodPut, "/v1/tasks", "", http.StatusMethodNotAllowed, "method_not_allowed"},
		{"a name the named route does not take", "admin", http.MethodPost, "/v1/tasks/" + strconv.Itoa(open), "{}", http.StatusMethodNotAllowed, "method_not_allowed"},
		{"U+0000", "admin", http.MethodPost, "/v1/tasks", `{"title": "a\u0000b"}`, http.StatusUnprocessableEntity, "validation"},
		{"a body too large", "admin", http.MethodPost, "/v1/tasks", huge, http.StatusRequestEntityTooLarge, "too_large"},
		{"a bad query", "admin", http.MethodGet, "/v1/tasks?status=nope", "", http.StatusUnprocessableEntity, "validation"},
		{"a task bob may not see", "bob", http.MethodGet, "/v1/tasks/" + strconv.Itoa(secret), "", http.StatusNotFound, "not_found"},
		{"a task bob may not see, written to", "bob", http.MethodPost, "/v1/tasks/" + strconv.Itoa(secret) + "/comments", `{"body": "hi"}`,
			http.StatusNotFound, "not_found"},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		over := e.Do(c.method, c.path, tokens[c.as], body)
		in := inProcess(c.as, c.method, c.path, c.body)
		if c.code != "" {
			webtest.AssertProblem(t, over, c.status, c.code)
			webtest.AssertProblem(t, in, c.status, c.code)
		}
		if over.Status != c.status || in.Status != over.Status || !bytes.Equal(in.Body, over.Body) {
			t.Errorf("%s: over HTTP %d, in process %d (want %d)\n%s\n%s", c.name, over.Status, in.Status, c.status, over.Body, in.Body)
		}
	}

	// A write in process is recorded as done through the account's
	// interface (the terminal's on the file).
	if r := inProcess("bob", http.MethodPost, "/v1/tasks/"+strconv.Itoa(open)+"/claim", ""); r.Status != http.StatusOK {
		t.Fatalf("a claim in process: %d %s", r.Status, r.Body)
	}
	events := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+strconv.Itoa(open)+"/events", e.Admin, nil)["items"].([]any)
	claimed := false
	for _, ev := range events {
		if ev := ev.(map[string]any); ev["action"] == "task.claimed" {
			claimed = ev["actor_interface"] == "cli"
		}
	}
	if !claimed {
		t.Errorf("no claim done through cli among the task's events: %v", events)
	}

	// Only the JSON API's routes take a request in process: the export,
	// the probes, MCP and the pages answer as no route does.
	for _, path := range []string{"/v1/export", "/healthz", "/"} {
		webtest.AssertProblem(t, inProcess("admin", http.MethodGet, path, ""), http.StatusNotFound, "not_found")
	}
	webtest.AssertProblem(t, inProcess("admin", http.MethodPost, "/mcp", "{}"), http.StatusNotFound, "not_found")
}
