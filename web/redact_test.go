package web_test

import (
	"net/http"
	"testing"
)

// TestEventsNameNoUnseenProject: a task that leaves a private project, and
// a project that leaves a private parent, keep their history, but what it
// says about the private project is blank for a reader who cannot see it,
// in the item's history, the change feed and the journal alike.
func TestEventsNameNoUnseenProject(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rita := e.Member("rita", "member")
	hush := e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hush", "title": "Hush", "visibility": "private"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "nested", "title": "Nested", "parent": "hush"})
	ref := lstItoa(lstNum(e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Leaves hush", "project": "hush"})["ref"]))
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref+"/move", e.Admin, map[string]any{"project": "web"})
	e.OK(http.StatusOK, http.MethodPost, "/v1/projects/nested/move", e.Admin, map[string]any{"parent": nil})

	moved := func(items []map[string]any, action string) map[string]any {
		t.Helper()
		for _, it := range items {
			if it["action"] == action {
				return it["changes"].(map[string]any)
			}
		}
		t.Fatalf("no %s event in %v", action, items)
		return nil
	}
	check := func(who string, ch map[string]any, field string, hidden any) {
		t.Helper()
		got := ch[field].(map[string]any)
		if got["from"] != hidden {
			t.Fatalf("%s: %s.from is %v, want %v", who, field, got["from"], hidden)
		}
	}
	check("rita, task history", moved(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref+"/events", rita, nil)), "task.moved"), "project", nil)
	check("admin, task history", moved(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref+"/events", e.Admin, nil)), "task.moved"), "project", "hush")
	check("rita, feed", moved(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/changes?limit=100", rita, nil)), "task.moved"), "project", nil)
	check("rita, project history", moved(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/projects/nested/events", rita, nil)), "project.moved"), "parent", nil)
	check("admin, project history", moved(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/projects/nested/events", e.Admin, nil)), "project.moved"), "parent", hush["id"])

	seen := false
	for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/journal?limit=100", rita, nil)) {
		seen = seen || it["action"] == "task.moved"
		changed, _ := it["changed"].([]any)
		for _, c := range changed {
			row := c.(map[string]any)
			if row["before"] == "hush" || row["after"] == "hush" || row["before"] == hush["id"] {
				t.Fatalf("the journal names the private project to rita: %v", it)
			}
		}
	}
	if !seen {
		t.Fatal("rita's journal lacks the move of a task she can see")
	}
}
