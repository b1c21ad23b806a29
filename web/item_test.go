package web_test

import (
	"fmt"
	"net/http"
	"testing"

	"tend/web/webtest"
)

// TestItemRoutes: the routes that address a task or a document by its ref
// alone answer for either kind, and what a caller may not see answers
// exactly as what does not exist.
func TestItemRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Fix the login"})                         // #1
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Deploy", "parent": 1})                   // #2
	e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Login decision", "type": "decision", // #3
		"body": "Sessions live in SQLite."})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Hidden login work", "project": "sec"}) // #4

	t.Run("a comment and a link addressed by ref, on either kind", func(t *testing.T) {
		c := e.OK(http.StatusCreated, http.MethodPost, "/v1/items/3/comments", e.Admin, map[string]any{"body": "Agreed."})
		if c["entity_type"] != "document" {
			t.Errorf("the comment on #3 is on a %v", c["entity_type"])
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/items/1/comments", e.Admin, map[string]any{"body": "Started."})
		l := e.OK(http.StatusCreated, http.MethodPost, "/v1/items/3/links", e.Admin, map[string]any{"link_type": "documents", "target": 1})
		if other := l["other"].(map[string]any); other["ref"] != float64(1) || l["label"] != "documents" {
			t.Errorf("the link from #3: %v", l)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/items/1/links", e.Admin, map[string]any{"target": 2})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/items/99/comments", e.Admin, map[string]any{"body": "x"})
	})
	t.Run("show: the task with its links, governing documents, subtasks and comments", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodGet, "/v1/items/1", e.Admin, nil)
		task := got["task"].(map[string]any)
		if got["kind"] != "task" || task["ref"] != float64(1) || got["document"] != nil {
			t.Fatalf("GET /v1/items/1: %v", got)
		}
		if links := got["links"].([]any); len(links) != 1 {
			t.Errorf("links: %v", links)
		}
		if gov := got["governing"].([]any); len(gov) != 1 || gov[0].(map[string]any)["link_type"] != "documents" {
			t.Errorf("governing: %v", gov)
		}
		if subs := got["subtasks"].([]any); len(subs) != 1 || subs[0].(map[string]any)["ref"] != float64(2) {
			t.Errorf("subtasks: %v", subs)
		}
		if got["comments_total"] != float64(1) || got["verifications_total"] != float64(0) {
			t.Errorf("comments_total %v, verifications_total %v", got["comments_total"], got["verifications_total"])
		}
		if same := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/1", e.Admin, nil); same["version"] != task["version"] || same["id"] != task["id"] {
			t.Errorf("the task shown is not the task: %v", task)
		}
		doc := e.OK(http.StatusOK, http.MethodGet, "/v1/items/3", e.Admin, nil)
		if doc["kind"] != "document" || doc["document"].(map[string]any)["body"] != "Sessions live in SQLite." || doc["task"] != nil {
			t.Errorf("GET /v1/items/3: %v", doc)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/items/1?history=maybe", e.Admin, nil)
	})
	t.Run("search: tasks and documents, best first", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodGet, "/v1/search?q=login", e.Admin, nil)
		tasks, docs := got["tasks"].([]any), got["documents"].([]any)
		if len(tasks) != 2 || len(docs) != 1 || got["tasks_more"] != false || got["documents_more"] != false {
			t.Fatalf("GET /v1/search?q=login: %d tasks, %d documents: %v", len(tasks), len(docs), got)
		}
		one := e.OK(http.StatusOK, http.MethodGet, "/v1/search?q=login&limit=1", e.Admin, nil)
		if len(one["tasks"].([]any)) != 1 || one["tasks_more"] != true {
			t.Errorf("limit=1: %v", one)
		}
		if p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/search", e.Admin, nil); p["detail"].([]any)[0].(map[string]any)["loc"].([]any)[1] != "q" {
			t.Errorf("no q: %v", p)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/search?q=x&limit=0", e.Admin, nil)
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/search?q=login", pat, nil); len(got["tasks"].([]any)) != 1 {
			t.Errorf("pat, who may not see #4, finds %v", got["tasks"])
		}
	})
	t.Run("what pat may not see answers as what does not exist", func(t *testing.T) {
		for _, c := range []struct {
			method, path string
			body         any
		}{{http.MethodGet, "/v1/items/%s", nil}, {http.MethodPost, "/v1/items/%s/comments", map[string]any{"body": "x"}},
			{http.MethodPost, "/v1/items/%s/links", map[string]any{"link_type": "relates_to", "target": 1}}} {
			unseen := e.Do(c.method, fmt.Sprintf(c.path, "4"), pat, c.body)
			missing := e.Do(c.method, fmt.Sprintf(c.path, "99"), pat, c.body)
			webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
			disSame(t, c.method+" "+c.path, unseen, missing, "", "")
		}
	})
}
