package dav_test

import (
	"net/http"
	"testing"
)

// tasksIn answers the API's tasks of a project, not of its subprojects,
// by title (deleted: its trash).
func (f *fix) tasksIn(token, project string, deleted bool) map[string]map[string]any {
	f.t.Helper()
	q := "/v1/tasks?project=" + project + "&include_completed=true"
	if deleted {
		q = "/v1/tasks?deleted=true&project=" + project
	}
	m := map[string]map[string]any{}
	for _, x := range f.api(http.MethodGet, q, token, nil, http.StatusOK)["items"].([]any) {
		if task := x.(map[string]any); task["project"] == project {
			m[task["title"].(string)] = task
		}
	}
	return m
}

// TestDavBareComma: a SUMMARY or DESCRIPTION with a comma left unescaped,
// as a file of a vdir edited by hand has it, keeps all of its text.
func TestDavBareComma(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.want(f.dav(http.MethodPut, "/dav/calendars/default.home/c.ics", f.user, f.admin,
		vtodo("c", `SUMMARY:Eggs, milk\, bread`, "DESCRIPTION:two, three")), http.StatusCreated)
	got := f.tasksIn(f.admin, "home", false)["Eggs, milk, bread"]
	if got == nil || got["description"] != "two, three" {
		t.Fatalf("the task after the PUT: %v", f.tasksIn(f.admin, "home", false))
	}
}
