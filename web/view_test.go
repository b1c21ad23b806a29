package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"

	"tend/app"
)

// viewFix is a workspace with a private project of the administrator's:
// two open tasks in it, one in the inbox, and ann, a member who cannot see
// the private project.
func viewFix(t *testing.T) (e *env, ann string) {
	e = newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	ann = e.Member("ann", "member")
	for _, title := range []string{"Plan the launch", "Brief the press"} {
		e.CreateTask(e.Admin, map[string]any{"title": title, "project": "secret", "tags": []string{"launch"}})
	}
	e.CreateTask(ann, map[string]any{"title": "Book the hall", "tags": []string{"launch"}})
	return e, ann
}

func TestViewCreateListAndTasks(t *testing.T) {
	t.Parallel()
	e, ann := viewFix(t)
	v := e.OK(http.StatusCreated, http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "Launch", "query": "tag=launch&order=-ref", "shared": true})
	if v["query"] != "order=-ref&tag=launch" || v["owner"] != "admin" || v["version"] != float64(1) {
		t.Fatalf("created: %v", v)
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/views", ann, map[string]any{"name": "Mine", "query": "assignee=me"})
	counts := func(token string) map[string]any {
		out := map[string]any{}
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/views", token, nil)) {
			out[it["name"].(string)] = it["count"]
		}
		return out
	}
	// The disclosure rule: ann's count of the shared view leaves out the
	// tasks of the project she cannot see; the admin never sees ann's
	// private view.
	if got := counts(e.Admin); len(got) != 1 || got["Launch"] != float64(3) {
		t.Errorf("admin's views: %v", got)
	}
	if got := counts(ann); len(got) != 2 || got["Launch"] != float64(1) || got["Mine"] != float64(0) {
		t.Errorf("ann's views: %v", got)
	}
	titles := func(path, token string) []string {
		var out []string
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, path, token, nil)) {
			out = append(out, it["title"].(string))
		}
		return out
	}
	if got := titles("/v1/tasks?view=Launch", e.Admin); len(got) != 3 || got[0] != "Book the hall" {
		t.Errorf("admin through Launch: %v", got)
	}
	if got := titles("/v1/tasks?view=launch&limit=1", ann); len(got) != 1 || got[0] != "Book the hall" {
		t.Errorf("ann through launch: %v", got)
	}
	if got := titles("/v1/tasks?view="+v["id"].(string), ann); len(got) != 1 {
		t.Errorf("ann through the id: %v", got)
	}
	got := e.OK(http.StatusOK, http.MethodPatch, "/v1/views/Launch", e.Admin, map[string]any{"query": "tag=launch&project=secret", "expected_version": 1})
	if got["version"] != float64(2) || got["query"] != "project=secret&tag=launch" || got["count"] != nil {
		t.Errorf("updated: %v", got)
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/views/Launch", e.Admin, nil); got["count"] != float64(2) {
		t.Errorf("admin's count after the change: %v", got["count"])
	}
	// Through the view ann sees, now narrowed to a project she cannot see:
	// no count, and the listing answers as for that project.
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/views/Launch", ann, nil); got["count"] != nil {
		t.Errorf("ann's count of a view over a hidden project: %v", got["count"])
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?view=Launch", ann, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/views/"+v["id"].(string), e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/views/Launch", e.Admin, nil)
}

func TestViewRefusals(t *testing.T) {
	t.Parallel()
	e, ann := viewFix(t)
	mine := e.OK(http.StatusCreated, http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "Private", "query": "tag=launch"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "Shared", "query": "tag=launch", "shared": true})
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"empty name", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": " ", "query": ""}, 422, "validation"},
		{"unknown status", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "x", "query": "status=nope"}, 422, "validation"},
		{"unknown order", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "x", "query": "order=colour"}, 422, "validation"},
		{"paging", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "x", "query": "limit=5"}, 422, "validation"},
		{"not a parameter", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "x", "query": "format=compact"}, 422, "validation"},
		{"bad query string", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "x", "query": "a=%zz"}, 422, "validation"},
		{"a hidden project", http.MethodPost, "/v1/views", ann, map[string]any{"name": "x", "query": "project=secret"}, 422, "validation"},
		{"own name twice", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "private", "query": ""}, 409, "conflict"},
		{"a shared name", http.MethodPost, "/v1/views", ann, map[string]any{"name": "Shared", "query": "", "shared": true}, 409, "conflict"},
		{"another's private view", http.MethodGet, "/v1/views/" + mine["id"].(string), ann, nil, 404, "not_found"},
		{"another's private view by name", http.MethodGet, "/v1/tasks?view=Private", ann, nil, 404, "not_found"},
		{"changing another's private view", http.MethodPatch, "/v1/views/" + mine["id"].(string), ann, map[string]any{"name": "y"}, 404, "not_found"},
		{"changing another's shared view", http.MethodPatch, "/v1/views/Shared", ann, map[string]any{"name": "y"}, 403, "forbidden"},
		{"removing another's shared view", http.MethodDelete, "/v1/views/Shared", ann, nil, 403, "forbidden"},
		{"stale version", http.MethodPatch, "/v1/views/Private", e.Admin, map[string]any{"name": "y", "expected_version": 7}, 409, "version_conflict"},
		{"view with filters", http.MethodGet, "/v1/tasks?view=Shared&tag=x", e.Admin, nil, 422, "validation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.sub(t).Problem(c.status, c.code, c.method, c.path, c.token, c.body)
		})
	}
}

func TestViewLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 50 {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "v" + itoaRef(float64(i)), "query": "ready=true"})
	}
	e.Problem(http.StatusUnprocessableEntity, "over_limit", http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "one more", "query": ""})
}

// TestViewCountCap: a view's count is exact up to 100, in the API and in
// the top bar; past it the API answers 100 with count_capped and the bar
// shows 100+.
func TestViewCountCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	admin, err := e.Svc.Authenticate(ctx, e.Admin, "http")
	if err != nil {
		t.Fatal(err)
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/views", e.Admin, map[string]any{"name": "Many", "query": "tag=many"})
	session := e.SignIn(e.MintLink(e.Admin, nil)).Value
	made := 0
	upTo := func(n int) {
		for ; made < n; made++ {
			if _, err := e.Svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: fmt.Sprintf("Task %d", made), Tags: []string{"many"}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []struct {
		tasks  int
		count  float64
		capped bool
		shown  string
	}{{99, 99, false, "99"}, {100, 100, false, "100"}, {101, 100, true, "100+"}} {
		upTo(c.tasks)
		v := e.OK(http.StatusOK, http.MethodGet, "/v1/views/Many", e.Admin, nil)
		if v["count"] != c.count || v["count_capped"] != c.capped {
			t.Errorf("%d tasks: the API says count %v, count_capped %v", c.tasks, v["count"], v["count_capped"])
		}
		page := e.Browser(http.MethodGet, "/tasks", session, "", nil)
		if want := `Many <span class="count">` + c.shown + `</span>`; !strings.Contains(html.UnescapeString(string(page.Body)), want) {
			t.Errorf("%d tasks: the top bar lacks %s", c.tasks, want)
		}
	}
}
