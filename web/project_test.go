package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"tend/web/webtest"
)

// prjListed reports whether a listing holds an item whose field equals value.
func prjListed(items []map[string]any, field, value string) bool {
	for _, it := range items {
		if it[field] == value {
			return true
		}
	}
	return false
}

func TestProjectCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	adminID := me["user"].(map[string]any)["id"]

	t.Run("key validation", func(t *testing.T) { // the domain's refusals are app's TestProjectCreate
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/projects", e.Admin,
			map[string]any{"key": "Alpha", "title": "T"})
		assertLoc(t, p, "body.key")
		p = e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/projects", e.Admin,
			map[string]any{"key": "sets", "title": "T", "settings": map[string]any{"no_such_setting": 1}})
		assertLoc(t, p, "body.settings.no_such_setting")
	})

	t.Run("defaults, owner and first member row", func(t *testing.T) {
		p := e.prjNew(e.Admin, map[string]any{"key": "alpha", "title": "Alpha"})
		got := map[string]any{"key": p["key"], "path": p["path"], "depth": p["depth"], "status": p["status"],
			"status_category": p["status_category"], "status_is_default": p["status_is_default"], "visibility": p["visibility"],
			"is_inbox": p["is_inbox"], "owner_id": p["owner_id"], "parent_id": p["parent_id"], "deleted_at": p["deleted_at"],
			"version": p["version"]}
		want := map[string]any{"key": "alpha", "path": "alpha", "depth": 0.0, "status": "active",
			"status_category": "in_progress", "status_is_default": true, "visibility": "public",
			"is_inbox": false, "owner_id": adminID, "parent_id": nil, "deleted_at": nil, "version": 1.0}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v\nwant %v", got, want)
		}
		ms := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/alpha/members", e.Admin, nil))
		if len(ms) != 1 || ms[0]["user"].(map[string]any)["username"] != "admin" || ms[0]["project"] != "alpha" {
			t.Fatalf("members = %v, want the owner's row only", ms)
		}
		byID := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/"+p["id"].(string), e.Admin, nil)
		if byID["key"] != "alpha" {
			t.Fatalf("GET by id = %v", byID)
		}
		if e.OK(http.StatusOK, http.MethodGet, "/v1/projects/ALPHA", e.Admin, nil)["key"] != "alpha" {
			t.Fatal("a key in the URL is matched case-insensitively")
		}
	})

	t.Run("duplicate key", func(t *testing.T) {
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "alpha", "title": "Again"})
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "inbox", "title": "Inbox 2"})
	})

	t.Run("a trashed project keeps its key", func(t *testing.T) {
		e.prjNew(e.Admin, map[string]any{"key": "gone", "title": "Gone"})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/gone", e.Admin, nil)
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "gone", "title": "Gone again"})
	})

	t.Run("status named on create", func(t *testing.T) {
		p := e.prjNew(e.Admin, map[string]any{"key": "later", "title": "Later", "status": "planned", "visibility": "private"})
		if p["status"] != "planned" || p["status_category"] != "todo" || p["status_is_default"] != false || p["visibility"] != "private" {
			t.Fatalf("got %v", p)
		}
	})
}

// prjPlaced fails the test unless project p sits at path and depth under
// the project whose id is parent (nil: at the top level).
func prjPlaced(t *testing.T, p map[string]any, path string, depth float64, parent any) {
	t.Helper()
	if p["path"] != path || p["depth"] != depth || p["parent_id"] != parent {
		t.Fatalf("%v: path %v depth %v parent %v, want %s %v %v", p["key"], p["path"], p["depth"], p["parent_id"], path, depth, parent)
	}
}

// prjAt fails the test unless GET reads project key at path and depth.
func (e *env) prjAt(t *testing.T, key, path string, depth float64) {
	t.Helper()
	p := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/"+key, e.Admin, nil)
	if p["path"] != path || p["depth"] != depth {
		t.Fatalf("GET %s: path %v depth %v, want %s %v", key, p["path"], p["depth"], path, depth)
	}
}

