package web_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// bulkEnv is an instance on a database file of the test's own, so that the
// test can stop its server as a crash would and start another on the same
// file. Bulk work runs stepRows rows a step (and takes a subtree of more
// than stepRows descendants to the worker), and each step first calls
// before (nil: run on).
func bulkEnv(t *testing.T, path, admin string, stepRows int, before func() error) *env {
	t.Helper()
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	// The read budget of webtest's servers: no test fails on a timing.
	svc := app.New(db, app.Options{Version: "test", BulkStepRows: stepRows, SubtreeStepRows: stepRows, BeforeWorkStep: before,
		Limits: app.Limits{ReadBudgetMillis: int((10 * time.Minute).Milliseconds())}})
	return &env{&webtest.Env{T: t, DB: db, Svc: svc, Srv: webtest.Serve(t, svc), Admin: admin}}
}

// rowCount counts rows in the database file, below every reader: what the
// worker has left to remove.
func rowCount(t *testing.T, path, query string, args ...any) int {
	t.Helper()
	raw, err := sql.Open("sqlite", path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestTagDeleteInSteps: deleting a tag on many items answers at once with
// the tag gone for every reader; its applications are removed afterwards,
// a few rows a transaction, and between two steps no listing, filter,
// item, feed or export shows any of them. A server stopped in the middle
// (here: its worker stopped as a crash would stop it, and the database
// reopened by a new server) finishes the work at its start.
func TestTagDeleteInSteps(t *testing.T) {
	t.Parallel()
	e, path, admin, entered, gate := gatedBulkEnv(t, 3)

	s := seedBulkTagged(e)
	tasks, doc, def, side, bulkID := s.tasks, s.doc, s.def, s.side, s.bulkID
	applied := func(t *testing.T) int {
		return rowCount(t, path, `SELECT (SELECT count(*) FROM task_tags WHERE tag_id = ?1) + (SELECT count(*) FROM document_tags WHERE tag_id = ?1)
			+ (SELECT count(*) FROM tags WHERE id = ?1)`, bulkID)
	}
	deleted := func(e *env) []string { return toldIn(e, path, bulkID, "tag.deleted", def, side) }

	// gone is what every reader must tell from the moment the delete answers.
	gone := func(t *testing.T) {
		t.Helper()
		e := e.sub(t)
		for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)) {
			if tg["id"] == bulkID {
				t.Fatalf("GET /v1/tags lists the deleted tag: %v", tg)
			}
		}
		for _, task := range tasks {
			if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"keep"}) {
				t.Fatalf("task %v carries %v, want [keep]", task["ref"], got)
			}
		}
		if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)["tags"]); len(got) != 0 {
			t.Fatalf("the document carries %v", got)
		}
		// Only a task given the new tag of that name, if any, carries it.
		for _, it := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=bulk", e.Admin, nil)) {
			if it["title"] != "fresh" {
				t.Fatalf("tag=bulk lists %v", it["title"])
			}
		}
		if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/documents?tag=bulk", e.Admin, nil)); len(items) != 0 {
			t.Fatalf("documents tag=bulk lists %d", len(items))
		}
		// A task with no tags but the deleted one counts as without tags.
		if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag.is=unset", e.Admin, nil)); len(items) != 1 {
			t.Fatalf("tag.is=unset lists %d tasks, want the one whose only tag was deleted", len(items))
		}
		// The history keeps the tag's events; no record carries the tag.
		for _, line := range bytes.Split(e.export(e.Admin, ""), []byte("\n")) {
			if bytes.Contains(line, []byte(bulkID)) && !bytes.HasPrefix(line, []byte(`{"kind":"event"`)) {
				t.Fatalf("the export carries the deleted tag: %s", line)
			}
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tags/"+bulkID, e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tags/"+bulkID, e.Admin, map[string]any{"name": "again"})
	}

	// Only the first task loses its other tag, so that one task is left
	// with the deleted tag alone.
	e.OK(http.StatusOK, http.MethodPatch, tskPath(tasks[0]), e.Admin, map[string]any{"tags": []string{"bulk"}})
	tasks = tasks[1:]
	if n := applied(t); n != 9 {
		t.Fatalf("%d rows to remove before the delete, want 9 (7 tasks, 1 document, the tag)", n)
	}
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+bulkID, e.Admin, nil)
	<-entered
	t.Run("at once", func(t *testing.T) {
		if n := applied(t); n != 9 {
			t.Fatalf("%d rows left before the first step, want all 9", n)
		}
		gone(t)
		if got := deleted(e.sub(t)); len(got) != 0 {
			t.Fatalf("the feed tells of the deletion before the worker found the tag's items: %v", got)
		}
	})
	// The name is free at once: a new tag of that name is another tag.
	fresh := e.CreateTask(e.Admin, map[string]any{"title": "fresh", "tags": []string{"bulk"}})

	gate <- nil
	<-entered
	t.Run("between steps", func(t *testing.T) {
		if n := applied(t); n != 6 {
			t.Fatalf("%d rows left after one step of 3, want 6", n)
		}
		gone(t)
		if got := deleted(e.sub(t)); !slices.Equal(got, []string{def}) {
			t.Fatalf("after the first step, the feed tells of the deletion in %v, want the default project %s only", got, def)
		}
	})
	killWorker(t, e, gate)

	// The next start finishes the work.
	e = bulkEnv(t, path, admin, 3, nil)
	if n := applied(t); n != 6 {
		t.Fatalf("%d rows left at the next start, want 6", n)
	}
	gone(t)
	finishWork(t, e)
	if n := applied(t); n != 0 {
		t.Fatalf("%d rows left after the work, want none", n)
	}
	if got := deleted(e); !slices.Equal(got, []string{def, side}) {
		t.Fatalf("the feed tells of the deletion in %v, want once in each project, %s and %s", got, def, side)
	}
	gone(t)
	if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(fresh), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"bulk"}) {
		t.Fatalf("the new tag of the same name lost its task: %v", got)
	}
	if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=bulk", e.Admin, nil)); len(items) != 1 {
		t.Fatalf("tag=bulk lists %d tasks, want the new tag's one", len(items))
	}
}

