package web_test

import (
	"net/http"
	"testing"

	"tend/web/webtest"
)

// TestPurgeHTTP deletes forever over the API: a trashed task with its
// subtree and a trashed document, by a workspace administrator; and each
// refusal: a live item (not_in_trash), a member (forbidden), and a trashed
// item the caller cannot see, answered exactly as one that does not exist.
func TestPurgeHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Member("bob", "member")
	ada := e.Member("ada", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	hidden := itoaRef(e.CreateTask(e.Admin, map[string]any{"title": "hidden", "project": "sec"})["ref"])
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+hidden, e.Admin, nil)
	root := itoaRef(e.CreateTask(e.Admin, map[string]any{"title": "Old plan"})["ref"])
	sub := itoaRef(e.CreateTask(e.Admin, map[string]any{"title": "Step one", "parent": root})["ref"])
	live := itoaRef(e.CreateTask(e.Admin, map[string]any{"title": "Still on"})["ref"])
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+live+"/links", e.Admin, map[string]any{"link_type": "blocks", "target": sub})
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+root, e.Admin, nil)
	doc := itoaRef(e.docCreate(e.Admin, map[string]any{"title": "Old notes", "body": "x"})["ref"])
	e.OK(http.StatusOK, http.MethodDelete, "/v1/documents/"+doc, e.Admin, nil)

	webtest.AssertProblem(t, e.Do(http.MethodPost, "/v1/tasks/"+live+"/purge", e.Admin, nil), http.StatusConflict, "not_in_trash")
	webtest.AssertProblem(t, e.Do(http.MethodPost, "/v1/tasks/"+root+"/purge", bob, nil), http.StatusForbidden, "forbidden")
	webtest.AssertProblem(t, e.Do(http.MethodPost, "/v1/documents/"+doc+"/purge", bob, nil), http.StatusForbidden, "forbidden")
	disSame(t, "a trashed task out of sight", e.Do(http.MethodPost, "/v1/tasks/"+hidden+"/purge", ada, nil),
		e.Do(http.MethodPost, "/v1/tasks/9999/purge", ada, nil), hidden, "9999")
	disSame(t, "a document named as a task", e.Do(http.MethodPost, "/v1/tasks/"+doc+"/purge", ada, nil),
		e.Do(http.MethodPost, "/v1/tasks/9999/purge", ada, nil), doc, "9999")

	got := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+root+"/purge", ada, nil)
	if got["entity_type"] != "task" || itoaRef(got["ref"]) != root || got["title"] != "Old plan" || got["along"] != float64(1) {
		t.Fatalf("purge answered %v", got)
	}
	for _, r := range []string{root, sub} {
		webtest.AssertProblem(t, e.Do(http.MethodPost, "/v1/tasks/"+r+"/restore", e.Admin, nil), http.StatusNotFound, "not_found")
	}
	if links := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+live+"/links", e.Admin, nil)["items"].([]any); len(links) != 0 {
		t.Fatalf("the link to the purged subtask stays: %v", links)
	}
	if got := e.OK(http.StatusOK, http.MethodPost, "/v1/documents/"+doc+"/purge", e.Admin, nil); got["entity_type"] != "document" {
		t.Fatalf("document purge answered %v", got)
	}
	if left := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?deleted=true", e.Admin, nil)["items"].([]any); len(left) != 0 {
		t.Fatalf("the trash still holds documents: %v", left)
	}
}