// prjChain creates the projects keys, each under the one before it, the
// first at the top level; each is titled with its key in capitals.
func (e *env) prjChain(keys ...string) {
	e.T.Helper()
	for i, key := range keys {
		body := map[string]any{"key": key, "title": strings.ToUpper(key)}
		if i > 0 {
			body["parent"] = keys[i-1]
		}
		e.prjNew(e.Admin, body)
	}
}

func TestProjectNesting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.prjNew(e.Admin, map[string]any{"key": "a", "title": "A"})
	b := e.prjNew(e.Admin, map[string]any{"key": "b", "title": "B", "parent": "a"})
	c := e.prjNew(e.Admin, map[string]any{"key": "c", "title": "C", "parent": b["id"]})
	prjPlaced(t, a, "a", 0, nil)
	prjPlaced(t, b, "a/b", 1, a["id"])
	prjPlaced(t, c, "a/b/c", 2, b["id"])
	got := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects", e.Admin, nil)), "path")
	want := []string{"a", "a/b", "a/b/c", "inbox"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GET /v1/projects paths = %v, want %v (tree order)", got, want)
	}
	e.prjAt(t, "c", "a/b/c", 2)
}

func TestProjectUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjNew(e.Admin, map[string]any{"key": "alpha", "title": "Alpha", "description": "words"})

	p := e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/alpha", e.Admin,
		map[string]any{"title": "Alpha two", "visibility": "private", "status": "on_hold", "settings": map[string]any{"week_start": "sunday"}})
	if p["title"] != "Alpha two" || p["visibility"] != "private" || p["status"] != "on_hold" || p["status_category"] != "todo" || p["version"] != 2.0 {
		t.Fatalf("got %v", p)
	}
	if s := p["settings"].(map[string]any); s["week_start"] != "sunday" {
		t.Fatalf("settings %v", s)
	}
	if p["description"] != "words" {
		t.Fatalf("an omitted field stays: description %v", p["description"])
	}
	if p := e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/alpha", e.Admin, map[string]any{"description": nil}); p["description"] != nil {
		t.Fatalf("null clears: description %v", p["description"])
	}

	t.Run("refusals", func(t *testing.T) { // the domain's refusals are app's TestProjectUpdate
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/projects/alpha", e.Admin, map[string]any{"key": "beta"})
		assertLoc(t, p, "body.key")
		e.sub(t).Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/projects/nosuch", e.Admin, map[string]any{"title": "X"})
	})

	t.Run("expected_version", func(t *testing.T) {
		cur := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/alpha", e.Admin, nil)
		v := int(cur["version"].(float64))
		e.Problem(http.StatusConflict, "version_conflict", http.MethodPatch, "/v1/projects/alpha", e.Admin,
			map[string]any{"title": "Stale", "expected_version": v - 1})
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/alpha", e.Admin, nil); got["title"] != cur["title"] {
			t.Fatalf("a refused write changed the title to %v", got["title"])
		}
		p := e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/alpha", e.Admin, map[string]any{"title": "Fresh", "expected_version": v})
		if p["title"] != "Fresh" || p["version"] != float64(v+1) {
			t.Fatalf("got %v", p)
		}
	})
}

func TestProjectMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjChain("a", "b", "c")
	d := e.prjNew(e.Admin, map[string]any{"key": "d", "title": "D"})
	task := e.prjTask(e.Admin, "in c", "c")

	b := e.OK(http.StatusOK, http.MethodPost, "/v1/projects/b/move", e.Admin, map[string]any{"parent": "d"})
	prjPlaced(t, b, "d/b", 1, d["id"])
	e.prjAt(t, "c", "d/b/c", 2) // the subtree moves with it
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+prjRef(task), e.Admin, nil); got["project_path"] != "d/b/c" {
		t.Fatalf("task project_path = %v", got["project_path"])
	}

	t.Run("cycle", func(t *testing.T) {
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, "/v1/projects/d/move", e.Admin, map[string]any{"parent": "c"})
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, "/v1/projects/d/move", e.Admin, map[string]any{"parent": "d"})
		e.Problem(http.StatusConflict, "cycle", http.MethodPatch, "/v1/projects/b", e.Admin, map[string]any{"parent": "c"})
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/d", e.Admin, nil); got["path"] != "d" {
			t.Fatalf("a refused move moved d to %v", got["path"])
		}
	})

	t.Run("bad bodies", func(t *testing.T) {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/projects/b/move", e.Admin, map[string]any{})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/projects/b/move", e.Admin, map[string]any{"parent": "nowhere"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/projects/nowhere/move", e.Admin, map[string]any{"parent": nil})
	})

	t.Run("to the top level", func(t *testing.T) {
		b := e.OK(http.StatusOK, http.MethodPost, "/v1/projects/b/move", e.Admin, map[string]any{"parent": nil})
		prjPlaced(t, b, "b", 0, nil)
		e.prjAt(t, "c", "b/c", 1)
	})

	t.Run("through PATCH parent", func(t *testing.T) {
		c := e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/c", e.Admin, map[string]any{"parent": "a"})
		if c["path"] != "a/c" {
			t.Fatalf("c = %v", c)
		}
	})

	ev := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/b/events", e.Admin, nil))
	if len(ev) == 0 || ev[0]["action"] != "project.moved" {
		t.Fatalf("b's newest event = %v, want project.moved", ev)
	}
}

func TestProjectDeleteAndRestore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjChain("a", "b")
	e.prjNew(e.Admin, map[string]any{"key": "keep", "title": "Keep"})
	ta := e.prjTask(e.Admin, "task in a", "a")
	tb := e.prjTask(e.Admin, "task in b", "b")
	tk := e.prjTask(e.Admin, "task kept", "keep")
	listed := func() []string {
		return prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", e.Admin, nil)), "title")
	}

	del := e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/a", e.Admin, nil)
	if del["key"] != "a" || del["deleted_at"] == nil {
		t.Fatalf("DELETE returns the trashed project: %v", del)
	}
	for _, key := range []string{"a", "b"} {
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/"+key, e.Admin, nil)
	}
	for _, tk := range []map[string]any{ta, tb} {
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+prjRef(tk), e.Admin, nil)
	}
	if got := listed(); !reflect.DeepEqual(got, []string{"task kept"}) {
		t.Fatalf("task listing = %v, want only the kept one", got)
	}
	projects := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects", e.Admin, nil)), "key")
	if !reflect.DeepEqual(projects, []string{"inbox", "keep"}) {
		t.Fatalf("projects = %v", projects)
	}
	trash := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects?deleted=true", e.Admin, nil))
	if !prjListed(trash, "key", "a") {
		t.Fatalf("trash = %v, want a in it", trash)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "x", "project": "b"})
	e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/projects/b/restore", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/projects/keep/restore", e.Admin, nil)

	res := e.OK(http.StatusOK, http.MethodPost, "/v1/projects/a/restore", e.Admin, nil)
	if res["deleted_at"] != nil || res["path"] != "a" {
		t.Fatalf("restored = %v", res)
	}
	if b := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/b", e.Admin, nil); b["deleted_at"] != nil || b["path"] != "a/b" {
		t.Fatalf("b after restore = %v", b)
	}
	for _, tk := range []map[string]any{ta, tb, tk} {
		e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+prjRef(tk), e.Admin, nil)
	}
	if got := listed(); len(got) != 3 {
		t.Fatalf("task listing after restore = %v", got)
	}
	ev := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events", e.Admin, nil))
	if got := prjStrings(ev, "action"); len(got) < 2 || got[0] != "project.restored" || got[1] != "project.deleted" {
		t.Fatalf("a's history = %v", got)
	}

	t.Run("inbox", func(t *testing.T) {
		e.Problem(http.StatusConflict, "inbox_protected", http.MethodDelete, "/v1/projects/inbox", e.Admin, nil)
		// Under another project, trashing that one would take the inbox along.
		e.Problem(http.StatusConflict, "inbox_protected", http.MethodPost, "/v1/projects/inbox/move", e.Admin, map[string]any{"parent": "keep"})
		e.Problem(http.StatusConflict, "inbox_protected", http.MethodPatch, "/v1/projects/inbox", e.Admin, map[string]any{"parent": "keep"})
		e.OK(http.StatusOK, http.MethodPost, "/v1/projects/inbox/move", e.Admin, map[string]any{"parent": nil})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/keep", e.Admin, nil)
		if p := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/inbox", e.Admin, nil); p["path"] != "inbox" || p["deleted_at"] != nil {
			t.Fatalf("inbox = %v", p)
		}
		if task := e.prjTask(e.Admin, "unfiled", ""); task["project_path"] != "inbox" {
			t.Fatalf("unfiled work lands in %v", task["project_path"])
		}
	})
}

func TestProjectViewerCannotWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjNew(e.Admin, map[string]any{"key": "a", "title": "A"})
	e.prjNew(e.Admin, map[string]any{"key": "b", "title": "B"})
	vera := e.Member("vera", "viewer")

	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a", vera, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/members", vera, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/settings", vera, nil)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodPost, "/v1/projects", map[string]any{"key": "v", "title": "V"}},
		{http.MethodPost, "/v1/projects", map[string]any{"key": "v", "title": "V", "parent": "a"}},
		{http.MethodPatch, "/v1/projects/a", map[string]any{"title": "Mine"}},
		{http.MethodDelete, "/v1/projects/a", nil},
		{http.MethodPost, "/v1/projects/a/move", map[string]any{"parent": "b"}},
		{http.MethodPost, "/v1/projects/a/members", map[string]any{"username": "admin"}},
		{http.MethodDelete, "/v1/projects/a/members/admin", nil},
		{http.MethodPut, "/v1/projects/a/roles/vera", map[string]any{"role": "member"}},
		{http.MethodPost, "/v1/tasks", map[string]any{"title": "T", "project": "a"}},
		{http.MethodPost, "/v1/tasks", map[string]any{"title": "T"}},
	} {
		r := e.Do(c.method, c.path, vera, c.body)
		webtest.AssertProblem(t, r, http.StatusForbidden, "forbidden")
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a", vera, nil); got["title"] != "A" {
		t.Fatalf("a refused write changed a: %v", got)
	}
}

func TestProjectPrivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mo := e.Member("mo", "member")
	e.prjNew(e.Admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	e.prjNew(e.Admin, map[string]any{"key": "inner", "title": "Inner", "parent": "secret"})
	task := e.prjTask(e.Admin, "hidden work", "inner")

	hidden := func() {
		t.Helper()
		for _, key := range []string{"secret", "inner"} {
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/"+key, mo, nil)
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/"+key+"/events", mo, nil)
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/"+key+"/settings", mo, nil)
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/"+key+"/members", mo, nil)
			e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/projects/"+key, mo, map[string]any{"title": "x"})
		}
		keys := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects", mo, nil)), "key")
		if !reflect.DeepEqual(keys, []string{"inbox"}) {
			t.Fatalf("mo sees projects %v", keys)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+prjRef(task), mo, nil)
		if ts := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", mo, nil)); len(ts) != 0 {
			t.Fatalf("mo lists tasks %v", ts)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", mo, map[string]any{"title": "x", "project": "secret"})
	}
	hidden()
	// Asking for a hidden project by its id answers the same as an unknown id.
	id := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/secret", e.Admin, nil)["id"].(string)
	a := e.Do(http.MethodGet, "/v1/projects/"+id, mo, nil)
	b := e.Do(http.MethodGet, "/v1/projects/00000000-0000-4000-8000-000000000000", mo, nil)
	webtest.AssertProblem(t, a, http.StatusNotFound, "not_found")
	webtest.AssertProblem(t, b, http.StatusNotFound, "not_found")
	pa, pb := a.JSON(t), b.JSON(t)
	delete(pa, "instance")
	delete(pb, "instance")
	if !reflect.DeepEqual(pa, pb) {
		t.Fatalf("a hidden project answers differently from a missing one:\n%s\n%s", a.Body, b.Body)
	}

	m := e.OK(http.StatusCreated, http.MethodPost, "/v1/projects/secret/members", e.Admin, map[string]any{"username": "mo"})
	if m["user"].(map[string]any)["username"] != "mo" || m["project"] != "secret" {
		t.Fatalf("share = %v", m)
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/secret", mo, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/inner", mo, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+prjRef(task), mo, nil)
	keys := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects", mo, nil)), "key")
	if !reflect.DeepEqual(keys, []string{"inbox", "secret", "inner"}) {
		t.Fatalf("mo sees projects %v after sharing", keys)
	}

	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/projects/secret/members/mo", e.Admin, nil)
	hidden()
}

