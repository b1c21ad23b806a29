package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

func TestDocumentCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "alpha", "title": "Alpha", "colour": "#336699"})
	e.tskProject("beta", "")

	var spec map[string]any
	t.Run("defaults: a note in force in the inbox", func(t *testing.T) {
		got := e.docCreate(e.Admin, map[string]any{"title": "  Scratch  "})
		tskWant(t, got, map[string]any{"title": "Scratch", "type": "note", "type_label": "Note", "type_category": "knowledge",
			"type_is_default": true, "status": "current", "status_category": "in_progress", "status_is_default": true,
			"project_key": "inbox", "project_path": "inbox", "workspace": "default", "body": nil, "size_bytes": 0, "tags": []any{},
			"parent_id": nil, "parent_ref": nil, "parent_title": nil, "sub_documents": 0, "relevance": nil, "archived_at": nil,
			"deleted_at": nil, "version": 1, "project_colour": nil})
		rev := got["revisions"].(map[string]any)
		if lstNum(rev["count"]) != 0 || rev["last_by"] != "admin" || rev["last_at"] != got["created_at"] {
			t.Errorf("a new document's revisions: %v (created_at %v)", rev, got["created_at"])
		}
		if got["owner_id"] == nil || got["owner_id"] != got["created_by"] {
			t.Errorf("the creator owns it: %v", got)
		}
	})
	t.Run("structured fields", func(t *testing.T) {
		spec = e.docCreate(e.Admin, map[string]any{"title": "Login spec", "project": "alpha", "type": "spec", "status": "draft",
			"body": "# Login\nnaïve", "tags": []string{"Auth", "#auth", "web"}})
		tskWant(t, spec, map[string]any{"type": "spec", "type_category": "governing", "status": "draft", "status_category": "todo",
			"project_key": "alpha", "project_colour": "#336699", "size_bytes": len("# Login\nnaïve"), "body": "# Login\nnaïve"})
		if tags := fmt.Sprint(spec["tags"]); tags != "[Auth web]" {
			t.Errorf("tags = %s", tags)
		}
	})
	t.Run("refs are shared with tasks", func(t *testing.T) {
		task := e.CreateTask(e.Admin, map[string]any{"title": "between"})
		doc := e.docCreate(e.Admin, map[string]any{"title": "after"})
		if lstNum(doc["ref"]) != lstNum(task["ref"])+1 || lstNum(task["ref"]) != lstNum(spec["ref"])+1 {
			t.Fatalf("refs %v, %v, %v are not one counter", spec["ref"], task["ref"], doc["ref"])
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, tskPath(doc), e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, docPath(task), e.Admin, nil)
	})
	t.Run("a sub-document lives in its parent's project", func(t *testing.T) {
		child := e.docCreate(e.Admin, map[string]any{"title": "Child", "parent": spec["ref"]})
		tskWant(t, child, map[string]any{"project_key": "alpha", "parent_ref": spec["ref"], "parent_title": "Login spec", "parent_id": spec["id"]})
		tskWant(t, e.OK(http.StatusOK, http.MethodGet, docPath(spec), e.Admin, nil), map[string]any{"sub_documents": 1})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/documents", e.Admin,
			map[string]any{"title": "x", "parent": spec["id"], "project": "beta"})
	})
	t.Run("GET by id and ref, format and fields", func(t *testing.T) {
		byID := e.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+spec["id"].(string), e.Admin, nil)
		if byID["ref"] != spec["ref"] || byID["revisions"] == nil {
			t.Fatalf("by id: %v", byID)
		}
		got := e.OK(http.StatusOK, http.MethodGet, docPath(spec)+"?fields=ref,title", e.Admin, nil)
		if len(got) != 2 || got["title"] != "Login spec" {
			t.Fatalf("fields: %v", got)
		}
	})
	// The domain's refusals are app's TestDocumentCreate; here one of them,
	// the task fields a body names (null or not), and the body's own.
	t.Run("refusals", func(t *testing.T) {
		for _, c := range []struct {
			body map[string]any
			loc  string
		}{
			{map[string]any{}, "title"},
			{map[string]any{"title": "x", "due_at": "2030-01-01T00:00:00Z"}, "due_at"},
			{map[string]any{"title": "x", "starts_at": nil}, "starts_at"},
			{map[string]any{"title": "x", "colour": "red"}, "colour"},
		} {
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/documents", e.Admin, c.body)
			if loc := fmt.Sprint(p["detail"].([]any)[0].(map[string]any)["loc"]); loc != "[body "+c.loc+"]" {
				t.Errorf("%v: loc %s, want [body %s]", c.body, loc, c.loc)
			}
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/documents", e.Admin, "{")
	})
}

func TestDocumentRevisions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rita := e.Member("rita", "member")
	doc := e.docCreate(e.Admin, map[string]any{"title": "Plan"})
	revs := func(d map[string]any) (int64, any) {
		t.Helper()
		r := d["revisions"].(map[string]any)
		return lstNum(r["count"]), r["last_by"]
	}
	patch := func(token string, body map[string]any) map[string]any {
		t.Helper()
		return e.OK(http.StatusOK, http.MethodPatch, docPath(doc), token, body)
	}
	steps := []struct {
		name  string
		token string
		body  map[string]any
		count int64
		by    string
	}{
		{"a rename is not a revision", rita, map[string]any{"title": "Plan B"}, 0, "admin"},
		{"a status change is not a revision", rita, map[string]any{"status": "draft"}, 0, "admin"},
		{"a first body onto an empty one is not a revision", rita, map[string]any{"body": "first words"}, 0, "admin"},
		{"replacing a body is", rita, map[string]any{"body": "second words"}, 1, "rita"},
		{"the same body again is not", e.Admin, map[string]any{"body": "second words"}, 1, "rita"},
		{"another replacement by someone else", e.Admin, map[string]any{"body": "third words"}, 2, "admin"},
	}
	for _, s := range steps {
		got := patch(s.token, s.body)
		if n, by := revs(got); n != s.count || by != s.by {
			t.Fatalf("%s: revisions %d by %v, want %d by %s", s.name, n, by, s.count, s.by)
		}
	}
	got := e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)
	if n, by := revs(got); n != 2 || by != "admin" || got["revisions"].(map[string]any)["last_at"] == nil {
		t.Fatalf("GET one resolves revisions: %v", got["revisions"])
	}
	for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents", e.Admin, nil)) {
		if v, ok := it["revisions"]; !ok || v != nil {
			t.Fatalf("a listing reports revisions as null: %v", it)
		}
	}
	var bodies []any
	for _, ev := range e.docEvents(e.Admin, docPath(doc)) {
		if c, ok := ev["changes"].(map[string]any)["body"]; ok {
			bodies = append(bodies, c)
		}
	}
	if fmt.Sprint(bodies) != "[map[revised:false size_bytes:11] map[revised:true size_bytes:12] map[revised:true size_bytes:11]]" {
		t.Fatalf("body changes in events: %v", bodies)
	}
}

func TestDocumentUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.tskProject("alpha", "")
	doc := e.docCreate(e.Admin, map[string]any{"title": "Note", "tags": []string{"a"}, "body": "x"})
	t.Run("omitted untouched, null clears", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"tags": nil, "body": nil, "type": "decision"})
		tskWant(t, got, map[string]any{"title": "Note", "tags": []any{}, "body": nil, "size_bytes": 0, "type": "decision", "version": 2})
		if got["content_updated_at"] == nil {
			t.Fatal(got)
		}
	})
	t.Run("archiving stamps archived_at; in force again clears it", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"status": "archived"})
		if got["archived_at"] == nil || got["status_category"] != "done" {
			t.Fatal(got)
		}
		got = e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"status": "current"})
		if got["archived_at"] != nil {
			t.Fatal(got)
		}
	})
	t.Run("nothing changed is no new version", func(t *testing.T) {
		before := e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)
		got := e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"title": "Note"})
		if got["version"] != before["version"] {
			t.Fatal(got)
		}
	})
	t.Run("refusals", func(t *testing.T) {
		v := lstNum(e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil)["version"])
		e.Problem(http.StatusConflict, "version_conflict", http.MethodPatch, docPath(doc), e.Admin, map[string]any{"title": "y", "expected_version": v - 1})
		e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"title": "y", "expected_version": v})
		for _, body := range []map[string]any{{"title": nil}, {"title": ""}, {"status": nil}, {"type": nil}, {"project": nil},
			{"due_at": nil}, {"assignee": "admin"}, {"estimate_minutes": 3}, {"status": "todo"}, {"project": "nope"}, {"parent": 9999}} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, docPath(doc), e.Admin, body)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/documents/9999", e.Admin, map[string]any{"title": "z"})
	})
	t.Run("events", func(t *testing.T) {
		acts := tskActions(e.docEvents(e.Admin, docPath(doc)))
		if acts[0] != "document.created" || !slices.Contains(acts, "document.updated") {
			t.Fatalf("actions %v", acts)
		}
	})
	t.Run("a viewer may read but not change", func(t *testing.T) {
		vic := e.Member("vic", "viewer")
		e.OK(http.StatusOK, http.MethodGet, docPath(doc), vic, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, docPath(doc), vic, map[string]any{"title": "v"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/documents", vic, map[string]any{"title": "v"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, docPath(doc), vic, nil)
	})
}

func TestDocumentMoveTrashRestore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.tskProject("alpha", "")
	e.tskProject("beta", "")
	root := e.docCreate(e.Admin, map[string]any{"title": "Root", "project": "alpha"})
	mid := e.docCreate(e.Admin, map[string]any{"title": "Mid", "parent": root["ref"]})
	leaf := e.docCreate(e.Admin, map[string]any{"title": "Leaf", "parent": mid["ref"]})
	other := e.docCreate(e.Admin, map[string]any{"title": "Other", "project": "beta"})

	t.Run("a cycle is refused", func(t *testing.T) {
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, docPath(root, "move"), e.Admin, map[string]any{"parent": leaf["ref"]})
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, docPath(root, "move"), e.Admin, map[string]any{"parent": root["id"]})
		e.Problem(http.StatusConflict, "cycle", http.MethodPatch, docPath(mid), e.Admin, map[string]any{"parent": leaf["ref"]})
	})
	t.Run("move refusals", func(t *testing.T) {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"project": "beta"})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"parent": 9999})
		task := e.CreateTask(e.Admin, map[string]any{"title": "a task is no parent"})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"parent": task["ref"]})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/documents/9999/move", e.Admin, map[string]any{"parent": nil})
	})
	t.Run("under a document in another project refiles the subtree", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"parent": other["ref"]})
		tskWant(t, got, map[string]any{"project_key": "beta", "parent_ref": other["ref"]})
		tskWant(t, e.OK(http.StatusOK, http.MethodGet, docPath(leaf), e.Admin, nil), map[string]any{"project_key": "beta", "parent_ref": mid["ref"]})
		evs := e.docEvents(e.Admin, docPath(leaf))
		if last := evs[len(evs)-1]; last["action"] != "document.moved" || fmt.Sprint(last["changes"]) != fmt.Sprintf("map[project:beta with:%d]", lstNum(mid["ref"])) {
			t.Fatalf("the leaf's move: %v", last)
		}
	})
	t.Run("null is the top level of its project", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"parent": nil})
		tskWant(t, got, map[string]any{"project_key": "beta", "parent_ref": nil})
	})
	t.Run("PATCH project refiles at the top level", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, docPath(mid), e.Admin, map[string]any{"project": "alpha"})
		tskWant(t, got, map[string]any{"project_key": "alpha", "parent_ref": nil, "sub_documents": 1})
		tskWant(t, e.OK(http.StatusOK, http.MethodGet, docPath(leaf), e.Admin, nil), map[string]any{"project_key": "alpha"})
		e.OK(http.StatusOK, http.MethodPost, docPath(mid, "move"), e.Admin, map[string]any{"parent": root["ref"]})
	})
	t.Run("trash takes the sub-documents; restore brings them back", func(t *testing.T) {
		e.OK(http.StatusOK, http.MethodDelete, docPath(leaf), e.Admin, nil)
		e.Clock.Advance(time.Second) // trashed at another instant than the root
		got := e.OK(http.StatusOK, http.MethodDelete, docPath(root), e.Admin, nil)
		if got["deleted_at"] == nil {
			t.Fatal(got)
		}
		for _, d := range []map[string]any{root, mid, leaf} {
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, docPath(d), e.Admin, nil)
		}
		trash := lstRefs(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?deleted=true", e.Admin, nil)))
		if fmt.Sprint(trash) != fmt.Sprint([]int64{lstNum(root["ref"]), lstNum(mid["ref"]), lstNum(leaf["ref"])}) {
			t.Fatalf("trash %v", trash)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, docPath(other, "restore"), e.Admin, nil)
		got = e.OK(http.StatusOK, http.MethodPost, docPath(root, "restore"), e.Admin, nil)
		tskWant(t, got, map[string]any{"deleted_at": nil, "sub_documents": 1})
		e.OK(http.StatusOK, http.MethodGet, docPath(mid), e.Admin, nil)
		// The leaf was trashed on its own, earlier: it stays in the trash.
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, docPath(leaf), e.Admin, nil)
		acts := tskActions(e.docEvents(e.Admin, docPath(root)))
		if !slices.Contains(acts, "document.deleted") || acts[len(acts)-1] != "document.restored" {
			t.Fatalf("actions %v", acts)
		}
		if acts := tskActions(e.docEvents(e.Admin, docPath(mid))); !slices.Contains(acts, "document.restored") {
			t.Fatalf("the sub-document's actions %v", acts)
		}
	})
	t.Run("trashing the project hides its documents", func(t *testing.T) {
		e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/beta", e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, docPath(other), e.Admin, nil)
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?limit=500", e.Admin, nil)) {
			if it["id"] == other["id"] {
				t.Fatal("a document of a trashed project is listed")
			}
		}
		e.OK(http.StatusOK, http.MethodPost, "/v1/projects/beta/restore", e.Admin, nil)
		e.OK(http.StatusOK, http.MethodGet, docPath(other), e.Admin, nil)
	})
}