// toldIn lists which of projects the feed has told of the tag's action in,
// and fails if it told of it more than once in any: the feed's records do
// not carry the project, so the events are counted in the feed and their
// projects read in the file.
func toldIn(e *env, path, tagID, action string, projects ...string) []string {
	e.T.Helper()
	n := 0
	for _, ev := range e.allChanges("", e.Admin) {
		if ev["entity_id"] == tagID && ev["action"] == action {
			n++
		}
	}
	var out []string
	for _, p := range projects {
		if rowCount(e.T, path, `SELECT count(*) FROM events WHERE entity_id = ? AND action = ? AND project_id = ?`, tagID, action, p) == 1 {
			out = append(out, p)
		}
	}
	if len(out) != n {
		e.T.Fatalf("the feed tells of %d %s, the file holds one in each of %v", n, action, out)
	}
	return out
}

// bulkTagged is a bulk test's data: seven tasks carrying the tag "bulk"
// (and "keep"), the last in a project of its own (side) that the worker
// comes to in its last step over tasks, and a document carrying "bulk";
// def is the default project.
type bulkTagged struct {
	tasks             []map[string]any
	doc               map[string]any
	def, side, bulkID string
}

func seedBulkTagged(e *env) bulkTagged {
	var s bulkTagged
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "side", "title": "Side"})
	for _, title := range []string{"one", "two", "three", "four", "five", "six", "seven"} {
		body := map[string]any{"title": title, "tags": []string{"bulk", "keep"}}
		if title == "seven" {
			body["project"] = "side"
		}
		s.tasks = append(s.tasks, e.CreateTask(e.Admin, body))
	}
	s.doc = e.docCreate(e.Admin, map[string]any{"title": "memo", "tags": []string{"bulk"}})
	s.def, s.side = fmt.Sprint(s.tasks[0]["project_id"]), fmt.Sprint(s.tasks[6]["project_id"])
	for _, tg := range prjItems(e.T, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)) {
		if tg["name"] == "bulk" {
			s.bulkID = tg["id"].(string)
		}
	}
	return s
}

