package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// previewEnv is a test instance on Wednesday 2026-11-25 at 14:00 in
// Berlin, the administrator's zone.
func previewEnv(t *testing.T) *env {
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC))
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"timezone": "Europe/Berlin"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	return e
}

// TestTaskPreviewRoute: POST /v1/tasks/preview answers what POST /v1/tasks
// would make of the same body, in the shape testdata/task_preview.json
// pins, and creates nothing.
func TestTaskPreviewRoute(t *testing.T) {
	t.Parallel()
	e := previewEnv(t)
	count := func() any {
		return e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include_total=true", e.Admin, nil)["page"].(map[string]any)["total"]
	}
	before := count()
	r := e.Do(http.MethodPost, "/v1/tasks/preview", e.Admin, map[string]any{"text": "Call the bank tomorrow 9am !4 #finance +home every month"})
	if r.Status != http.StatusOK {
		t.Fatalf("status %d\n%s", r.Status, r.Body)
	}
	goldenJSON(t, "task_preview.json", r.Body)
	if after := count(); after != before {
		t.Fatalf("the preview created tasks: %v before, %v after", before, after)
	}
	tags := e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)
	if strings.Contains(string(mustJSON(t, tags)), "finance") {
		t.Errorf("the preview created the tag: %v", tags)
	}

	for _, c := range []struct {
		line                         string
		title, due, repeat, firstTwo string
	}{
		{"Call the bank tomorrow 9am !4 #finance every month", "Call the bank", "2026-11-26T08:00:00Z", "every month at 9:00",
			"2026-11-26T08:00:00Z 2026-12-26T08:00:00Z"},
		{"Weekly review every friday at 16:00", "Weekly review", "2026-11-27T15:00:00Z", "every Friday at 16:00",
			"2026-11-27T15:00:00Z 2026-12-04T15:00:00Z"},
		{"Dentist next tuesday at 3pm", "Dentist", "2026-12-01T14:00:00Z", "", ""},
	} {
		p := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/preview", e.Admin, map[string]any{"text": c.line})
		created := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"text": c.line})
		if p["title"] != c.title || p["due_at"] != c.due || p["title"] != created["title"] || p["due_at"] != created["due_at"] ||
			p["due_is_all_day"] != created["due_is_all_day"] {
			t.Errorf("%q: preview %v\ncreated %v", c.line, p, created)
		}
		desc := ""
		if rep, ok := p["repeat"].(map[string]any); ok {
			desc = rep["description"].(string)
			occ := rep["occurrences"].([]any)
			if got := occ[0].(string) + " " + occ[1].(string); got != c.firstTwo {
				t.Errorf("%q: occurrences %v, want %s first", c.line, occ, c.firstTwo)
			}
		}
		if want, _ := created["recurrence_description"].(string); desc != c.repeat || desc != want {
			t.Errorf("%q: repeat %q, want %q (the created task's %q)", c.line, desc, c.repeat, want)
		}
	}
}

// TestTaskPreviewStructuredFields: the fields sent beside the line are read
// as the create reads them (the same request record), and win over the
// line's markers.
func TestTaskPreviewStructuredFields(t *testing.T) {
	t.Parallel()
	e := previewEnv(t)
	parent := e.CreateTask(e.Admin, map[string]any{"title": "Move flat", "project": "home"})
	body := map[string]any{"text": "Pack the books tomorrow !4 #boxes ~1h", "description": "the shelf in the hall",
		"parent": parent["ref"], "due_at": "2026-12-02T16:00:00Z", "starts_at": "2026-11-30T00:00:00Z", "starts_is_all_day": true,
		"estimate_minutes": 45, "importance": 2, "urgency": 3, "tags": []string{"flat"}, "timezone": "Europe/Lisbon"}
	p := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/preview", e.Admin, body)
	created := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, body)
	want := map[string]any{"title": "Pack the books", "description": "the shelf in the hall", "project": "home",
		"parent_ref": parent["ref"], "due_at": "2026-12-02T16:00:00Z", "due_is_all_day": false, "starts_at": "2026-11-30T00:00:00Z",
		"starts_is_all_day": true, "estimate_minutes": float64(45), "importance": float64(2), "urgency": float64(3), "timezone": "Europe/Lisbon"}
	for k, v := range want {
		if p[k] != v || created[k] != v {
			t.Errorf("%s: preview %v, created %v, want %v", k, p[k], created[k], v)
		}
	}
	if got := string(mustJSON(t, p["tags"])); got != `["flat"]` || got != string(mustJSON(t, created["tags"])) {
		t.Errorf("tags: preview %s, created %v", got, created["tags"])
	}
}

// TestTaskPreviewRefusals: the preview refuses what the create refuses,
// with the same status, code and locations.
func TestTaskPreviewRefusals(t *testing.T) {
	t.Parallel()
	e := previewEnv(t)
	viewer := e.Member("vera", "viewer")
	for _, c := range []struct {
		name  string
		token string
		query string
		body  any
		code  string
	}{
		{"markers only", e.Admin, "", map[string]any{"text": "tomorrow #x !4"}, "validation"},
		{"no such project", e.Admin, "", map[string]any{"text": "Ship it +nope"}, "validation"},
		{"a repeat ending before it starts", e.Admin, "", map[string]any{"text": "Gym every day until dec 1 on dec 5"}, "validation"},
		{"a repeat field that does not read", e.Admin, "", map[string]any{"text": "Gym", "repeat": "every fortnightly moon"}, "recurrence"},
		{"an unknown field", e.Admin, "", map[string]any{"text": "Gym", "colour": "red"}, "validation"},
		{"not JSON", e.Admin, "", "{", "validation"},
		{"no workspace of that name", e.Admin, "?workspace_id=nowhere", map[string]any{"text": "Gym"}, "not_found"},
		{"no credential", "", "", map[string]any{"text": "Gym"}, "unauthorized"},
		{"a viewer", viewer, "", map[string]any{"text": "Gym tomorrow"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := e.Do(http.MethodPost, "/v1/tasks"+c.query, c.token, c.body)
			got := e.Do(http.MethodPost, "/v1/tasks/preview"+c.query, c.token, c.body)
			if want.Status < 400 {
				t.Fatalf("the create was not refused: %d", want.Status)
			}
			wp, gp := want.JSON(t), got.JSON(t)
			if c.code != "" && wp["code"] != c.code {
				t.Fatalf("create refused with %v, the test expects %s", wp["code"], c.code)
			}
			webtest.AssertProblem(t, got, want.Status, wp["code"].(string))
			delete(wp, "instance")
			delete(gp, "instance")
			if string(mustJSON(t, wp)) != string(mustJSON(t, gp)) {
				t.Errorf("preview refused\n%s\ncreate refused\n%s", got.Body, want.Body)
			}
		})
	}
}

// TestTaskPreviewOtherNames: POST on /v1/tasks/{id_or_ref} is answered
// as before the preview shared its route: 405 with Allow, credential or
// not.
func TestTaskPreviewOtherNames(t *testing.T) {
	t.Parallel()
	e := previewEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Existing"})
	for _, token := range []string{e.Admin, ""} {
		r := e.Do(http.MethodPost, "/v1/tasks/"+jsonNum(task["ref"]), token, map[string]any{"text": "x"})
		webtest.AssertProblem(t, r, http.StatusMethodNotAllowed, "method_not_allowed")
		if allow := r.Header.Get("Allow"); allow != "DELETE, GET, OPTIONS, PATCH" {
			t.Errorf("Allow %q", allow)
		}
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/preview", e.Admin, nil) // no task has that ref
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