func TestDocumentVocabulary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sts := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/statuses?entity_type=document", e.Admin, nil))
	var keys []string
	for _, st := range sts {
		keys = append(keys, st["key"].(string))
	}
	if fmt.Sprint(keys) != "[current draft archived superseded]" {
		t.Fatalf("document statuses %v", keys)
	}
	st := e.OK(http.StatusCreated, http.MethodPost, "/v1/statuses", e.Admin, map[string]any{"entity_type": "document", "key": "review",
		"label": "In review", "category": "todo"})
	doc := e.docCreate(e.Admin, map[string]any{"title": "x", "status": "review", "tags": []string{"Temp", "keep"}})
	e.Problem(http.StatusConflict, "status_in_use", http.MethodDelete, "/v1/statuses/"+st["id"].(string), e.Admin, nil)
	e.OK(http.StatusOK, http.MethodDelete, docPath(doc), e.Admin, nil)
	// The trash still counts.
	e.Problem(http.StatusConflict, "status_in_use", http.MethodDelete, "/v1/statuses/"+st["id"].(string), e.Admin, nil)
	e.OK(http.StatusOK, http.MethodPost, docPath(doc, "restore"), e.Admin, nil)
	e.OK(http.StatusOK, http.MethodPatch, docPath(doc), e.Admin, map[string]any{"status": "current"})
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/statuses/"+st["id"].(string), e.Admin, nil)

	tag := e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)
	for _, tg := range lstItems(tag) {
		if tg["name"] == "Temp" {
			e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+tg["id"].(string), e.Admin, nil)
		}
	}
	tskWant(t, e.OK(http.StatusOK, http.MethodGet, docPath(doc), e.Admin, nil), map[string]any{"tags": []any{"keep"}})
	if n := len(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?tag=KEEP", e.Admin, nil))); n != 1 {
		t.Fatalf("tag filter is case-insensitive: %d", n)
	}
}
