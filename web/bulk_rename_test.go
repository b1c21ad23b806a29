package web_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestTagRenameInSteps: renaming a tag made by use answers with the tag
// renamed for every reader at once; its tag.updated is filed afterwards in
// each project the tag is applied in, as the worker's steps (a few items
// each) reach the first of its items there, once per project. A worker
// stopped between two steps finishes at the next start on the same file.
func TestTagRenameInSteps(t *testing.T) {
	t.Parallel()
	e, path, admin, entered, gate := gatedBulkEnv(t, 3)

	s := seedBulkTagged(e)
	tasks, doc, def, side, bulkID := s.tasks, s.doc, s.def, s.side, s.bulkID
	updated := func(e *env) []string { return toldIn(e, path, bulkID, "tag.updated", def, side) }
	pending := func(t *testing.T) int {
		return rowCount(t, path, `SELECT count(*) FROM tag_notices WHERE tag_id = ?`, bulkID)
	}

	// renamed is what every reader must tell from the moment the rename
	// answers.
	renamed := func(t *testing.T) {
		t.Helper()
		e := e.sub(t)
		var names []string
		for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)) {
			names = append(names, tg["name"].(string))
		}
		if !slices.Contains(names, "renamed") || slices.Contains(names, "bulk") {
			t.Fatalf("GET /v1/tags lists %v, want renamed and not bulk", names)
		}
		for _, task := range tasks {
			if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"keep", "renamed"}) {
				t.Fatalf("task %v carries %v, want [keep renamed]", task["ref"], got)
			}
		}
		if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"renamed"}) {
			t.Fatalf("the document carries %v, want [renamed]", got)
		}
		if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=renamed&limit=100", e.Admin, nil)); len(items) != len(tasks) {
			t.Fatalf("tag=renamed lists %d tasks, want %d", len(items), len(tasks))
		}
		if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=bulk", e.Admin, nil)); len(items) != 0 {
			t.Fatalf("tag=bulk lists %d tasks", len(items))
		}
		if items := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/documents?tag=renamed", e.Admin, nil)); len(items) != 1 {
			t.Fatalf("documents tag=renamed lists %d, want 1", len(items))
		}
		if x := e.export(e.Admin, ""); !bytes.Contains(x, []byte(`"name":"renamed"`)) {
			t.Fatal("the export does not carry the new name")
		}
		// The old name is free, and the new one is taken.
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "RENAMED"})
	}

	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+bulkID, e.Admin, map[string]any{"name": "renamed"})
	<-entered
	t.Run("at once", func(t *testing.T) {
		if n := pending(t); n != 1 {
			t.Fatalf("%d notices kept, want 1", n)
		}
		renamed(t)
		if got := updated(e.sub(t)); len(got) != 0 {
			t.Fatalf("the feed tells of the rename before the worker found the tag's items: %v", got)
		}
	})

	gate <- nil
	<-entered
	t.Run("between steps", func(t *testing.T) {
		renamed(t)
		if got := updated(e.sub(t)); !slices.Equal(got, []string{def}) {
			t.Fatalf("after the first step, the feed tells of the rename in %v, want the default project %s only", got, def)
		}
	})
	gate <- nil
	<-entered
	killWorker(t, e, gate)

	// The next start finishes the work.
	e = bulkEnv(t, path, admin, 3, nil)
	if n := pending(t); n != 1 {
		t.Fatalf("%d notices kept at the next start, want 1", n)
	}
	renamed(t)
	if got := updated(e); !slices.Equal(got, []string{def}) {
		t.Fatalf("at the next start, the feed tells of the rename in %v, want %s only", got, def)
	}
	finishWork(t, e)
	if n := pending(t); n != 0 {
		t.Fatalf("%d notices left after the work, want none", n)
	}
	if got := updated(e); !slices.Equal(got, []string{def, side}) {
		t.Fatalf("the feed tells of the rename in %v, want once in each project, %s and %s", got, def, side)
	}
	renamed(t)

	// Refusals answer before anything is kept for the worker.
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/tags/"+bulkID, e.Admin, map[string]any{"name": "#"})
	e.Problem(http.StatusConflict, "conflict", http.MethodPatch, "/v1/tags/"+bulkID, e.Admin, map[string]any{"name": "KEEP"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tags/nosuchtag", e.Admin, map[string]any{"name": "other"})
	if n := pending(t); n != 0 {
		t.Fatalf("%d notices kept by refused renames", n)
	}
}

// TestTagRenameDeclaredToldAtOnce: a declared tag is the workspace's
// vocabulary, so its rename is in the feed, at workspace level, when the
// request answers, and nothing is left to the worker.
func TestTagRenameDeclaredToldAtOnce(t *testing.T) {
	t.Parallel()
	path, admin := bootstrappedFile(t)
	e := bulkEnv(t, path, admin, 1, func() error { return errors.New("no step expected") })
	id := e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "garden"})["id"].(string)
	e.CreateTask(e.Admin, map[string]any{"title": "one", "tags": []string{"garden"}})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+id, e.Admin, map[string]any{"name": "yard"})
	if err := e.Svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range e.allChanges("", e.Admin) {
		if ev["entity_id"] == id && ev["action"] == "tag.updated" {
			n++
		}
	}
	if n != 1 || rowCount(t, path, `SELECT count(*) FROM events WHERE entity_id = ? AND action = 'tag.updated' AND project_id IS NULL`, id) != 1 {
		t.Fatalf("%d tag.updated in the feed, want 1 at workspace level", n)
	}
	if k := rowCount(t, path, `SELECT count(*) FROM tag_notices`); k != 0 {
		t.Fatalf("%d notices kept for a declared tag", k)
	}
}