// TestProjectOtherWorkspace: a project in a workspace the caller cannot
// reach answers like one that does not exist, by id or by key.
func TestProjectOtherWorkspace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mo := e.Member("mo", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "other", "name": "Other"})
	e.Problem(http.StatusUnprocessableEntity, "workspace_required", http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "x", "title": "X"})
	far := e.OK(http.StatusCreated, http.MethodPost, "/v1/projects?workspace_id=other", e.Admin, map[string]any{"key": "far", "title": "Far"})
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/"+far["id"].(string), e.Admin, nil); got["key"] != "far" {
		t.Fatalf("by id without workspace_id: %v", got)
	}
	unknown := e.Do(http.MethodGet, "/v1/projects/00000000-0000-4000-8000-000000000000", mo, nil)
	webtest.AssertProblem(t, unknown, http.StatusNotFound, "not_found")
	for _, path := range []string{"", "/settings", "/events", "/members"} {
		r := e.Do(http.MethodGet, "/v1/projects/"+far["id"].(string)+path, mo, nil)
		webtest.AssertProblem(t, r, http.StatusNotFound, "not_found")
		if got, want := r.JSON(t)["detail"], unknown.JSON(t)["detail"]; got != want {
			t.Fatalf("GET %s: detail %q tells the id exists (unknown id: %q)", path, got, want)
		}
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/far?workspace_id=other", mo, nil)
	if keys := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects", mo, nil)), "key"); !reflect.DeepEqual(keys, []string{"inbox"}) {
		t.Fatalf("mo lists %v", keys)
	}
}

func TestProjectMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Member("mo", "member")
	e.Person("outsider")
	e.prjNew(e.Admin, map[string]any{"key": "p", "title": "P", "visibility": "private"})
	e.prjNew(e.Admin, map[string]any{"key": "pub", "title": "Public"})
	path := "/v1/projects/p/members"

	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"username": "outsider"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"username": "nobody"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"username": ""})
	e.OK(http.StatusCreated, http.MethodPost, path, e.Admin, map[string]any{"username": "mo"})
	e.Problem(http.StatusConflict, "already_member", http.MethodPost, path, e.Admin, map[string]any{"username": "mo"})
	e.Problem(http.StatusConflict, "already_member", http.MethodPost, path, e.Admin, map[string]any{"username": "admin"})

	got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil))
	names := []string{}
	for _, m := range got {
		names = append(names, m["user"].(map[string]any)["username"].(string))
	}
	if !reflect.DeepEqual(names, []string{"admin", "mo"}) {
		t.Fatalf("members = %v, want the owner first", names)
	}

	e.Problem(http.StatusConflict, "project_owner_row", http.MethodDelete, path+"/admin", e.Admin, nil)
	e.OK(http.StatusNoContent, http.MethodDelete, path+"/mo", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, path+"/mo", e.Admin, nil)
	e.Problem(http.StatusConflict, "last_project_member", http.MethodDelete, path+"/admin", e.Admin, nil)
	e.Problem(http.StatusConflict, "last_project_member", http.MethodDelete, "/v1/projects/pub/members/admin", e.Admin, nil)
	if got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)); len(got) != 1 {
		t.Fatalf("members = %v", got)
	}
	ev := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/p/events?order=seq", e.Admin, nil)), "action")
	if !reflect.DeepEqual(ev, []string{"project.created", "project.shared", "project.unshared"}) {
		t.Fatalf("history = %v", ev)
	}
}

