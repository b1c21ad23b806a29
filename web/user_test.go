package web_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestUserCreate(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")

	t.Run("needs instance:user_create", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/users", bob, map[string]any{"username": "mallory"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/mallory", e.Admin, nil)
	})

	t.Run("unauthenticated", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodPost, "/v1/users", "", map[string]any{"username": "mallory"})
	})

	// The domain's refusals are app's TestUserCreate; one here, and the wire's own.
	invalid := []struct {
		name string
		body map[string]any
		loc  string
	}{
		{"space in username", map[string]any{"username": "bad name"}, "body.username"},
		{"unknown field", map[string]any{"username": "zed", "password": "hunter2"}, "body.password"},
		{"wrong type", map[string]any{"username": 42}, "body.username"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			e := e.sub(t)
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/users", e.Admin, tc.body)
			assertLoc(t, p, tc.loc)
		})
	}

	t.Run("several problems at once", func(t *testing.T) {
		e := e.sub(t)
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/users", e.Admin,
			map[string]any{"username": "me", "timezone": "Nowhere/Land"})
		assertLoc(t, p, "body.username")
		assertLoc(t, p, "body.timezone")
	})

	t.Run("a person", func(t *testing.T) {
		e := e.sub(t)
		u := e.account(map[string]any{"username": "Alice", "display_name": "Alice A.", "email": "alice@example.com", "timezone": "Europe/Berlin"})
		got := []any{u["username"], u["display_name"], u["timezone"], u["is_service_account"], u["is_superuser"], u["active"], u["answers_to"], u["version"]}
		want := []any{"Alice", "Alice A.", "Europe/Berlin", false, false, true, nil, float64(1)}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
		if _, ok := u["email"]; ok {
			t.Fatalf("a directory entry carries no email: %v", u)
		}
		if id, _ := u["id"].(string); len(id) != 36 {
			t.Fatalf("id %v is not a uuid", u["id"])
		}
		// The new account belongs to no workspace.
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.tokenOf("alice"), nil)
		if ws := me["workspaces"].([]any); len(ws) != 0 {
			t.Fatalf("a new account is in no workspace, got %v", ws)
		}
		if me["user"].(map[string]any)["email"] != "alice@example.com" {
			t.Fatalf("the caller's own record carries its email: %v", me["user"])
		}
	})

	t.Run("duplicate username ignoring case", func(t *testing.T) {
		e.sub(t).Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "ALICE"})
	})

	t.Run("an agent", func(t *testing.T) {
		e := e.sub(t)
		u := e.agentOf("robo", "BOB")
		if u["is_service_account"] != true || u["answers_to"] != "bob" || u["responsible"] != "bob" {
			t.Fatalf("got %v", u)
		}
		deep := e.agentOf("robo2", "robo")
		if deep["answers_to"] != "robo" || deep["responsible"] != "bob" {
			t.Fatalf("an agent of an agent answers to it and is the person's responsibility: %v", deep)
		}
	})

	t.Run("agent of a deactivated account", func(t *testing.T) {
		e := e.sub(t)
		e.account(map[string]any{"username": "gone"})
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/gone", e.Admin, map[string]any{"active": false})
		e.Problem(http.StatusConflict, "account_inactive", http.MethodPost, "/v1/users", e.Admin,
			map[string]any{"username": "orphan", "is_service_account": true, "answers_to": "gone"})
	})

	t.Run("body that is not JSON", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/users", e.Admin, `{"username":`)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/users", e.Admin, `{"username":"a"} {"username":"b"}`)
	})
}