// gatedBulkEnv is a bulkEnv on a file of the test's own whose worker, before
// each step, signals entered and then waits for gate: the error it gets
// there (nil: step) is what the step returns.
func gatedBulkEnv(t *testing.T, stepRows int) (e *env, path, admin string, entered chan struct{}, gate chan error) {
	t.Helper()
	path, admin = bootstrappedFile(t)
	entered, gate = make(chan struct{}), make(chan error)
	e = bulkEnv(t, path, admin, stepRows, func() error {
		entered <- struct{}{}
		return <-gate
	})
	return e, path, admin, entered, gate
}

// bootstrappedFile writes a first start at a database file of the test's
// own and answers its path and the administrator's token.
func bootstrappedFile(t *testing.T) (path, admin string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "tend.db")
	return path, webtest.CopyBootstrapped(t, path)
}

// finishWork lets e's worker, held so far, run to its end.
func finishWork(t *testing.T, e *env) {
	t.Helper()
	e.Svc.ResumeWork()
	if err := e.Svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
}

// killWorker stops e's worker in the step it is held in at gate, as a
// crash would, and then its server (srvClose): the test starts the next on
// the same file.
func killWorker(t *testing.T, e *env, gate chan<- error) {
	t.Helper()
	gate <- errors.New("killed")
	if err := e.Svc.SettleWork(); err == nil || err.Error() != "killed" {
		t.Fatalf("the stopped worker reports %v", err)
	}
	srvClose(e.Env)
}

// srvClose stops a bulkEnv's server and closes its database, as a crash
// would leave them: the work left is in the file.
func srvClose(e *webtest.Env) {
	e.Srv.Close()
	if err := e.DB.Close(); err != nil {
		e.T.Fatal(err)
	}
}

// TestTagDeleteDeclaredToldAtOnce: a declared tag is the workspace's
// vocabulary, so its deletion is in the feed, at workspace level, when the
// request answers, before the worker's first step; the steps add nothing.
func TestTagDeleteDeclaredToldAtOnce(t *testing.T) {
	t.Parallel()
	e, path, _, entered, gate := gatedBulkEnv(t, 1)
	id := e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "garden"})["id"].(string)
	e.CreateTask(e.Admin, map[string]any{"title": "one", "tags": []string{"garden"}})
	e.CreateTask(e.Admin, map[string]any{"title": "two", "tags": []string{"garden"}})
	told := func() int {
		n := 0
		for _, ev := range e.allChanges("", e.Admin) {
			if ev["entity_id"] == id && ev["action"] == "tag.deleted" {
				n++
			}
		}
		return n
	}
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+id, e.Admin, nil)
	<-entered
	if n := told(); n != 1 {
		t.Fatalf("%d tag.deleted in the feed before the first step, want 1", n)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM events WHERE entity_id = ? AND action = 'tag.deleted' AND project_id IS NULL`, id); n != 1 {
		t.Fatalf("%d workspace-level tag.deleted, want 1", n)
	}
	for range 3 { // two applications, one a step, then the tag
		gate <- nil
		<-entered
	}
	close(gate)
	if err := e.Svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM task_tags WHERE tag_id = ?1`, id) + rowCount(t, path, `SELECT count(*) FROM tags WHERE id = ?1`, id); n != 0 {
		t.Fatalf("%d rows of the tag left", n)
	}
	if n := told(); n != 1 {
		t.Fatalf("%d tag.deleted in the feed after the work, want 1", n)
	}
}
