package web_test

import (
	"net/http"
	"reflect"
	"slices"
	"testing"
)

// TestNarrowedCredentialCannotManageAccount is issue 9's first finding: a
// credential narrowed to item:read in one project could revoke its
// person's other credentials and change the account. Now it reaches only
// itself and what it issued, and the account needs account:write.
func TestNarrowedCredentialCannotManageAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", alice, map[string]any{"key": "agentwork", "title": "Agent work"})
	full := e.OK(http.StatusOK, http.MethodGet, "/v1/me", alice, nil)["credential"].(map[string]any)
	narrowed := e.Issue(alice, map[string]any{"title": "agent", "scopes": []string{"item:read", "project:read"}, "workspace": "default",
		"project_scope": []string{"agentwork"}, "project_write_scope": []string{"agentwork"}})
	agent := narrowed["token"].(string)

	t.Run("revoking the person's credential answers as if it did not exist", func(t *testing.T) {
		e := e.sub(t)
		for _, ref := range []string{full["prefix"].(string), full["id"].(string)} {
			e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+ref, agent, nil)
		}
		absent := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/tend_aaaaaaaaaa", agent, nil)
		unseen := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+full["prefix"].(string), agent, nil)
		if absent["detail"] != unseen["detail"] {
			t.Fatalf("absent %v and unseen %v answer differently", absent["detail"], unseen["detail"])
		}
		e.OK(http.StatusOK, http.MethodGet, "/v1/me", alice, nil)
	})
	t.Run("changing the account is refused", func(t *testing.T) {
		e := e.sub(t)
		for _, body := range []map[string]any{{"display_name": "Mallory"}, {"timezone": "Pacific/Apia"}} {
			e.Problem(http.StatusForbidden, "credential_narrowed", http.MethodPatch, "/v1/users/alice", agent, body)
		}
		u := e.OK(http.StatusOK, http.MethodGet, "/v1/me", alice, nil)["user"].(map[string]any)
		if u["display_name"] == "Mallory" || u["timezone"] == "Pacific/Apia" {
			t.Fatalf("the account changed: %v", u)
		}
	})
	t.Run("issuing for itself stays narrower", func(t *testing.T) {
		e := e.sub(t)
		for _, scopes := range [][]string{{"credential:manage"}, {"account:write"}, {"*"}} {
			e.Problem(http.StatusForbidden, "token_scope_wider", http.MethodPost, "/v1/tokens", agent, map[string]any{"scopes": scopes})
		}
		child := e.Issue(agent, map[string]any{"title": "sub-agent"})
		if !reflect.DeepEqual(credStrings(t, child["scopes"]), []string{"item:read", "project:read"}) || child["workspace_id"] == nil {
			t.Fatalf("the child did not inherit the narrowing: %v", child)
		}
	})
	t.Run("lists and revokes only itself and what it issued", func(t *testing.T) {
		e := e.sub(t)
		lister := e.Issue(agent, map[string]any{"title": "lister"})
		child := e.Issue(lister["token"].(string), map[string]any{"title": "listed child"})
		var got []string
		for _, it := range e.OK(http.StatusOK, http.MethodGet, "/v1/tokens", lister["token"].(string), nil)["items"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
		if want := []string{child["id"].(string), lister["id"].(string)}; !reflect.DeepEqual(got, want) {
			t.Fatalf("the narrowed credential lists %v, want itself and its child %v", got, want)
		}
		revoked := e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+child["prefix"].(string), lister["token"].(string), nil)
		if revoked["revoked_at"] == nil {
			t.Fatalf("revoking its own child: %v", revoked)
		}
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", child["token"].(string), nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+narrowed["prefix"].(string), lister["token"].(string), nil)
	})
	t.Run("the person's full credential still manages everything of the account", func(t *testing.T) {
		e := e.sub(t)
		extra := e.Issue(agent, map[string]any{"title": "revoked by the person"})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+extra["id"].(string), alice, nil)
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", alice, map[string]any{"display_name": "Alice"})
	})
	t.Run("revoking itself stays allowed", func(t *testing.T) {
		e := e.sub(t)
		self := e.Issue(alice, map[string]any{"scopes": []string{"item:read", "project:read"}})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+self["prefix"].(string), self["token"].(string), nil)
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", self["token"].(string), nil)
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+narrowed["prefix"].(string), agent, nil)
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", agent, nil)
	})
}

// TestAccountScopes: account:write alone changes the account;
// credential:manage alone reaches every credential of the account; a
// pinned credential holds neither, whatever its scopes.
func TestAccountScopes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	other := e.Issue(alice, map[string]any{"title": "other"})

	t.Run("account:write changes the account and nothing else", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"scopes": []string{"account:write"}})["token"].(string)
		u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", tok, map[string]any{"display_name": "Alice A.", "timezone": "Europe/Berlin"})
		if u["display_name"] != "Alice A." {
			t.Fatalf("display_name %v", u["display_name"])
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+other["prefix"].(string), tok, nil)
	})
	t.Run("credential:manage revokes the account's other credentials", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"scopes": []string{"credential:manage"}})["token"].(string)
		e.Problem(http.StatusForbidden, "credential_narrowed", http.MethodPatch, "/v1/users/alice", tok, map[string]any{"display_name": "x"})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+other["prefix"].(string), tok, nil)
	})
	t.Run("a pinned credential holds neither", func(t *testing.T) {
		e := e.sub(t)
		pinned := e.Issue(alice, map[string]any{"workspace": "default"})["token"].(string)
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", pinned, nil)
		if got := credStrings(t, me["instance_permissions"]); len(got) != 0 {
			t.Fatalf("a pinned credential holds %v", got)
		}
		e.Problem(http.StatusForbidden, "credential_narrowed", http.MethodPatch, "/v1/users/alice", pinned, map[string]any{"timezone": "UTC"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+other["prefix"].(string), pinned, nil)
	})
	t.Run("meta names the scopes", func(t *testing.T) {
		e := e.sub(t)
		m := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", alice, nil)
		scopes := credStrings(t, m["scopes"])
		var perms []string
		for _, p := range m["permissions"].([]any) {
			perms = append(perms, p.(map[string]any)["name"].(string))
		}
		for _, want := range []string{"account:write", "credential:manage"} {
			if !slices.Contains(scopes, want) || !slices.Contains(perms, want) {
				t.Fatalf("meta scopes %v / permissions %v lack %s", scopes, perms, want)
			}
		}
	})
}
