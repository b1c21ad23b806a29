package web_test

import (
	"net/http"
	"reflect"
	"testing"
)

func TestMembers(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
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
		// The domain's refusals are app's TestMembers, their codes' documents testdata/problems.
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, members, e.Admin, map[string]any{"username": "erin", "role": "boss"})
		assertLoc(t, p, "body.role")
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

	t.Run("who may", func(t *testing.T) { // the rules are app's TestMembers
		e := e.sub(t)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, members+"/carol", bob, map[string]any{"role": "member"})
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
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, members+"/ghost", dave, map[string]any{"role": "viewer"})
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
		// What the administrator may do there is app's TestMembersByAdministrator.
	})
}
