package web_test

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestTagMergeInSteps: renaming a tag onto the name of a tag the caller
// cannot see merges them, and the hidden tag's applications are moved in
// steps by the worker. From the moment the rename answers, and between
// steps, every reader sees the merged tag alone, on every item either was
// on, once: in items' tags, tag filters, the unset filter and the tag
// listing; the hidden tag's end is told where the worker finds its items.
// A worker stopped in the middle finishes at the next start. Another tag
// can be deleted while the merge is pending.
func TestTagMergeInSteps(t *testing.T) {
	t.Parallel()
	e, path, admin, entered, gate := gatedBulkEnv(t, 3)
	alice := e.Member("alice", "admin")
	for _, key := range []string{"secret", "hush"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": key, "title": key, "visibility": "private"})
	}
	var hidden []map[string]any
	for _, title := range []string{"one", "two", "three", "four"} {
		hidden = append(hidden, e.CreateTask(e.Admin, map[string]any{"title": title, "project": "secret", "tags": []string{"bulk"}}))
	}
	hidden = append(hidden, e.CreateTask(e.Admin, map[string]any{"title": "hushed", "project": "hush", "tags": []string{"bulk", "keep"}}))
	open := e.CreateTask(alice, map[string]any{"title": "open", "tags": []string{"mine"}})
	both := e.CreateTask(e.Admin, map[string]any{"title": "both", "project": "secret", "tags": []string{"bulk", "mine"}})
	doc := e.docCreate(e.Admin, map[string]any{"title": "memo", "project": "secret", "tags": []string{"bulk"}})
	def, secret, hush := fmt.Sprint(open["project_id"]), fmt.Sprint(hidden[0]["project_id"]), fmt.Sprint(hidden[4]["project_id"])
	ids := map[string]string{}
	for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)) {
		ids[tg["name"].(string)] = tg["id"].(string)
	}
	bulkID, mine := ids["bulk"], ids["mine"]
	applied := func(t *testing.T) int {
		return rowCount(t, path, `SELECT (SELECT count(*) FROM task_tags WHERE tag_id = ?1) + (SELECT count(*) FROM document_tags WHERE tag_id = ?1)
			+ (SELECT count(*) FROM tags WHERE id = ?1)`, bulkID)
	}

	// merged is what every reader must tell from the moment the rename answers.
	merged := func(t *testing.T, e *env) {
		t.Helper()
		e = e.sub(t)
		for who, token := range map[string]string{"admin": e.Admin, "alice": alice} {
			var names []string
			for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", token, nil)) {
				if tg["name"] == "bulk" && tg["id"] != mine || tg["id"] == bulkID {
					t.Fatalf("%s: GET /v1/tags lists %v; the merged tag is %s", who, tg, mine)
				}
				names = append(names, tg["name"].(string))
			}
			if !slices.Contains(names, "bulk") {
				t.Fatalf("%s: GET /v1/tags lists %v, without the merged tag", who, names)
			}
		}
		for _, task := range append(slices.Clone(hidden), open, both) {
			if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"bulk"}) {
				t.Fatalf("task %v carries %v, want [bulk]", task["title"], got)
			}
		}
		if got := credStrings(t, e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)["tags"]); !slices.Equal(got, []string{"bulk"}) {
			t.Fatalf("the document carries %v", got)
		}
		if n := len(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=bulk", e.Admin, nil))); n != 7 {
			t.Fatalf("tag=bulk lists %d tasks to the admin, want 7", n)
		}
		if n := len(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=bulk", alice, nil))); n != 1 {
			t.Fatalf("tag=bulk lists %d tasks to alice, want her own", n)
		}
		if n := len(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/documents?tag=bulk", e.Admin, nil))); n != 1 {
			t.Fatalf("documents tag=bulk lists %d", n)
		}
		if n := len(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag.is=unset", e.Admin, nil))); n != 0 {
			t.Fatalf("tag.is=unset lists %d tasks; each carries the merged tag", n)
		}
		// The export carries the merged tag on every item, once; the
		// hidden tag in its history alone.
		on := map[string]int{}
		for _, line := range bytes.Split(e.export(e.Admin, ""), []byte("\n")) {
			if bytes.Contains(line, []byte(bulkID)) && !bytes.HasPrefix(line, []byte(`{"kind":"event"`)) {
				t.Fatalf("the export carries the merged tag: %s", line)
			}
			if kind, _, ok := bytes.Cut(bytes.TrimPrefix(line, []byte(`{"kind":"`)), []byte(`"`)); ok && bytes.Contains(line, []byte(mine)) {
				on[string(kind)]++
			}
		}
		if on["task_tag"] != 7 || on["document_tag"] != 1 {
			t.Fatalf("the export applies the merged tag %d times to tasks and %d to documents, want 7 and 1", on["task_tag"], on["document_tag"])
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tags/"+bulkID, e.Admin, map[string]any{"name": "again"})
	}
	deleted := func(e *env) []string { return toldIn(e, path, bulkID, "tag.deleted", def, secret, hush) }

	e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+mine, alice, map[string]any{"name": "bulk"})
	<-entered // before the first step: the rename's kept change
	// Another tag is deleted while the merge is pending.
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+ids["keep"], e.Admin, nil)
	t.Run("at once", func(t *testing.T) {
		if n := applied(t); n != 8 {
			t.Fatalf("%d rows left before the first step, want all 8 (6 tasks, 1 document, the tag)", n)
		}
		merged(t, e)
		if got := deleted(e.sub(t)); len(got) != 0 {
			t.Fatalf("the feed tells of the merged tag's end before the worker found its items: %v", got)
		}
	})

	// The kept change is filed first, then the applications are moved.
	for range 5 {
		gate <- nil
		<-entered
		if applied(t) != 8 {
			break
		}
	}
	t.Run("between steps", func(t *testing.T) {
		if n := applied(t); n != 5 {
			t.Fatalf("%d rows left after one step of 3, want 5", n)
		}
		merged(t, e)
		if got := deleted(e.sub(t)); !slices.Equal(got, []string{secret}) {
			t.Fatalf("after the first step, the feed tells of the merged tag's end in %v, want %s only", got, secret)
		}
	})
	killWorker(t, e, gate)

	// The next start finishes the work.
	e = bulkEnv(t, path, admin, 3, nil)
	t.Run("stopped", func(t *testing.T) {
		if n := applied(t); n != 5 {
			t.Fatalf("%d rows left at the next start, want 5", n)
		}
		merged(t, e)
	})
	finishWork(t, e)
	t.Run("done", func(t *testing.T) {
		if n := applied(t); n != 0 {
			t.Fatalf("%d rows left after the work", n)
		}
		merged(t, e)
		if got := deleted(e.sub(t)); !slices.Equal(got, []string{secret, hush}) {
			t.Fatalf("the feed tells of the merged tag's end in %v, want %s and %s", got, secret, hush)
		}
		if got := toldIn(e.sub(t), path, mine, "tag.updated", def, secret, hush); !slices.Equal(got, []string{def, secret}) {
			t.Fatalf("the rename is told in %v, want where the renamed tag was: %s and %s", got, def, secret)
		}
		if n := rowCount(t, path, `SELECT count(*) FROM tags WHERE deleted_at IS NOT NULL OR merged_into IS NOT NULL`); n != 0 {
			t.Fatalf("%d tags left marked", n)
		}
	})
}
