package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestTagSeenFromEitherSide: whether a caller sees a tag (the check before
// a PATCH or DELETE of it, and before a rename or declaration onto its
// name) is read from the tag's applications or from the items of the
// caller's projects, whichever side holds fewer (store's TagSeen). The
// answers are the same either way: alice reads few items and each tag
// here has more applications, then, in the other run, she reads more
// items than any tag has applications. A tag on items hidden from her is
// not found and its name is free to her; one on a trashed task, on a
// document, through a tag merged into it while the merge is pending, or
// on a subtask a trash job has not reached yet, in a project she reads,
// is seen. Her listing of tags says the same.
func TestTagSeenFromEitherSide(t *testing.T) {
	t.Parallel()
	for _, many := range []bool{false, true} {
		t.Run(fmt.Sprint("alice reads more items than a tag has: ", many), func(t *testing.T) {
			t.Parallel()
			tagSeenEitherWay(t, many)
		})
	}
}

func tagSeenEitherWay(t *testing.T, many bool) {
	e, path, _, entered, gate := gatedBulkEnv(t, 3)
	alice, bob := e.Person("alice"), e.Person("bob")
	e.Join("alice", "admin")
	e.Join("bob", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "secret", "visibility": "private"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", alice, map[string]any{"key": "al", "title": "al", "visibility": "private"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", bob, map[string]any{"key": "bb", "title": "bb", "visibility": "private"})
	// Ten applications of each tag on items alice cannot read; bob's "tm"
	// in his own project, the others in the admin's.
	for i := range 10 {
		e.CreateTask(e.Admin, map[string]any{"title": fmt.Sprint("hidden ", i), "project": "secret",
			"tags": []string{"hid", "gone", "papers", "pend"}})
		e.CreateTask(bob, map[string]any{"title": fmt.Sprint("bob's ", i), "project": "bb", "tags": []string{"tm"}})
	}
	mine := e.CreateTask(alice, map[string]any{"title": "mine", "project": "al", "tags": []string{"mine"}})
	gone := e.CreateTask(alice, map[string]any{"title": "gone", "project": "al", "tags": []string{"gone"}})
	e.OK(http.StatusOK, http.MethodDelete, tskPath(gone), alice, nil)
	e.docCreate(alice, map[string]any{"title": "papers", "project": "al", "tags": []string{"papers"}})
	e.CreateTask(alice, map[string]any{"title": "hm", "project": "al", "tags": []string{"hm"}})
	root := e.CreateTask(alice, map[string]any{"title": "root", "project": "al"})
	for i := range 4 {
		body := map[string]any{"title": fmt.Sprint("sub ", i), "parent": root["ref"]}
		if i == 3 {
			body["tags"] = []string{"pend"}
		}
		e.CreateTask(alice, body)
	}
	if many {
		for i := range 40 {
			e.CreateTask(alice, map[string]any{"title": fmt.Sprint("more ", i), "project": "al"})
		}
	}
	ids := map[string]string{}
	for _, token := range []string{e.Admin, alice, bob} {
		for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", token, nil)) {
			ids[tg["name"].(string)] = tg["id"].(string)
		}
	}
	// A merge and a subtree job, both left pending: the worker waits at
	// its first step until the end.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+ids["tm"], bob, map[string]any{"name": "hm"})
	e.OK(http.StatusOK, http.MethodDelete, tskPath(root), alice, nil)
	<-entered
	if n := rowCount(t, path, `SELECT count(*) FROM task_jobs`) + rowCount(t, path, `SELECT count(*) FROM tags WHERE merged_into IS NOT NULL`); n != 2 {
		t.Fatalf("%d jobs and merges pending, want 2", n)
	}

	// The premise: which side is smaller.
	al := fmt.Sprint(mine["project_id"])
	readable := rowCount(t, path, `SELECT (SELECT count(*) FROM tasks WHERE project_id = ?1) + (SELECT count(*) FROM documents WHERE project_id = ?1)`, al)
	for _, name := range []string{"hid", "gone", "papers", "pend", "tm"} {
		applied := rowCount(t, path, `SELECT (SELECT count(*) FROM task_tags WHERE tag_id IN (SELECT id FROM tags WHERE ?1 IN (id, merged_into)))
			+ (SELECT count(*) FROM document_tags WHERE tag_id IN (SELECT id FROM tags WHERE ?1 IN (id, merged_into)))`, ids[name])
		if many != (readable > applied) {
			t.Fatalf("alice reads %d items and %s has %d applications", readable, name, applied)
		}
	}

	seen := map[string]bool{"gone": true, "papers": true, "tm": true, "pend": true, "mine": true}
	var listed []string
	for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", alice, nil)) {
		listed = append(listed, tg["name"].(string))
	}
	slices.Sort(listed)
	if want := []string{"gone", "hm", "mine", "papers", "pend"}; !slices.Equal(listed, want) {
		t.Fatalf("alice lists %v, want %v", listed, want)
	}
	for _, name := range []string{"hid", "gone", "papers", "tm", "pend"} {
		p := "/v1/tags/" + ids[name]
		if !seen[name] {
			e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, p, alice, map[string]any{"description": "seen"})
			e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, p, alice, nil)
			continue
		}
		e.OK(http.StatusOK, http.MethodPatch, p, alice, map[string]any{"description": "seen"})
		visible := name
		if name == "tm" {
			visible = "hm"
		}
		e.Problem(http.StatusConflict, "conflict", http.MethodPatch, "/v1/tags/"+ids["mine"], alice, map[string]any{"name": visible})
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/tags", alice, map[string]any{"name": visible})
	}
	// The one name alice cannot see is free to her: her rename onto it
	// merges the hidden tag into hers.
	got := e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+ids["mine"], alice, map[string]any{"name": "hid"})
	if got["id"] != ids["mine"] || got["name"] != "hid" {
		t.Fatalf("the rename onto a hidden name answers %v", got)
	}
	killWorker(t, e, gate)
}