// TestTagRenameKeptThenMerged: a rename still kept for the worker when a
// second rename merges a hidden tag into the same tag is filed by the
// merging request, where the tag was before the merge; read after it, it
// would tell the hidden tag's readers of a name they never saw.
func TestTagRenameKeptThenMerged(t *testing.T) {
	t.Parallel()
	e, path, _, entered, gate := gatedBulkEnv(t, 3)
	alice := e.Member("alice", "admin")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	hidden := e.CreateTask(e.Admin, map[string]any{"title": "hidden", "project": "secret", "tags": []string{"hush"}})
	open := e.CreateTask(alice, map[string]any{"title": "open", "tags": []string{"mine"}})
	var mine string
	for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", alice, nil)) {
		if tg["name"] == "mine" {
			mine = tg["id"].(string)
		}
	}
	inProject := func(p string) int {
		return rowCount(t, path, `SELECT count(*) FROM events WHERE entity_id = ? AND action = 'tag.updated' AND project_id = ?`, mine, p)
	}
	def, secret := fmt.Sprint(open["project_id"]), fmt.Sprint(hidden["project_id"])

	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+mine, alice, map[string]any{"name": "first"})
	<-entered // the worker waits before its first step: the rename is kept
	if n := rowCount(t, path, `SELECT count(*) FROM tag_notices`); n != 1 {
		t.Fatalf("%d notices kept, want 1", n)
	}
	// The merge is in steps too: both changes are kept, and the worker
	// files them before it moves any of the hidden tag's items.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+mine, alice, map[string]any{"name": "hush"})
	if n := rowCount(t, path, `SELECT count(*) FROM tag_notices`); n != 2 {
		t.Fatalf("%d notices kept after the merge, want 2", n)
	}
	gate <- nil
	settleGated(t, e, entered, gate)
	if a, b := inProject(def), inProject(secret); a != 2 || b != 0 {
		t.Fatalf("tag.updated filed %d times in the default project and %d in the hidden one, want 2 and 0", a, b)
	}
	if n := rowCount(t, path, `SELECT count(*) FROM tag_notices`) + rowCount(t, path, `SELECT count(*) FROM tags WHERE deleted_at IS NOT NULL`); n != 0 {
		t.Fatalf("%d notices or merged tags left after the worker", n)
	}
	if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(hidden), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"hush"}) {
		t.Fatalf("the hidden task carries %v, want [hush]", got)
	}
}

// settleGated lets a gated worker (gatedBulkEnv) take every step left and
// waits until it has.
func settleGated(t *testing.T, e *env, entered chan struct{}, gate chan error) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-entered:
				gate <- nil
			case <-done:
				return
			}
		}
	}()
	err := e.Svc.SettleWork()
	close(done)
	if err != nil {
		t.Fatal(err)
	}
}
