package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"tend/web/webtest"
)

// TestDocumentLinks: links join tasks and documents in both directions, one
// stored row labelled for each end, and the far end says what it is.
func TestDocumentLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Build it", "description": "never carried"})
	spec := e.docCreate(e.Admin, map[string]any{"title": "Spec", "type": "spec", "body": "never carried either", "tags": []string{"x"}})
	note := e.docCreate(e.Admin, map[string]any{"title": "Note"})
	linksOf := func(path string) []map[string]any {
		t.Helper()
		res := e.OK(http.StatusOK, http.MethodGet, path+"/links", e.Admin, nil)
		if lstPage(res)["has_more"] != false {
			t.Fatalf("links are returned whole: %v", res)
		}
		return lstItems(res)
	}

	var fromDoc, fromTask map[string]any
	t.Run("document → task", func(t *testing.T) {
		fromDoc = e.OK(http.StatusCreated, http.MethodPost, docPath(spec, "links"), e.Admin, map[string]any{"link_type": "documents", "target": task["ref"]})
		tskLinkWant(t, fromDoc, "outgoing", "documents", "documents", task)
		back := itemWhere(t, e.tskLinks(e.Admin, task), "id", fromDoc["id"])
		if back["direction"] != "incoming" || back["label"] != "is documented by" {
			t.Fatalf("from the task: %v", back)
		}
		o := back["other"].(map[string]any)
		if o["entity_type"] != "document" || o["ref"] != spec["ref"] || o["title"] != "Spec" || o["type"] != "spec" ||
			o["status"] != "current" || o["status_category"] != "in_progress" || fmt.Sprint(o["tags"]) != "[x]" || o["project_path"] != "inbox" ||
			o["workspace"] != "default" || o["is_complete"] != false || o["assignee"] != nil || o["due_at"] != nil {
			t.Fatalf("a document end: %v", o)
		}
		if _, ok := o["body"]; ok {
			t.Fatalf("a link end carries no body: %v", o)
		}
	})
	t.Run("task → document, incoming", func(t *testing.T) {
		fromTask = e.OK(http.StatusCreated, http.MethodPost, tskPath(task, "links"), e.Admin,
			map[string]any{"link_type": "blocks", "target": note["id"], "target_type": "document", "direction": "incoming"})
		if fromTask["direction"] != "incoming" || fromTask["label"] != "is blocked by" || fromTask["other"].(map[string]any)["entity_type"] != "document" {
			t.Fatalf("from the task: %v", fromTask)
		}
		l := itemWhere(t, linksOf(docPath(note)), "id", fromTask["id"])
		tskLinkWant(t, l, "outgoing", "blocks", "blocks", task)
	})
	t.Run("document → document", func(t *testing.T) {
		l := e.OK(http.StatusCreated, http.MethodPost, docPath(note, "links"), e.Admin,
			map[string]any{"link_type": "relates_to", "target": spec["ref"], "target_type": "document"})
		back := itemWhere(t, linksOf(docPath(spec)), "id", l["id"])
		if back["other"].(map[string]any)["ref"] != note["ref"] || back["other"].(map[string]any)["entity_type"] != "document" {
			t.Fatalf("%v", back)
		}
		if n := len(linksOf(docPath(spec))); n != 2 {
			t.Fatalf("the spec has %d links, want 2", n)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, docPath(spec, "links"), e.Admin, map[string]any{"link_type": "documents", "target": task["ref"]})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(spec, "links"), e.Admin,
			map[string]any{"link_type": "relates_to", "target": spec["ref"], "target_type": "document"})
		// A document's ref sent as a task (the default target_type) is no task.
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(spec, "links"), e.Admin,
			map[string]any{"link_type": "relates_to", "target": note["ref"]})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(spec, "links"), e.Admin,
			map[string]any{"link_type": "relates_to", "target": note["ref"], "target_type": "project"})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(spec, "links"), e.Admin,
			map[string]any{"link_type": "nope", "target": task["ref"]})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/documents/9999/links", e.Admin, map[string]any{"link_type": "blocks", "target": task["ref"]})
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, docPath(spec, "links", uuid.NewString()), e.Admin, nil)
	})
	t.Run("remove from either end, recorded in the history", func(t *testing.T) {
		e.OK(http.StatusNoContent, http.MethodDelete, docPath(note, "links", fromTask["id"].(string)), e.Admin, nil)
		if n := len(e.tskLinks(e.Admin, task)); n != 1 {
			t.Fatalf("the task keeps %d links, want 1", n)
		}
		acts := tskActions(e.docEvents(e.Admin, docPath(note)))
		if acts[len(acts)-1] != "link.deleted" {
			t.Fatalf("note's history %v", acts)
		}
		evs := e.docEvents(e.Admin, docPath(note))
		if c := evs[len(evs)-1]["changes"].(map[string]any); c["other"] != task["ref"] || c["other_type"] != "task" {
			t.Fatalf("the removal names the other end: %v", c)
		}
	})
	t.Run("include=links on the task listing still reports task pairs only", func(t *testing.T) {
		other := e.CreateTask(e.Admin, map[string]any{"title": "Other"})
		e.OK(http.StatusCreated, http.MethodPost, tskPath(task, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": other["ref"]})
		got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include=links", e.Admin, nil)
		if ls := got["links"].([]any); len(ls) != 1 || ls[0].(map[string]any)["target"] != other["ref"] {
			t.Fatalf("links %v", ls)
		}
	})
}

func TestComments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	vic := e.Member("vic", "viewer")
	e.tskProject("alpha", "")
	task := e.CreateTask(e.Admin, map[string]any{"title": "Task", "project": "alpha"})
	doc := e.docCreate(e.Admin, map[string]any{"title": "Doc", "project": "alpha"})
	items := map[string]string{"task": tskPath(task), "document": docPath(doc), "project": "/v1/projects/alpha"}
	ids := map[string]string{"task": task["id"].(string), "document": doc["id"].(string)}
	ids["project"] = e.OK(http.StatusOK, http.MethodGet, "/v1/projects/alpha", e.Admin, nil)["id"].(string)

	for kind, path := range items {
		t.Run(kind, func(t *testing.T) {
			e := e.sub(t)
			first := e.OK(http.StatusCreated, http.MethodPost, path+"/comments", pat, map[string]any{"body": "first, see #" + lstItoa(lstNum(task["ref"]))})
			tskWant(t, first, map[string]any{"author": "pat", "entity_type": kind, "entity_id": ids[kind], "version": 1, "deleted_at": nil,
				"body": "first, see #" + lstItoa(lstNum(task["ref"]))})
			if first["author_id"] == nil || first["workspace_id"] == nil || first["created_at"] == nil {
				t.Fatalf("comment fields: %v", first)
			}
			second := e.OK(http.StatusCreated, http.MethodPost, path+"/comments", e.Admin, map[string]any{"body": "second"})
			third := e.OK(http.StatusCreated, http.MethodPost, path+"/comments", pat, map[string]any{"body": "third"})

			t.Run("flat, oldest first, paged", func(t *testing.T) {
				pg := e.OK(http.StatusOK, http.MethodGet, path+"/comments?limit=2&include_total=true", vic, nil)
				if got := lstItems(pg); len(got) != 2 || got[0]["id"] != first["id"] || got[1]["id"] != second["id"] || lstNum(lstPage(pg)["total"]) != 3 {
					t.Fatalf("first page %v", pg)
				}
				next := e.OK(http.StatusOK, http.MethodGet, path+"/comments?limit=2&cursor="+url.QueryEscape(lstPage(pg)["next_cursor"].(string)), vic, nil)
				if got := lstItems(next); len(got) != 1 || got[0]["id"] != third["id"] || lstPage(next)["has_more"] != false {
					t.Fatalf("second page %v", next)
				}
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks/"+lstItoa(lstNum(task["ref"]))+"/comments?cursor=x", vic, nil)
			})
			t.Run("refusals on create", func(t *testing.T) {
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/comments", pat, map[string]any{"body": "x", "parent": first["id"]})
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/comments", pat, map[string]any{"body": "x", "parent_id": nil})
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/comments", pat, map[string]any{"body": "  "})
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path+"/comments", pat, map[string]any{})
				e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, path+"/comments", vic, map[string]any{"body": "viewer"})
			})
			t.Run("only the author edits", func(t *testing.T) {
				id := first["id"].(string)
				e.Problem(http.StatusForbidden, "not_comment_author", http.MethodPatch, "/v1/comments/"+id, e.Admin, map[string]any{"body": "edited"})
				e.Problem(http.StatusForbidden, "not_comment_author", http.MethodPatch, "/v1/comments/"+id, vic, map[string]any{"body": "edited"})
				e.Problem(http.StatusConflict, "version_conflict", http.MethodPatch, "/v1/comments/"+id, pat, map[string]any{"body": "edited", "expected_version": 0})
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/comments/"+id, pat, map[string]any{"body": ""})
				e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/comments/"+id, pat, map[string]any{"parent": id})
				got := e.OK(http.StatusOK, http.MethodPatch, "/v1/comments/"+id, pat, map[string]any{"body": "edited", "expected_version": 1})
				tskWant(t, got, map[string]any{"body": "edited", "version": 2})
				e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/comments/"+uuid.NewString(), pat, map[string]any{"body": "x"})
				e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/comments/not-an-id", pat, map[string]any{"body": "x"})
			})
			t.Run("the author, or anyone who may change the item, deletes", func(t *testing.T) {
				e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, "/v1/comments/"+third["id"].(string), vic, nil)
				e.OK(http.StatusNoContent, http.MethodDelete, "/v1/comments/"+third["id"].(string), e.Admin, nil)
				e.OK(http.StatusNoContent, http.MethodDelete, "/v1/comments/"+second["id"].(string), e.Admin, nil)
				e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/comments/"+second["id"].(string), e.Admin, nil)
				e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/comments/"+second["id"].(string), e.Admin, map[string]any{"body": "z"})
				got := lstItems(e.OK(http.StatusOK, http.MethodGet, path+"/comments", pat, nil))
				if len(got) != 1 || got[0]["id"] != first["id"] {
					t.Fatalf("a withdrawn comment leaves the listing: %v", got)
				}
			})
			t.Run("in the item's history, with the item as subject", func(t *testing.T) {
				var acts []string
				for _, ev := range e.docEvents(e.Admin, path) {
					if ev["entity_type"] != "comment" {
						continue
					}
					acts = append(acts, ev["action"].(string))
					if ev["subject_type"] != kind || ev["subject_id"] != ids[kind] {
						t.Fatalf("a comment event names the item as subject: %v", ev)
					}
					if kind != "project" && (ev["item_ref"] == nil || ev["item_title"] == nil) {
						t.Fatalf("a comment event names the item: %v", ev)
					}
					if c, _ := ev["changes"].(map[string]any); c != nil && c["body"] != nil {
						t.Fatalf("the body is not copied into the event: %v", ev)
					}
				}
				want := "[comment.created comment.created comment.created comment.updated comment.deleted comment.deleted]"
				if fmt.Sprint(acts) != want {
					t.Fatalf("comment events %v, want %s", acts, want)
				}
				// Newest first, paged: the subject's events interleave by seq.
				pg := lstItems(e.OK(http.StatusOK, http.MethodGet, path+"/events?limit=2", e.Admin, nil))
				if len(pg) != 2 || pg[0]["action"] != "comment.deleted" || lstNum(pg[0]["seq"]) <= lstNum(pg[1]["seq"]) {
					t.Fatalf("newest first: %v", pg)
				}
			})
		})
	}
	t.Run("unseen items and missing ones answer alike", func(t *testing.T) {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
		hidden := e.CreateTask(e.Admin, map[string]any{"title": "Hidden", "project": "secret"})
		hdoc := e.docCreate(e.Admin, map[string]any{"title": "Hidden", "project": "secret"})
		c := e.OK(http.StatusCreated, http.MethodPost, tskPath(hidden, "comments"), e.Admin, map[string]any{"body": "psst"})
		for _, pair := range [][2]string{{tskPath(hidden), "/v1/tasks/9999"}, {docPath(hdoc), "/v1/documents/9999"},
			{"/v1/projects/secret", "/v1/projects/nope"}} {
			for _, method := range []string{http.MethodGet, http.MethodPost} {
				body := map[string]any{"body": "x"}
				missing := e.Do(method, pair[1]+"/comments", pat, body)
				webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
				disSame(t, method+" "+pair[0]+"/comments", e.Do(method, pair[0]+"/comments", pat, body), missing, "", "")
			}
		}
		missing := e.Do(http.MethodDelete, "/v1/comments/"+uuid.NewString(), pat, nil)
		disSame(t, "DELETE the unseen comment", e.Do(http.MethodDelete, "/v1/comments/"+c["id"].(string), pat, nil), missing, "", "")
		// Trashing the item takes its comments out of reach.
		e.OK(http.StatusOK, http.MethodDelete, docPath(doc), e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, docPath(doc, "comments"), pat, nil)
	})
}