func TestUserGet(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	e.account(map[string]any{"username": "Alice", "email": "alice@example.com", "display_name": "Alice"})

	for _, name := range []string{"alice", "ALICE", "Alice", "aLiCe"} {
		r := e.Do(http.MethodGet, "/v1/users/"+name, bob, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET /v1/users/%s: status %d\n%s", name, r.Status, r.Body)
		}
		u := r.JSON(t)
		if u["username"] != "Alice" {
			t.Fatalf("GET /v1/users/%s: got %v", name, u["username"])
		}
		if _, ok := u["email"]; ok {
			t.Fatalf("a directory entry carries no email key: %s", r.Body)
		}
		if strings.Contains(string(r.Body), "alice@example.com") {
			t.Fatalf("the email leaked: %s", r.Body)
		}
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/ghost", bob, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/me", bob, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/users/alice", "", nil)
}

func TestUserList(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	e.account(map[string]any{"username": "alice"})
	e.agentOf("a1", "alice")
	e.agentOf("a2", "a1") // answers to alice through a1
	e.agentOf("b1", "bob")
	e.account(map[string]any{"username": "carol"})
	e.agentOf("a3", "alice")
	all := []string{"admin", "bob", "alice", "a1", "a2", "b1", "carol", "a3"}

	t.Run("oldest first", func(t *testing.T) {
		e := e.sub(t)
		items, page := e.listing("/v1/users", bob)
		if got := field(items, "username"); !reflect.DeepEqual(got, all) {
			t.Fatalf("got %v, want %v", got, all)
		}
		if page["has_more"] != false || page["next_cursor"] != nil || page["total"] != nil {
			t.Fatalf("page %v", page)
		}
		for _, it := range items {
			if _, ok := it.(map[string]any)["email"]; ok {
				t.Fatalf("a directory entry carries no email: %v", it)
			}
		}
	})

	t.Run("paging walks every account once", func(t *testing.T) {
		e := e.sub(t)
		for _, limit := range []int{1, 3, 7, 8, 9} {
			var seen []string
			cursor := ""
			for pages := 0; ; pages++ {
				if pages > len(all) {
					t.Fatalf("limit %d: paging does not end", limit)
				}
				q := url.Values{"limit": {strconv.Itoa(limit)}, "include_total": {"true"}}
				if cursor != "" {
					q.Set("cursor", cursor)
				}
				items, page := e.listing("/v1/users?"+q.Encode(), bob)
				if len(items) > limit {
					t.Fatalf("limit %d: page of %d", limit, len(items))
				}
				if page["limit"] != float64(limit) || page["total"] != float64(len(all)) {
					t.Fatalf("limit %d: page %v", limit, page)
				}
				seen = append(seen, field(items, "username")...)
				if page["has_more"] != true {
					if page["next_cursor"] != nil {
						t.Fatalf("last page carries a cursor: %v", page)
					}
					break
				}
				cursor = page["next_cursor"].(string)
			}
			if !reflect.DeepEqual(seen, all) {
				t.Fatalf("limit %d: walked %v, want %v", limit, seen, all)
			}
		}
	})

	t.Run("limit bounds", func(t *testing.T) {
		e := e.sub(t)
		limits := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", bob, nil)["limits"].(map[string]any)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?limit=0", bob, nil)
		_, page := e.listing("/v1/users", bob)
		if page["limit"] != limits["default_page_size"] {
			t.Fatalf("no limit gives the default %v, got %v", limits["default_page_size"], page["limit"])
		}
		_, page = e.listing("/v1/users?limit=1000000", bob)
		if page["limit"] != limits["max_page_size"] {
			t.Fatalf("a huge limit is capped at %v, got %v", limits["max_page_size"], page["limit"])
		}
		for _, bad := range []string{"-1", "-500", "ten", "1.5"} {
			p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?limit="+bad, bob, nil)
			assertLoc(t, p, "query.limit")
		}
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?include_total=perhaps", bob, nil)
		assertLoc(t, p, "query.include_total")
	})

	t.Run("cursor belongs to its query", func(t *testing.T) {
		e := e.sub(t)
		_, page := e.listing("/v1/users?answers_to=alice&limit=1", bob)
		cur := page["next_cursor"].(string)
		// The same query accepts it.
		items, _ := e.listing("/v1/users?answers_to=alice&limit=1&cursor="+url.QueryEscape(cur), bob)
		if got := field(items, "username"); !reflect.DeepEqual(got, []string{"a2"}) {
			t.Fatalf("second page %v", got)
		}
		// The domain's refusals of cursors are app's TestUsers.
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?answers_to=bob&cursor="+url.QueryEscape(cur), bob, nil)
		assertLoc(t, p, "query.cursor")
	})

	t.Run("format and fields", func(t *testing.T) {
		e := e.sub(t)
		full, _ := e.listing("/v1/users", bob)
		ids, _ := e.listing("/v1/users?format=ids", bob)
		want := field(full, "id")
		for i, id := range ids {
			if id != want[i] {
				t.Fatalf("format=ids: %v, want %v", ids, want)
			}
		}
		if len(ids) != len(want) {
			t.Fatalf("format=ids: %d ids, want %d", len(ids), len(want))
		}
		lines, _ := e.listing("/v1/users?format=compact", bob)
		if len(lines) != len(all) {
			t.Fatalf("format=compact: %v", lines)
		}
		for i, l := range lines {
			s, ok := l.(string)
			if !ok || !strings.HasPrefix(s, all[i]+" ") {
				t.Fatalf("format=compact line %d: %q", i, l)
			}
		}
		if s := lines[3].(string); !strings.Contains(s, "agent of alice") {
			t.Fatalf("compact line of an agent names its person: %q", s)
		}
		e.listing("/v1/users?format=full", bob)
		picked, _ := e.listing("/v1/users?fields=username,active", bob)
		for _, it := range picked {
			m := it.(map[string]any)
			if len(m) != 2 || m["active"] != true || m["username"] == nil {
				t.Fatalf("fields=username,active: %v", m)
			}
		}
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?fields=username,email", bob, nil)
		assertLoc(t, p, "query.fields")
		p = e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?format=ids&fields=username", bob, nil)
		assertLoc(t, p, "query.fields")
		p = e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?format=table", bob, nil)
		assertLoc(t, p, "query.format")
	})

	t.Run("answers_to", func(t *testing.T) {
		e := e.sub(t)
		items, page := e.listing("/v1/users?answers_to=alice&include_total=true", bob)
		if got, want := field(items, "username"), []string{"a1", "a2", "a3"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("answers_to=alice: %v, want %v", got, want)
		}
		if page["total"] != float64(3) {
			t.Fatalf("total %v", page["total"])
		}
		// The filter's other cases are app's TestUsers.
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/users?answers_to=ghost", bob, nil)
		assertLoc(t, p, "query.answers_to")
	})
}