func TestProjectRoles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	vic := e.Member("vic", "viewer")
	mem := e.Member("mem", "member")
	ada := e.Member("ada", "admin")
	e.prjNew(e.Admin, map[string]any{"key": "alpha", "title": "Alpha"})
	e.prjNew(e.Admin, map[string]any{"key": "sub", "title": "Sub", "parent": "alpha"})
	e.prjNew(e.Admin, map[string]any{"key": "beta", "title": "Beta"})

	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "T", "project": "alpha"})
	if got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/me/projects", vic, nil)); len(got) != 0 {
		t.Fatalf("no project roles yet: %v", got)
	}

	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPut, "/v1/projects/alpha/roles/vic", e.Admin, map[string]any{"role": "boss"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPut, "/v1/projects/alpha/roles/vic", mem, map[string]any{"role": "member"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPut, "/v1/projects/alpha/roles/vic", ada, map[string]any{"role": "owner"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPut, "/v1/projects/alpha/roles/nobody", e.Admin, map[string]any{"role": "member"})
	grant := e.OK(http.StatusOK, http.MethodPut, "/v1/projects/alpha/roles/vic", e.Admin, map[string]any{"role": "member"})
	if grant["role"] != "member" || grant["username"] != "vic" {
		t.Fatalf("grant = %v", grant)
	}

	created := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "mine", "project": "alpha"})
	if created["project_path"] != "alpha" {
		t.Fatalf("task = %v", created)
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "below", "project": "sub"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "T", "project": "beta"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "T"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/projects", vic, map[string]any{"key": "top", "title": "Top"})

	access := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/me/projects", vic, nil))
	if len(access) != 1 {
		t.Fatalf("/v1/me/projects = %v", access)
	}
	pa := access[0]
	alpha := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/alpha", vic, nil)
	if pa["address"] != "default/alpha" || pa["role"] != "member" || pa["id"] != alpha["id"] {
		t.Fatalf("access = %v", pa)
	}
	perms := map[string]bool{}
	for _, p := range pa["permissions"].([]any) {
		perms[p.(string)] = true
	}
	for _, p := range []string{"item:read", "item:write", "project:read", "project:write"} {
		if !perms[p] {
			t.Errorf("permissions %v lack %s", pa["permissions"], p)
		}
	}
	if perms["workspace:write"] {
		t.Errorf("a project role grants no workspace permission: %v", pa["permissions"])
	}

	// The replacement works downwards too: a workspace member made a viewer
	// of beta reads there and writes nowhere in it.
	e.OK(http.StatusOK, http.MethodPut, "/v1/projects/beta/roles/mem", e.Admin, map[string]any{"role": "viewer"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", mem, map[string]any{"title": "T", "project": "beta"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/projects/beta", mem, map[string]any{"title": "Mine"})
	e.OK(http.StatusOK, http.MethodGet, "/v1/projects/beta", mem, nil)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", mem, map[string]any{"title": "T", "project": "alpha"})
	if got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/me/projects", mem, nil)); len(got) != 1 || got[0]["role"] != "viewer" || got[0]["address"] != "default/beta" {
		t.Fatalf("mem's project roles %v", got)
	}

	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/projects/alpha/roles/vic", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/projects/alpha/roles/vic", e.Admin, nil)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tasks", vic, map[string]any{"title": "T", "project": "alpha"})
	if got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/me/projects", vic, nil)); len(got) != 0 {
		t.Fatalf("after removal: %v", got)
	}
}

