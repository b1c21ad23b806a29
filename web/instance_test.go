package web_test

import (
	"net/http"
	"reflect"
	"testing"
)

func TestInstanceUpdate(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	before := e.OK(http.StatusOK, http.MethodGet, "/v1/instance", bob, nil)
	if before["name"] != "tend" || before["timezone"] != "UTC" || len(before["id"].(string)) != 36 {
		t.Fatalf("instance %v", before)
	}

	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/instance", bob, map[string]any{"name": "Bob's now"})
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodPatch, "/v1/instance", "", map[string]any{"name": "Anyone's"})
	// A workspace owner is no instance administrator.
	e.Join("bob", "owner")
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/instance", bob, map[string]any{"name": "Bob's now"})

	got := e.OK(http.StatusOK, http.MethodPatch, "/v1/instance", e.Admin, map[string]any{"name": "  Home base "})
	if got["name"] != "Home base" || got["id"] != before["id"] || got["timezone"] != "UTC" {
		t.Fatalf("renamed: %v", got)
	}
	got = e.OK(http.StatusOK, http.MethodPatch, "/v1/instance", e.Admin, map[string]any{"timezone": "Pacific/Auckland"})
	if got["name"] != "Home base" || got["id"] != before["id"] || got["timezone"] != "Pacific/Auckland" {
		t.Fatalf("rezoned: %v", got)
	}
	if again := e.OK(http.StatusOK, http.MethodGet, "/v1/instance", bob, nil); !reflect.DeepEqual(again, got) {
		t.Fatalf("GET after PATCH %v, want %v", again, got)
	}
	meta := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", bob, nil)
	if !reflect.DeepEqual(meta["instance"], got) {
		t.Fatalf("meta instance %v, want %v", meta["instance"], got)
	}

	for _, tc := range []struct {
		body any
		loc  string
	}{
		{map[string]any{"timezone": "Atlantis/Capital"}, "body.timezone"},
		{map[string]any{"timezone": ""}, "body.timezone"},
		{map[string]any{"timezone": "Local"}, "body.timezone"},
		{map[string]any{"name": ""}, "body.name"},
		{map[string]any{"name": "   "}, "body.name"},
		{map[string]any{"name": 7}, "body.name"},
		// The id is immutable: the body has no such field.
		{map[string]any{"id": "00000000-0000-0000-0000-000000000000"}, "body.id"},
		{`[]`, "body"},
	} {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/instance", e.Admin, tc.body)
		assertLoc(t, p, tc.loc)
	}
	// Refusals leave it as it was.
	if again := e.OK(http.StatusOK, http.MethodGet, "/v1/instance", e.Admin, nil); !reflect.DeepEqual(again, got) {
		t.Fatalf("after refusals %v, want %v", again, got)
	}
	// An empty object changes nothing.
	if same := e.OK(http.StatusOK, http.MethodPatch, "/v1/instance", e.Admin, map[string]any{}); !reflect.DeepEqual(same, got) {
		t.Fatalf("empty PATCH %v, want %v", same, got)
	}
	e.Problem(http.StatusMethodNotAllowed, "method_not_allowed", http.MethodDelete, "/v1/instance", e.Admin, nil)
}

func TestInstanceWorkspaces(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Member("bob", "owner")
	e.Person("carol")
	e.createWorkspace(bob, "bobs", "Bob's")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/bobs/members", bob, map[string]any{"username": "carol", "role": "viewer"})
	e.createWorkspace(bob, "old", "Old")
	e.OK(http.StatusOK, http.MethodDelete, "/v1/workspaces/old", bob, nil)

	e.Problem(http.StatusForbidden, "forbidden", http.MethodGet, "/v1/instance/workspaces", bob, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/instance/workspaces", "", nil)

	items, page := e.listing("/v1/instance/workspaces", e.Admin)
	if page["has_more"] != false {
		t.Fatalf("page %v", page)
	}
	if got, want := field(items, "slug"), []string{"default", "bobs", "old"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("instance workspaces %v, want %v", got, want)
	}
	type row struct {
		members float64
		owners  []any
		trashed bool
	}
	want := map[string]row{
		"default": {2, []any{"admin", "bob"}, false},
		"bobs":    {2, []any{"bob"}, false},
		"old":     {1, []any{"bob"}, true},
	}
	for _, it := range items {
		m := it.(map[string]any)
		w := want[m["slug"].(string)]
		owners, _ := m["owners"].([]any)
		if m["members"] != w.members || !sameSet(owners, w.owners) || (m["deleted_at"] != nil) != w.trashed || m["created_at"] == nil {
			t.Fatalf("%s: %v, want %+v", m["slug"], m, w)
		}
	}

	// A credential that narrows away instance:admin loses the listing too.
	narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"workspace:read"}})["token"].(string)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodGet, "/v1/instance/workspaces", narrow, nil)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/instance", narrow, map[string]any{"name": "Narrow"})
}

func sameSet(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !containsAny(b, x.(string)) {
			return false
		}
	}
	return true
}
