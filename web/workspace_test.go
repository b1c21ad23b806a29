package web_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"tend/web/webtest"
)

// withoutInstance returns a problem without its instance member, which names
// the path asked for and so differs between otherwise identical answers.
func withoutInstance(p map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range p {
		if k != "instance" {
			out[k] = v
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

func TestWorkspaceCreate(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")

	t.Run("creator becomes owner", func(t *testing.T) {
		e := e.sub(t)
		w := e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", bob,
			map[string]any{"slug": "Bobs-Place", "name": "  Bob's place ", "timezone": "Europe/Paris"})
		if w["slug"] != "bobs-place" || w["name"] != "Bob's place" || w["timezone"] != "Europe/Paris" || w["role"] != "owner" ||
			w["deleted_at"] != nil || w["version"] != float64(1) {
			t.Fatalf("created: %v", w)
		}
		if perms := w["permissions"].([]any); !containsAny(perms, "workspace:delete") || !containsAny(perms, "workspace:members") {
			t.Fatalf("an owner's permissions: %v", perms)
		}
		items, _ := e.listing("/v1/workspaces/bobs-place/members", bob)
		if len(items) != 1 {
			t.Fatalf("members %v", items)
		}
		m := items[0].(map[string]any)
		if m["role"] != "owner" || m["user"].(map[string]any)["username"] != "bob" || m["workspace"].(map[string]any)["slug"] != "bobs-place" {
			t.Fatalf("member %v", m)
		}
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", bob, nil)
		if got := field(me["workspaces"].([]any), "slug"); !reflect.DeepEqual(got, []string{"bobs-place"}) {
			t.Fatalf("bob's workspaces %v", got)
		}
	})

	t.Run("timezone defaults to the instance's", func(t *testing.T) {
		e := e.sub(t)
		w := e.createWorkspace(e.Admin, "ops", "Ops")
		if w["timezone"] != "UTC" {
			t.Fatalf("timezone %v", w["timezone"])
		}
	})

	// The domain's refusals are app's TestWorkspaceCreate; one here, and the wire's own.
	invalid := []struct {
		name string
		body map[string]any
		loc  string
	}{
		{"space in slug", map[string]any{"slug": "two words", "name": "X"}, "body.slug"},
		{"unknown field", map[string]any{"slug": "x", "name": "X", "owner": "bob"}, "body.owner"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			e := e.sub(t)
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/workspaces", bob, tc.body)
			assertLoc(t, p, tc.loc)
		})
	}

	t.Run("duplicate slug", func(t *testing.T) {
		e.sub(t).Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "DEFAULT", "name": "Again"})
	})

	t.Run("list and get", func(t *testing.T) {
		e := e.sub(t)
		items, page := e.listing("/v1/workspaces", e.Admin)
		if got, want := field(items, "slug"), []string{"default", "ops"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("admin's workspaces %v, want %v", got, want)
		}
		if page["has_more"] != false {
			t.Fatalf("page %v", page)
		}
		items, _ = e.listing("/v1/workspaces", bob)
		if got, want := field(items, "slug"), []string{"bobs-place"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("bob's workspaces %v, want %v", got, want)
		}
		w := items[0].(map[string]any)
		for _, ref := range []string{w["id"].(string), "bobs-place", "BOBS-PLACE"} {
			got := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/"+ref, bob, nil)
			if !reflect.DeepEqual(got, w) {
				t.Fatalf("GET %s: %v, want %v", ref, got, w)
			}
		}
	})
}

func TestWorkspaceUpdate(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Member("bob", "member")
	carol := e.Member("carol", "admin")
	e.createWorkspace(e.Admin, "taken", "Taken")

	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/workspaces/default", bob, map[string]any{"name": "Bob's"})

	w := e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/default", carol,
		map[string]any{"name": "Main", "slug": "main", "timezone": "Asia/Kolkata", "expected_version": 1})
	if w["name"] != "Main" || w["slug"] != "main" || w["timezone"] != "Asia/Kolkata" || w["version"] != float64(2) || w["role"] != "admin" {
		t.Fatalf("updated: %v", w)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/default", e.Admin, nil)
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/main", bob, nil); got["name"] != "Main" || got["version"] != float64(2) {
		t.Fatalf("after rename: %v", got)
	}

	// The domain's refusals are app's TestWorkspaceUpdate; one of each code here, and the wire's own.
	e.Problem(http.StatusConflict, "version_conflict", http.MethodPatch, "/v1/workspaces/main", carol, map[string]any{"name": "Stale", "expected_version": 1})
	for body, loc := range map[string]string{
		`{"slug":"Not A Slug"}`:    "body.slug",
		`{"color":"red"}`:          "body.color",
		`{"expected_version":"2"}`: "body.expected_version",
	} {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/workspaces/main", carol, body)
		assertLoc(t, p, loc)
	}

	checkRenameEvent(t, e, w["id"].(string))
}