func TestProjectSettingsInForce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	parent := e.prjNew(e.Admin, map[string]any{"key": "parent", "title": "Parent"})
	e.prjNew(e.Admin, map[string]any{"key": "child", "title": "Child", "parent": "parent"})
	e.prjNew(e.Admin, map[string]any{"key": "leaf", "title": "Leaf", "parent": "child"})
	settings := func(path string) []map[string]any {
		t.Helper()
		return prjItems(t, e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil))
	}
	wsSettings := settings("/v1/workspaces/default/settings")
	defClaim := itemWhere(t, wsSettings, "key", "claim_minutes")["default"]
	defDepth := itemWhere(t, wsSettings, "key", "tree_depth")["default"]
	for _, it := range wsSettings {
		if it["set_here"] != false || it["inherited_from"] != nil || !reflect.DeepEqual(it["value"], it["default"]) {
			t.Fatalf("fresh workspace setting %v", it)
		}
	}

	p := e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/parent", e.Admin, map[string]any{"settings": map[string]any{"claim_minutes": 45}})
	if p["settings"].(map[string]any)["claim_minutes"] != 45.0 {
		t.Fatalf("settings %v", p["settings"])
	}
	here := itemWhere(t, settings("/v1/projects/parent/settings"), "key", "claim_minutes")
	if here["value"] != 45.0 || here["set_here"] != true || here["inherited_from"] != nil || here["default"] != defClaim {
		t.Fatalf("parent claim_minutes %v", here)
	}
	for _, key := range []string{"child", "leaf"} {
		got := itemWhere(t, settings("/v1/projects/"+key+"/settings"), "key", "claim_minutes")
		want := map[string]any{"key": "claim_minutes", "value": 45.0, "default": defClaim, "set_here": false,
			"inherited_from": map[string]any{"level": "project", "id": parent["id"], "address": "parent"}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s claim_minutes\n got %v\nwant %v", key, got, want)
		}
	}

	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/child", e.Admin, map[string]any{"settings": map[string]any{"claim_minutes": 20}})
	got := itemWhere(t, settings("/v1/projects/leaf/settings"), "key", "claim_minutes")
	if got["value"] != 20.0 || got["inherited_from"].(map[string]any)["address"] != "parent/child" {
		t.Fatalf("the nearest ancestor wins: %v", got)
	}

	e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/default", e.Admin, map[string]any{"settings": map[string]any{"tree_depth": 5}})
	ws := itemWhere(t, settings("/v1/workspaces/default/settings"), "key", "tree_depth")
	if ws["value"] != 5.0 || ws["set_here"] != true || ws["inherited_from"] != nil {
		t.Fatalf("workspace tree_depth %v", ws)
	}
	td := itemWhere(t, settings("/v1/projects/leaf/settings"), "key", "tree_depth")
	src, _ := td["inherited_from"].(map[string]any)
	if td["value"] != 5.0 || td["set_here"] != false || src["level"] != "workspace" || src["address"] != "default" {
		t.Fatalf("leaf tree_depth %v", td)
	}

	// null clears, and the next level up shows through.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/child", e.Admin, map[string]any{"settings": map[string]any{"claim_minutes": nil}})
	if got := itemWhere(t, settings("/v1/projects/leaf/settings"), "key", "claim_minutes"); got["value"] != 45.0 {
		t.Fatalf("after clearing child: %v", got)
	}
	p = e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/parent", e.Admin, map[string]any{"settings": map[string]any{"claim_minutes": nil}})
	if _, ok := p["settings"].(map[string]any)["claim_minutes"]; ok {
		t.Fatalf("settings after clearing %v", p["settings"])
	}
	for _, key := range []string{"parent", "child", "leaf"} {
		got := itemWhere(t, settings("/v1/projects/"+key+"/settings"), "key", "claim_minutes")
		if got["value"] != defClaim || got["set_here"] != false || got["inherited_from"] != nil {
			t.Fatalf("%s after clearing: %v", key, got)
		}
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/default", e.Admin, map[string]any{"settings": map[string]any{"tree_depth": nil}})
	ws = itemWhere(t, settings("/v1/workspaces/default/settings"), "key", "tree_depth")
	if ws["value"] != defDepth || ws["set_here"] != false {
		t.Fatalf("workspace tree_depth after clearing %v", ws)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/workspaces/default", e.Admin,
		map[string]any{"settings": map[string]any{"bogus": 1}})

	// "settings": null clears every setting of the project.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/leaf", e.Admin, map[string]any{"settings": map[string]any{"week_start": "sunday", "tree_depth": 2}})
	if got := itemWhere(t, settings("/v1/projects/leaf/settings"), "key", "week_start"); got["value"] != "sunday" || got["set_here"] != true {
		t.Fatalf("leaf week_start %v", got)
	}
	p = e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/leaf", e.Admin, map[string]any{"settings": nil})
	if len(p["settings"].(map[string]any)) != 0 {
		t.Fatalf("settings after null: %v", p["settings"])
	}
	for _, it := range settings("/v1/projects/leaf/settings") {
		if it["set_here"] != false {
			t.Fatalf("after settings null: %v", it)
		}
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/nosuch/settings", e.Admin, nil)
}

func TestProjectEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.prjNew(e.Admin, map[string]any{"key": "a", "title": "A0"})
	e.prjNew(e.Admin, map[string]any{"key": "other", "title": "Other"})
	for i := 1; i <= 6; i++ {
		e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/a", e.Admin, map[string]any{"title": fmt.Sprintf("A%d", i)})
	}
	seqs := func(items []map[string]any) []float64 {
		out := []float64{}
		for _, it := range items {
			out = append(out, it["seq"].(float64))
		}
		return out
	}
	newest := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events", e.Admin, nil))
	if len(newest) != 7 || newest[0]["action"] != "project.updated" || newest[6]["action"] != "project.created" {
		t.Fatalf("newest first: %v", prjStrings(newest, "action"))
	}
	for _, ev := range newest {
		if ev["entity_type"] != "project" || ev["entity_id"] == nil {
			t.Fatalf("event %v", ev)
		}
	}
	oldest := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events?order=seq", e.Admin, nil))
	down, up := seqs(newest), seqs(oldest)
	for i := range down {
		if up[i] != down[len(down)-1-i] || (i > 0 && up[i] <= up[i-1]) {
			t.Fatalf("order=seq %v is not the reverse of %v", up, down)
		}
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events?order=-seq", e.Admin, nil); !reflect.DeepEqual(seqs(prjItems(t, got)), down) {
		t.Fatal("order=-seq differs from the default")
	}

	walk := func(order string) ([]float64, string) {
		var all []float64
		cursor, last := "", ""
		for pages := 0; ; pages++ {
			if pages > 10 {
				t.Fatal("cursor paging does not end")
			}
			q := url.Values{"limit": {"3"}, "order": {order}}
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			m := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events?"+q.Encode(), e.Admin, nil)
			items := prjItems(t, m)
			page := m["page"].(map[string]any)
			if len(items) > 3 || page["limit"] != 3.0 {
				t.Fatalf("page %v with %d items", page, len(items))
			}
			all = append(all, seqs(items)...)
			if page["has_more"] != true {
				if page["next_cursor"] != nil {
					t.Fatalf("last page carries a cursor: %v", page)
				}
				return all, last
			}
			cursor = page["next_cursor"].(string)
			last = cursor
		}
	}
	gotDown, cursorDown := walk("-seq")
	if !reflect.DeepEqual(gotDown, down) {
		t.Fatalf("paging newest first = %v, want %v", gotDown, down)
	}
	gotUp, cursorUp := walk("seq")
	if !reflect.DeepEqual(gotUp, up) {
		t.Fatalf("paging oldest first = %v, want %v", gotUp, up)
	}

	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/other/events?cursor="+url.QueryEscape(cursorDown), e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?order=seq&cursor="+url.QueryEscape(cursorDown), e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?cursor="+url.QueryEscape(cursorUp), e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?cursor=garbage", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?order=created_at", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?limit=-1", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?format=ids&fields=seq", e.Admin, nil)

	ids := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events?format=ids", e.Admin, nil)["items"].([]any)
	if len(ids) != 7 || ids[0] != newest[0]["id"] {
		t.Fatalf("format=ids = %v", ids)
	}
	picked := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/projects/a/events?fields=seq,action", e.Admin, nil))
	if len(picked) != 7 || len(picked[0]) != 2 || picked[0]["seq"] != newest[0]["seq"] || picked[0]["action"] != "project.updated" {
		t.Fatalf("fields=seq,action = %v", picked[0])
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/projects/a/events?fields=nonsense", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/nosuch/events", e.Admin, nil)
}