func TestUserTimezone(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	alice := e.Person("alice")
	e.Person("bob")

	// The domain's refusals are app's TestUserUpdate, their codes' documents testdata/problems.
	bob := e.tokenOf("bob")

	u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/ALICE", alice, map[string]any{"timezone": "Europe/Berlin"})
	if u["timezone"] != "Europe/Berlin" || u["version"] != float64(2) {
		t.Fatalf("own timezone: %v", u)
	}
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/users/alice", bob, nil)["timezone"]; got != "Europe/Berlin" {
		t.Fatalf("timezone after PATCH: %v", got)
	}
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/users/alice", alice, map[string]any{"timezone": "Europe/Atlantis"})
	assertLoc(t, p, "body.timezone")

	if got := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"display_name": "Alice M."})["display_name"]; got != "Alice M." {
		t.Fatalf("display_name %v", got)
	}
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/users/alice", bob, map[string]any{"display_name": "Mallory"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/users/ghost", e.Admin, map[string]any{"display_name": "Ghost"})
}

func TestUserDeactivate(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	alice := e.Person("alice")
	bob := e.Person("bob")
	e.agentOf("robo", "alice")
	robo := e.tokenOf("robo")
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", robo, nil)

	// The domain's refusals are app's TestUserUpdate.
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/users/alice", bob, map[string]any{"active": false})
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": nil})
	assertLoc(t, p, "body.active")

	u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": false})
	if u["active"] != false || u["deactivated_at"] == nil {
		t.Fatalf("deactivated: %v", u)
	}
	// The account and every agent answerable to it stop at the next call.
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", alice, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", robo, nil)
	// Still in the directory, marked inactive.
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/users/alice", bob, nil)["active"]; got != false {
		t.Fatalf("directory shows active %v", got)
	}
	u = e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": true})
	if u["active"] != true || u["deactivated_at"] != nil {
		t.Fatalf("reactivated: %v", u)
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", alice, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", robo, nil)
}

func TestUserHandover(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	alice := e.Person("alice")
	bob := e.Person("bob")
	e.agentOf("robo", "alice")
	e.agentOf("robo2", "robo")
	robo := e.tokenOf("robo")
	robo2 := e.tokenOf("robo2")

	t.Run("to another person", func(t *testing.T) {
		e := e.sub(t)
		u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/robo", e.Admin, map[string]any{"answers_to": "BOB"})
		if u["answers_to"] != "bob" || u["responsible"] != "bob" {
			t.Fatalf("handed over: %v", u)
		}
		items, _ := e.listing("/v1/users?answers_to=bob", bob)
		if got, want := field(items, "username"), []string{"robo", "robo2"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("bob's agents %v, want %v", got, want)
		}
		items, _ = e.listing("/v1/users?answers_to=alice", bob)
		if len(items) != 0 {
			t.Fatalf("alice keeps no agents: %v", items)
		}
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/users/robo2", bob, nil)["responsible"]; got != "bob" {
			t.Fatalf("robo2 is now bob's responsibility, got %v", got)
		}
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/robo", e.Admin, map[string]any{"answers_to": "alice"})
	})

	t.Run("refusals", func(t *testing.T) { // the domain's refusals are app's TestUserUpdate
		e := e.sub(t)
		e.Problem(http.StatusConflict, "cycle", http.MethodPatch, "/v1/users/robo", e.Admin, map[string]any{"answers_to": "robo2"})
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/users/robo", e.Admin, map[string]any{"answers_to": nil})
		assertLoc(t, p, "body.answers_to")
	})

	t.Run("handover then deactivation in one PATCH", func(t *testing.T) {
		e := e.sub(t)
		// Alice leaves; her agent moves to bob first, so it keeps working.
		u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": false, "answers_to": "bob"})
		if u["active"] != false {
			t.Fatalf("alice after leaving: %v", u)
		}
		if got := e.OK(http.StatusOK, http.MethodGet, "/v1/users/robo", bob, nil); got["answers_to"] != "bob" || got["active"] != true {
			t.Fatalf("alice's agent after the handover: %v", got)
		}
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", alice, nil)
		e.OK(http.StatusOK, http.MethodGet, "/v1/me", robo, nil)
		e.OK(http.StatusOK, http.MethodGet, "/v1/me", robo2, nil)
		items, _ := e.listing("/v1/users?answers_to=bob", bob)
		if got, want := field(items, "username"), []string{"robo", "robo2"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("bob's agents %v, want %v", got, want)
		}
	})
}