// checkRenameEvent reads the events table from the test's database file and
// checks that the rename was recorded with what changed.
func checkRenameEvent(t *testing.T, e *env, workspaceID string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+e.DB.Path()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var changes string
	err = db.QueryRowContext(context.Background(), `SELECT changes FROM events
		WHERE workspace_id = ? AND action = 'workspace.updated' ORDER BY seq DESC LIMIT 1`, workspaceID).Scan(&changes)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal([]byte(changes), &got); err != nil {
		t.Fatalf("changes %q: %v", changes, err)
	}
	want := map[string]map[string]any{
		"name":     {"from": "Default", "to": "Main"},
		"slug":     {"from": "default", "to": "main"},
		"timezone": {"from": "UTC", "to": "Asia/Kolkata"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("event changes %v, want %v", got, want)
	}
}

func TestWorkspaceTrash(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	ws := e.createWorkspace(e.Admin, "ops", "Ops")
	carol := e.Person("carol")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/ops/members", e.Admin, map[string]any{"username": "carol", "role": "admin"})

	// Trashing needs workspace:delete, which only an owner holds.
	e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, "/v1/workspaces/ops", carol, nil)

	del := e.OK(http.StatusOK, http.MethodDelete, "/v1/workspaces/ops", e.Admin, nil)
	if del["id"] != ws["id"] || del["deleted_at"] == nil || del["version"] != float64(2) {
		t.Fatalf("deleted: %v", del)
	}
	items, _ := e.listing("/v1/workspaces", e.Admin)
	if got := field(items, "slug"); !reflect.DeepEqual(got, []string{"default"}) {
		t.Fatalf("live workspaces %v", got)
	}
	// What a trashed workspace refuses is app's TestWorkspaceTrash.
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/ops", e.Admin, nil)
	items, _ = e.listing("/v1/workspaces?deleted=true", e.Admin)
	if got := field(items, "slug"); !reflect.DeepEqual(got, []string{"ops"}) {
		t.Fatalf("trashed workspaces %v", got)
	}
	if items[0].(map[string]any)["deleted_at"] == nil {
		t.Fatalf("a trashed workspace shows deleted_at: %v", items[0])
	}
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/workspaces?deleted=maybe", e.Admin, nil)
	assertLoc(t, p, "query.deleted")

	res := e.OK(http.StatusOK, http.MethodPost, "/v1/workspaces/ops/restore", e.Admin, nil)
	if res["deleted_at"] != nil || res["version"] != float64(3) {
		t.Fatalf("restored: %v", res)
	}
	items, _ = e.listing("/v1/workspaces", e.Admin)
	if got := field(items, "slug"); !reflect.DeepEqual(got, []string{"default", "ops"}) {
		t.Fatalf("after restore %v", got)
	}
	items, _ = e.listing("/v1/workspaces?deleted=true", e.Admin)
	if len(items) != 0 {
		t.Fatalf("trash after restore %v", items)
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/ops", carol, nil)
}

func TestWorkspaceHiddenFromNonMembers(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	e.Member("bob", "member")
	mallory := e.Person("mallory")
	def := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/workspaces/"+e.createWorkspace(e.Admin, "trashed", "Trashed")["slug"].(string), e.Admin, nil)

	// Every Service call answers a non-member as an absent workspace (app's
	// TestWorkspaceDisclosure); here the wire answers alike, body and all,
	// for a read, a write and a member route.
	routes := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "", nil},
		{http.MethodPatch, "", map[string]any{"name": "Mine"}},
		{http.MethodPost, "/members", map[string]any{"username": "mallory", "role": "owner"}},
	}
	for _, ref := range []string{"default", def["id"].(string), "trashed"} {
		for _, rt := range routes {
			seen := e.Do(rt.method, "/v1/workspaces/"+ref+rt.path, mallory, rt.body)
			absent := e.Do(rt.method, "/v1/workspaces/no-such-place"+rt.path, mallory, rt.body)
			webtest.AssertProblem(t, seen, http.StatusNotFound, "not_found")
			webtest.AssertProblem(t, absent, http.StatusNotFound, "not_found")
			a, b := withoutInstance(seen.JSON(t)), withoutInstance(absent.JSON(t))
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s %s%s answers a non-member differently from a missing workspace:\n%v\n%v", rt.method, ref, rt.path, a, b)
			}
			if got, want := sortedKeys(seen.JSON(t)), sortedKeys(absent.JSON(t)); !reflect.DeepEqual(got, want) {
				t.Fatalf("body shapes differ: %v vs %v", got, want)
			}
		}
	}
	items, _ := e.listing("/v1/workspaces", mallory)
	if len(items) != 0 {
		t.Fatalf("a non-member lists nothing, got %v", items)
	}
	items, _ = e.listing("/v1/workspaces?deleted=true", mallory)
	if len(items) != 0 {
		t.Fatalf("a non-member lists no trash, got %v", items)
	}
	// Nothing the non-member tried changed anything.
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default", e.Admin, nil); !reflect.DeepEqual(got, def) {
		t.Fatalf("default changed: %v", got)
	}
	members, _ := e.listing("/v1/workspaces/default/members", e.Admin)
	if got, want := memberRoles(members), map[string]string{"admin": "owner", "bob": "member"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("members %v, want %v", got, want)
	}
}

// TestWorkspacePinnedToken checks a pinned credential on the wire; the
// rule, for people and the administrator, is app's TestWorkspacePinnedCredential.
func TestWorkspacePinnedToken(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Member("bob", "owner")
	e.createWorkspace(bob, "bobs", "Bob's")

	pinned := e.Issue(bob, map[string]any{"workspace": "default"})
	if pinned["workspace_id"] == nil || pinned["narrows"] != true {
		t.Fatalf("issued %v", pinned)
	}
	tok := pinned["token"].(string)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/workspaces", tok, map[string]any{"slug": "another", "name": "Another"})
	items, _ := e.listing("/v1/workspaces", tok)
	if got := field(items, "slug"); !reflect.DeepEqual(got, []string{"default"}) {
		t.Fatalf("a pinned token lists %v, want [default]", got)
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default", tok, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/bobs", tok, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/another", e.Admin, nil)
}
