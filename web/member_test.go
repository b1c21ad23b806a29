package web_test

import (
	"net/http"
	"reflect"
	"testing"
)

func TestMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Cleanup(func() { assertNoInternalErrors(t, e) })
	bob := e.Person("bob")
	carol := e.Person("carol")
	dave := e.Person("dave")
	e.Person("erin")
	e.Join("bob", "member")
	e.Join("dave", "admin")
	const members = "/v1/workspaces/default/members"

	t.Run("join", func(t *testing.T) {
		e := e.sub(t)
		m := e.OK(http.StatusCreated, http.MethodPost, members, e.Admin, map[string]any{"username": "CAROL", "role": "viewer"})
		if m["role"] != "viewer" || m["user"].(map[string]any)["username"] != "carol" || m["workspace"].(map[string]any)["slug"] != "default" ||
			m["created_at"] == nil {
			t.Fatalf("joined: %v", m)
		}
		if _, ok := m["user"].(map[string]any)["email"]; ok {
			t.Fatalf("a member's user carries no email: %v", m)
		}
		e.Problem(http.StatusConflict, "already_member", http.MethodPost, members, e.Admin, map[string]any{"username": "carol", "role": "member"})
		for _, tc := range []struct {
			body map[string]any
			loc  string
		}{
			{map[string]any{"username": "erin", "role": "boss"}, "body.role"},
			{map[string]any{"username": "erin"}, "body.role"},
			{map[string]any{"username": "erin", "role": "Owner"}, "body.role"},
			{map[string]any{"username": "ghost", "role": "member"}, "body.username"},
			{map[string]any{"username": "bad name", "role": "member"}, "body.username"},
			{map[string]any{"role": "member"}, "body.username"},
		} {
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, members, e.Admin, tc.body)
			assertLoc(t, p, tc.loc)
		}
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default", carol, nil)["role"]; got != "viewer" {
			t.Fatalf("carol's role %v", got)
		}
	})

	t.Run("list", func(t *testing.T) {
		e := e.sub(t)
		items, page := e.listing(members, carol)
		want := map[string]string{"admin": "owner", "bob": "member", "dave": "admin", "carol": "viewer"}
		if got := memberRoles(items); !reflect.DeepEqual(got, want) {
			t.Fatalf("members %v, want %v", got, want)
		}
		if page["has_more"] != false || page["next_cursor"] != nil {
			t.Fatalf("page %v", page)
		}
	})

	t.Run("a member cannot manage members", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, members, bob, map[string]any{"username": "erin", "role": "viewer"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/carol", bob, map[string]any{"role": "member"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, members+"/carol", bob, nil)
		// Nor promote itself.
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/bob", bob, map[string]any{"role": "admin"})
	})

	t.Run("an admin cannot reach above itself", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, members, dave, map[string]any{"username": "erin", "role": "owner"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/bob", dave, map[string]any{"role": "owner"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/admin", dave, map[string]any{"role": "viewer"})
		e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, members+"/admin", dave, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/dave", dave, map[string]any{"role": "owner"})
		// Up to its own rank it may.
		m := e.OK(http.StatusCreated, http.MethodPost, members, dave, map[string]any{"username": "erin", "role": "admin"})
		if m["role"] != "admin" {
			t.Fatalf("erin %v", m)
		}
	})

	t.Run("regrade", func(t *testing.T) {
		e := e.sub(t)
		m := e.OK(http.StatusOK, http.MethodPatch, members+"/ERIN", dave, map[string]any{"role": "viewer"})
		if m["role"] != "viewer" || m["user"].(map[string]any)["username"] != "erin" {
			t.Fatalf("regraded: %v", m)
		}
		// The same role again is not an error.
		e.OK(http.StatusOK, http.MethodPatch, members+"/erin", dave, map[string]any{"role": "viewer"})
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, members+"/erin", dave, map[string]any{"role": "chief"})
		assertLoc(t, p, "body.role")
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, members+"/ghost", dave, map[string]any{"role": "viewer"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, members+"/admin2", dave, map[string]any{"role": "viewer"})
		e.OK(http.StatusOK, http.MethodPatch, members+"/bob", e.Admin, map[string]any{"role": "owner"})
		e.OK(http.StatusOK, http.MethodPatch, members+"/bob", bob, map[string]any{"role": "member"})
	})

	t.Run("remove", func(t *testing.T) {
		e := e.sub(t)
		r := e.Do(http.MethodDelete, members+"/erin", dave, nil)
		if r.Status != http.StatusNoContent || len(r.Body) != 0 {
			t.Fatalf("remove: %d %s", r.Status, r.Body)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, members+"/erin", dave, nil)
		items, _ := e.listing(members, dave)
		if _, ok := memberRoles(items)["erin"]; ok {
			t.Fatalf("erin still listed: %v", items)
		}
		// The account itself remains.
		e.OK(http.StatusOK, http.MethodGet, "/v1/users/erin", dave, nil)
	})

	t.Run("anyone may leave", func(t *testing.T) {
		e := e.sub(t)
		r := e.Do(http.MethodDelete, members+"/carol", carol, nil)
		if r.Status != http.StatusNoContent {
			t.Fatalf("a viewer leaving: %d %s", r.Status, r.Body)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/default", carol, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, members, carol, nil)
	})

	t.Run("last owner", func(t *testing.T) {
		e := e.sub(t)
		e.createWorkspace(bob, "solo", "Solo")
		e.Problem(http.StatusConflict, "last_owner", http.MethodPatch, "/v1/workspaces/solo/members/bob", bob, map[string]any{"role": "admin"})
		e.Problem(http.StatusConflict, "last_owner", http.MethodDelete, "/v1/workspaces/solo/members/bob", bob, nil)
		e.Problem(http.StatusConflict, "last_owner", http.MethodDelete, members+"/admin", e.Admin, nil)
		e.Problem(http.StatusConflict, "last_owner", http.MethodPatch, members+"/admin", e.Admin, map[string]any{"role": "member"})
		// Even the instance administrator keeps one owner in a workspace.
		e.Problem(http.StatusConflict, "last_owner", http.MethodDelete, "/v1/workspaces/solo/members/bob", e.Admin, nil)

		e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/solo/members", bob, map[string]any{"username": "dave", "role": "owner"})
		e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/solo/members/bob", bob, map[string]any{"role": "admin"})
		e.Problem(http.StatusConflict, "last_owner", http.MethodDelete, "/v1/workspaces/solo/members/dave", dave, nil)
		if r := e.Do(http.MethodDelete, "/v1/workspaces/solo/members/bob", bob, nil); r.Status != http.StatusNoContent {
			t.Fatalf("bob leaving: %d %s", r.Status, r.Body)
		}
		items, _ := e.listing("/v1/workspaces/solo/members", dave)
		if got := memberRoles(items); !reflect.DeepEqual(got, map[string]string{"dave": "owner"}) {
			t.Fatalf("solo members %v", got)
		}
	})

	t.Run("the instance administrator manages any workspace", func(t *testing.T) {
		e := e.sub(t)
		e.createWorkspace(carol, "carols", "Carol's")
		w := e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/carols", e.Admin, nil)
		if w["role"] != nil || len(w["permissions"].([]any)) != 0 {
			t.Fatalf("the administrator sees it with no role: %v", w)
		}
		items, _ := e.listing("/v1/workspaces/carols/members", e.Admin)
		if got := memberRoles(items); !reflect.DeepEqual(got, map[string]string{"carol": "owner"}) {
			t.Fatalf("carols members %v", got)
		}
		e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/carols/members", e.Admin, map[string]any{"username": "erin", "role": "owner"})
		e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/carols/members/carol", e.Admin, map[string]any{"role": "viewer"})
		if r := e.Do(http.MethodDelete, "/v1/workspaces/carols/members/carol", e.Admin, nil); r.Status != http.StatusNoContent {
			t.Fatalf("remove carol: %d %s", r.Status, r.Body)
		}
		items, _ = e.listing("/v1/workspaces/carols/members", e.Admin)
		if got := memberRoles(items); !reflect.DeepEqual(got, map[string]string{"erin": "owner"}) {
			t.Fatalf("carols members %v", got)
		}
		// Not being a member, the administrator's own list does not show it.
		items, _ = e.listing("/v1/workspaces", e.Admin)
		if got := field(items, "slug"); !reflect.DeepEqual(got, []string{"default"}) {
			t.Fatalf("admin's own workspaces %v", got)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/carols", carol, nil)
	})
}
