package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/web/webtest"
)

// credProjects issues, as the administrator, a throwaway credential narrowed
// to the given project references and returns the project ids it reports.
func (e *env) credProjects(refs ...string) []string {
	e.T.Helper()
	tok := e.Issue(e.Admin, map[string]any{"title": "probe", "project_scope": refs})
	return credStrings(e.T, tok["project_scope"])
}

func TestTokenIssueNarrowerAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w2 := e.credWorkspace("w2")
	defaultInbox := e.credProjects("default/inbox")[0]
	w2Inbox := e.credProjects("w2/inbox")[0]
	if defaultInbox == w2Inbox {
		t.Fatal("the two inboxes share an id")
	}
	later := e.Clock.Now().Add(2 * time.Hour)

	t.Run("subset of scopes", func(t *testing.T) {
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"scopes": []string{"item:read", "item:write", "project:read"}})["token"].(string)
		got := e.sub(t).Issue(issuer, map[string]any{"scopes": []string{"project:read", "item:read"}})
		if s := credStrings(t, got["scopes"]); !reflect.DeepEqual(s, []string{"item:read", "project:read"}) {
			t.Fatalf("scopes %v", s)
		}
		same := e.sub(t).Issue(issuer, map[string]any{"scopes": []string{"item:write", "project:read", "item:read", "item:read"}})
		if s := credStrings(t, same["scopes"]); !reflect.DeepEqual(s, []string{"item:read", "item:write", "project:read"}) {
			t.Fatalf("equal scopes, deduplicated and sorted, are allowed: %v", s)
		}
	})
	t.Run("same pin and omitted pin", func(t *testing.T) {
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"workspace": "w2"})
		if issuer["workspace_id"] != w2 {
			t.Fatalf("workspace_id %v, want %s", issuer["workspace_id"], w2)
		}
		for _, body := range []map[string]any{{}, {"workspace": "w2"}, {"workspace": w2}} {
			got := e.sub(t).Issue(issuer["token"].(string), body)
			if got["workspace_id"] != w2 {
				t.Fatalf("%v: workspace_id %v, want the issuer's pin %s", body, got["workspace_id"], w2)
			}
		}
	})
	t.Run("earlier expiry", func(t *testing.T) {
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"expires_at": credTime(later)})["token"].(string)
		sooner := later.Add(-time.Hour)
		got := e.sub(t).Issue(issuer, map[string]any{"expires_at": credTime(sooner)})
		if !credParse(t, got["expires_at"]).Equal(sooner) {
			t.Fatalf("expires_at %v, want %s", got["expires_at"], sooner)
		}
		same := e.sub(t).Issue(issuer, map[string]any{"expires_at": credTime(later)})
		if !credParse(t, same["expires_at"]).Equal(later) {
			t.Fatalf("the issuer's own expiry is allowed: %v", same["expires_at"])
		}
	})
	t.Run("the issuer's expiry sent to the microsecond", func(t *testing.T) {
		// Expiry is kept to the millisecond; asking for exactly what the
		// issuer itself was asked for is not later than the issuer.
		fine := later.Add(500 * time.Microsecond).Format(time.RFC3339Nano)
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"expires_at": fine})
		got := e.sub(t).Issue(issuer["token"].(string), map[string]any{"expires_at": fine})
		if got["expires_at"] != issuer["expires_at"] {
			t.Fatalf("expires_at %v, issuer's %v", got["expires_at"], issuer["expires_at"])
		}
	})
	t.Run("subset of projects", func(t *testing.T) {
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"project_scope": []string{"default/inbox", "w2/inbox"}})["token"].(string)
		got := e.sub(t).Issue(issuer, map[string]any{"project_scope": []string{"w2/inbox"}})
		if ids := credStrings(t, got["project_scope"]); !reflect.DeepEqual(ids, []string{w2Inbox}) {
			t.Fatalf("project_scope %v, want [%s]", ids, w2Inbox)
		}
		byID := e.sub(t).Issue(issuer, map[string]any{"project_scope": []string{defaultInbox}, "project_write_scope": []string{defaultInbox}})
		if ids := credStrings(t, byID["project_write_scope"]); !reflect.DeepEqual(ids, []string{defaultInbox}) {
			t.Fatalf("project_write_scope %v, want [%s]", ids, defaultInbox)
		}
	})
	t.Run("subset of write projects", func(t *testing.T) {
		issuer := e.sub(t).Issue(e.Admin, map[string]any{"project_write_scope": []string{"default/inbox", "w2/inbox"}})["token"].(string)
		got := e.sub(t).Issue(issuer, map[string]any{"project_write_scope": []string{"default/inbox"}})
		if ids := credStrings(t, got["project_write_scope"]); !reflect.DeepEqual(ids, []string{defaultInbox}) {
			t.Fatalf("project_write_scope %v", ids)
		}
		if got["project_scope"] != nil {
			t.Fatalf("the read scope was not limited and stays unlimited: %v", got["project_scope"])
		}
	})
	t.Run("unlimited issuer grants limits", func(t *testing.T) {
		got := e.sub(t).Issue(e.Admin, map[string]any{"scopes": []string{"item:read", "project:read"}, "workspace": "default",
			"project_scope": []string{"inbox"}, "expires_at": credTime(later)})
		if got["narrows"] != true || got["workspace_id"] == nil || len(credStrings(t, got["project_scope"])) != 1 {
			t.Fatalf("issued %v", got)
		}
	})
}

func TestTokenIssueInheritsIssuerLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.credWorkspace("w2")
	later := e.Clock.Now().Add(3 * time.Hour)
	issuer := e.Issue(e.Admin, map[string]any{"title": "limited", "scopes": []string{"item:read", "project:read"},
		"workspace": "default", "project_scope": []string{"inbox"}, "project_write_scope": []string{"inbox"},
		"expires_at": credTime(later)})
	child := e.Issue(issuer["token"].(string), map[string]any{"title": "child"})
	for _, f := range []string{"scopes", "workspace_id", "project_scope", "project_write_scope", "project_scope_keys", "expires_at", "user_id", "username"} {
		if !reflect.DeepEqual(child[f], issuer[f]) {
			t.Errorf("%s: child %v, issuer %v", f, child[f], issuer[f])
		}
	}
	if child["title"] != "child" || child["narrows"] != true || child["id"] == issuer["id"] || child["prefix"] == issuer["prefix"] {
		t.Fatalf("child %v", child)
	}
	if !credParse(t, child["expires_at"]).Equal(later) {
		t.Fatalf("expires_at %v, want %s", child["expires_at"], later)
	}

	t.Run("the first administrator token passes on no limits", func(t *testing.T) {
		got := e.sub(t).Issue(e.Admin, map[string]any{})
		if got["narrows"] != false || !reflect.DeepEqual(credStrings(t, got["scopes"]), []string{"*"}) || got["expires_at"] != nil ||
			got["workspace_id"] != nil || got["project_scope"] != nil || got["project_write_scope"] != nil {
			t.Fatalf("issued %v", got)
		}
		if got["title"] != "token" {
			t.Fatalf("an omitted title defaults to %q, got %v", "token", got["title"])
		}
	})
}

func TestTokenIssuedShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.Issue(e.Admin, map[string]any{"title": "ci", "scopes": []string{"item:read", "project:read"}, "project_scope": []string{"inbox"}})
	secret, _ := tok["token"].(string)
	prefix, _ := tok["prefix"].(string)
	if prefix == "" || !strings.HasPrefix(secret, prefix) || len(secret) <= len(prefix)+10 {
		t.Fatalf("secret %q does not begin with prefix %q", secret, prefix)
	}
	if !strings.HasPrefix(prefix, "tend_") {
		t.Fatalf("prefix %q", prefix)
	}
	for _, f := range []string{"account_created", "created_at", "expires_at", "id", "last_used_at", "narrows", "prefix", "project_scope",
		"project_scope_keys", "project_write_scope", "project_write_scope_keys", "revoked_at", "scopes", "title", "token", "usable",
		"user_id", "username", "workspace_id"} {
		if _, ok := tok[f]; !ok {
			t.Errorf("IssuedToken lacks %s", f)
		}
	}
	if tok["title"] != "ci" || tok["username"] != "admin" || tok["usable"] != true || tok["revoked_at"] != nil ||
		tok["account_created"] != false || tok["narrows"] != true || tok["last_used_at"] != nil {
		t.Fatalf("issued %v", tok)
	}
	if keys := credStrings(t, tok["project_scope_keys"]); !reflect.DeepEqual(keys, []string{"inbox"}) {
		t.Fatalf("project_scope_keys %v, want [inbox]", keys)
	}
	if ids := credStrings(t, tok["project_scope"]); len(ids) != 1 || ids[0] == "inbox" {
		t.Fatalf("project_scope %v, want one project id", ids)
	}
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	if tok["user_id"] != me["user"].(map[string]any)["id"] {
		t.Fatalf("user_id %v, want the administrator's", tok["user_id"])
	}
	e.credAuthorized(secret, "admin")

	t.Run("the secret is never shown again", func(t *testing.T) {
		e := e.sub(t)
		tail := secret[len(prefix):]
		check := func(what string, body []byte) {
			t.Helper()
			if strings.Contains(string(body), tail) {
				t.Fatalf("%s shows the secret: %s", what, body)
			}
		}
		for _, who := range []string{e.Admin, secret} {
			r := e.Do(http.MethodGet, "/v1/tokens", who, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("GET /v1/tokens: %d %s", r.Status, r.Body)
			}
			check("GET /v1/tokens", r.Body)
			for _, it := range r.JSON(t)["items"].([]any) {
				if _, ok := it.(map[string]any)["token"]; ok {
					t.Fatalf("a listed credential has a token field: %v", it)
				}
			}
			check("GET /v1/me", e.Do(http.MethodGet, "/v1/me", who, nil).Body)
		}
		r := e.Do(http.MethodDelete, "/v1/tokens/"+prefix, e.Admin, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("DELETE: %d %s", r.Status, r.Body)
		}
		check("DELETE /v1/tokens", r.Body)
		if _, ok := r.JSON(t)["token"]; ok {
			t.Fatalf("the revoked record has a token field: %s", r.Body)
		}
		if logs := e.LogText(); strings.Contains(logs, tail) || strings.Contains(logs, e.Admin[len(prefix):]) {
			t.Fatalf("the server log holds a secret:\n%s", logs)
		}
	})
}

func TestTokenValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.credWorkspace("w2")
	invalid := func(t *testing.T, body any, loc string) {
		t.Helper()
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.Admin, body)
		for _, it := range p["detail"].([]any) {
			if strings.Join(credStrings(t, it.(map[string]any)["loc"]), ".") == loc {
				return
			}
		}
		t.Fatalf("no validation item at %s: %v", loc, p["detail"])
	}
	past := credTime(e.Clock.Now().Add(-time.Hour))
	cases := []struct {
		name string
		body any
		loc  string
	}{
		{"unknown scope", map[string]any{"scopes": []string{"item:read", "item:fly"}}, "body.scopes"},
		{"expiry in the past", map[string]any{"expires_at": past}, "body.expires_at"},
		{"expiry not a time", map[string]any{"expires_at": "next tuesday"}, "body.expires_at"},
		{"unknown field", map[string]any{"title": "x", "scope": []string{"item:read"}}, "body.scope"},
		{"malformed JSON", `{"title": "x"`, "body"},
		{"not JSON", `title=x`, "body"},
		{"trailing data", `{"title": "x"} {}`, "body"},
		{"scopes not an array", map[string]any{"scopes": "item:read"}, "body.scopes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { invalid(t, c.body, c.loc) })
	}
	t.Run("unknown scope names the valid ones", func(t *testing.T) {
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.Admin,
			map[string]any{"scopes": []string{"item:fly"}})
		msg := p["detail"].([]any)[0].(map[string]any)["msg"].(string)
		if !strings.Contains(msg, "item:fly") || !strings.Contains(msg, "item:read") {
			t.Fatalf("msg %q should name the bad scope and the valid ones", msg)
		}
	})
	t.Run("every error is reported at once", func(t *testing.T) {
		p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.Admin,
			map[string]any{"scopes": []string{"nope"}, "username": "not a name"})
		if n := len(p["detail"].([]any)); n < 2 {
			t.Fatalf("detail %v", p["detail"])
		}
	})
	t.Run("nothing was issued", func(t *testing.T) {
		// Only the first administrator token exists.
		if n := len(e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tokens", e.Admin, nil)["items"].([]any)); n != 1 {
			t.Fatalf("%d credentials exist after refused requests, want 1", n)
		}
	})
}

// issuedFor issues a credential with body as the administrator and wants
// it for username, the account created by the issue or not as created
// says; it answers the credential and the account.
func (e *env) issuedFor(body map[string]any, username string, created bool) (tok, user map[string]any) {
	e.T.Helper()
	tok = e.Issue(e.Admin, body)
	if tok["username"] != username || tok["account_created"] != created {
		e.T.Fatalf("issued %v", tok)
	}
	user = e.OK(http.StatusOK, http.MethodGet, "/v1/users/"+username, e.Admin, nil)
	if tok["user_id"] != user["id"] {
		e.T.Fatalf("user_id %v, want %s's id %v", tok["user_id"], username, user["id"])
	}
	return tok, user
}

func TestTokenIssueForOtherAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Person("alice")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "bob"})

	t.Run("existing account", func(t *testing.T) {
		e := e.sub(t)
		tok, _ := e.issuedFor(map[string]any{"username": "bob", "title": "for bob"}, "bob", false)
		e.credAuthorized(tok["token"].(string), "bob")
		// Case does not matter in a username.
		if got := e.Issue(e.Admin, map[string]any{"username": "BOB"}); got["username"] != "bob" {
			t.Fatalf("issued for %v", got["username"])
		}
	})
	t.Run("new service account", func(t *testing.T) {
		e := e.sub(t)
		tok, u := e.issuedFor(map[string]any{"username": "helper", "answers_to": "alice"}, "helper", true)
		if u["is_service_account"] != true || u["answers_to"] != "alice" || u["active"] != true {
			t.Fatalf("user %v", u)
		}
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", tok["token"].(string), nil)
		if me["user"].(map[string]any)["is_service_account"] != true {
			t.Fatalf("me %v", me["user"])
		}
		// The second time the account exists: no new account, same answers_to allowed.
		again := e.Issue(e.Admin, map[string]any{"username": "helper", "answers_to": "alice"})
		if again["account_created"] != false || again["user_id"] != tok["user_id"] {
			t.Fatalf("issued again %v", again)
		}
	})
	t.Run("new name without answers_to", func(t *testing.T) {
		e := e.sub(t)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "ghost"})
		e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/ghost", e.Admin, nil)
	})
	t.Run("an administrator credential with instance:user_create only", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"instance:user_create"}})["token"].(string)
		tok := e.Issue(narrow, map[string]any{"username": "bob"})
		if tok["username"] != "bob" || !reflect.DeepEqual(credStrings(t, tok["scopes"]), []string{"instance:user_create"}) {
			t.Fatalf("issued %v", tok)
		}
	})
}

func TestTokenList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Person("alice")
	bob := e.Person("bob")
	aliceOwn := e.Issue(alice, map[string]any{"title": "alice's own"})

	ids := func(t *testing.T, token string) []string {
		t.Helper()
		r := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tokens", token, nil)
		if p := r["page"].(map[string]any); p["has_more"] != false {
			t.Fatalf("page %v", p)
		}
		var out []string
		for _, it := range r["items"].([]any) {
			out = append(out, it.(map[string]any)["id"].(string))
		}
		return out
	}
	idOf := func(t *testing.T, secret string) string {
		t.Helper()
		return e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)["credential"].(map[string]any)["id"].(string)
	}
	adminID, aliceID, bobID := idOf(t, e.Admin), idOf(t, alice), idOf(t, bob)

	t.Run("a person sees own and issued, newest first", func(t *testing.T) {
		got := ids(t, alice)
		want := []string{aliceOwn["id"].(string), aliceID}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("alice sees %v, want %v", got, want)
		}
		if got := ids(t, bob); !reflect.DeepEqual(got, []string{bobID}) {
			t.Fatalf("bob sees %v, want [%s]", got, bobID)
		}
	})
	t.Run("an administrator sees all, newest first", func(t *testing.T) {
		got := ids(t, e.Admin)
		want := []string{aliceOwn["id"].(string), bobID, aliceID, adminID}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("admin sees %v, want %v", got, want)
		}
	})
	t.Run("an administrator credential without credential:manage sees itself and what it issued", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"instance:admin", "instance:user_create"}})
		issued := e.Issue(narrow["token"].(string), map[string]any{"username": "bot", "answers_to": "alice"})
		got := ids(t, narrow["token"].(string))
		want := []string{issued["id"].(string), narrow["id"].(string)}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("sees %v, want %v", got, want)
		}
	})
	t.Run("credential:manage without instance:admin reaches the account's own and what it issued", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"credential:manage"}})
		got := ids(t, narrow["token"].(string))
		want := slices.DeleteFunc(ids(t, e.Admin), func(id string) bool { return id == aliceOwn["id"] })
		if !reflect.DeepEqual(got, want) || !slices.Contains(got, bobID) || !slices.Contains(got, aliceID) || !slices.Contains(got, adminID) {
			t.Fatalf("sees %v, want %v (not alice's self-issued %s)", got, want, aliceOwn["id"])
		}
	})
	t.Run("listed fields", func(t *testing.T) {
		r := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tokens", alice, nil)
		first := r["items"].([]any)[0].(map[string]any)
		if first["title"] != "alice's own" || first["username"] != "alice" || first["issued_by"] != "alice" || first["usable"] != true ||
			first["revoked_at"] != nil || first["prefix"] != aliceOwn["prefix"] {
			t.Fatalf("listed %v", first)
		}
		second := r["items"].([]any)[1].(map[string]any)
		if second["issued_by"] != "admin" {
			t.Fatalf("issued_by %v, want admin", second["issued_by"])
		}
		if !credParse(t, first["created_at"]).After(credParse(t, second["created_at"])) &&
			!credParse(t, first["created_at"]).Equal(credParse(t, second["created_at"])) {
			t.Fatalf("not newest first: %v then %v", first["created_at"], second["created_at"])
		}
	})
}

func TestTokenRevoke(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Person("alice")
	bob := e.Person("bob")

	revoked := func(t *testing.T, rec map[string]any) time.Time {
		t.Helper()
		if rec["usable"] != false || rec["revoked_at"] == nil {
			t.Fatalf("revoked record %v, want usable false and revoked_at set", rec)
		}
		if _, ok := rec["token"]; ok {
			t.Fatalf("the revoked record carries a secret: %v", rec)
		}
		return credParse(t, rec["revoked_at"])
	}

	t.Run("by id", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"title": "by id"})
		e.credAuthorized(tok["token"].(string), "alice")
		rec := e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), alice, nil)
		revoked(t, rec)
		if rec["id"] != tok["id"] || rec["prefix"] != tok["prefix"] {
			t.Fatalf("revoked %v, asked for %v", rec["id"], tok["id"])
		}
		e.credRefused(tok["token"].(string))
		e.credAuthorized(alice, "alice")
	})
	t.Run("by prefix", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"title": "by prefix"})
		rec := e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["prefix"].(string), alice, nil)
		revoked(t, rec)
		if rec["id"] != tok["id"] {
			t.Fatalf("revoked %v, asked for %v", rec["id"], tok["id"])
		}
		e.credRefused(tok["token"].(string))
	})
	t.Run("a credential revoking itself", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"title": "self"})
		revoked(t, e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), tok["token"].(string), nil))
		e.credRefused(tok["token"].(string))
	})
	t.Run("twice keeps the first revocation time", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"title": "twice"})
		first := revoked(t, e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), alice, nil))
		e.Clock.Advance(time.Hour)
		t.Cleanup(func() { e.Clock.Advance(-time.Hour) })
		second := revoked(t, e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["prefix"].(string), alice, nil))
		if !second.Equal(first) {
			t.Fatalf("revoked_at moved from %s to %s", first, second)
		}
		listed := e.OK(http.StatusOK, http.MethodGet, "/v1/tokens", alice, nil)["items"].([]any)
		for _, it := range listed {
			if m := it.(map[string]any); m["id"] == tok["id"] && !credParse(t, m["revoked_at"]).Equal(first) {
				t.Fatalf("listed revoked_at %v, want %s", m["revoked_at"], first)
			}
		}
	})
	t.Run("somebody else's credential is not found", func(t *testing.T) {
		e := e.sub(t)
		bobTok := e.Issue(bob, map[string]any{"title": "bob's"})
		missing := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/00000000-0000-4000-8000-000000000000", alice, nil)
		byID := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+bobTok["id"].(string), alice, nil)
		byPrefix := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/"+bobTok["prefix"].(string), alice, nil)
		unknownPrefix := e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tokens/tend_zzzzzzzzzz", alice, nil)
		for _, p := range []map[string]any{byID, byPrefix, unknownPrefix} {
			if p["detail"] != missing["detail"] || p["title"] != missing["title"] {
				t.Fatalf("an unseen credential answers differently from a missing one:\n%v\n%v", p, missing)
			}
		}
		e.credAuthorized(bobTok["token"].(string), "bob")
		e.credAuthorized(bob, "bob")
	})
	t.Run("an administrator revokes anyone's", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(bob, map[string]any{"title": "bob's second"})
		revoked(t, e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), e.Admin, nil))
		e.credRefused(tok["token"].(string))
	})
	t.Run("a revoked credential cannot revoke or issue", func(t *testing.T) {
		e := e.sub(t)
		tok := e.Issue(alice, map[string]any{"title": "spent"})
		e.OK(http.StatusOK, http.MethodDelete, "/v1/tokens/"+tok["id"].(string), alice, nil)
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodPost, "/v1/tokens", tok["token"].(string), map[string]any{})
		e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodDelete, "/v1/tokens/"+tok["id"].(string), tok["token"].(string), nil)
	})
}

func TestTokenConcurrentIssueAndRevoke(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const workers = 20
	shared := make([]map[string]any, workers/2)
	for i := range shared {
		shared[i] = e.Issue(e.Admin, map[string]any{"title": fmt.Sprintf("shared %d", i)})
	}
	auth := map[string]string{"Authorization": "Bearer " + e.Admin}

	var wg sync.WaitGroup
	errs := make(chan error, workers*4)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			expect := func(r webtest.Response, err error, want int, what string) bool {
				switch {
				case err != nil:
					errs <- fmt.Errorf("worker %d %s: %w", w, what, err)
				case r.Status >= 500:
					errs <- fmt.Errorf("worker %d %s: server error %d %s", w, what, r.Status, r.Body)
				case r.Status != want:
					errs <- fmt.Errorf("worker %d %s: status %d, want %d: %s", w, what, r.Status, want, r.Body)
				default:
					return true
				}
				return false
			}
			// Two workers race to revoke each shared credential: both succeed.
			s := shared[w/2]
			r, err := e.credSend(http.MethodDelete, "/v1/tokens/"+s["id"].(string), auth, "")
			expect(r, err, http.StatusOK, "revoke shared")

			r, err = e.credSend(http.MethodPost, "/v1/tokens", auth, fmt.Sprintf(`{"title": "worker %d"}`, w))
			if !expect(r, err, http.StatusCreated, "issue") {
				return
			}
			var tok struct{ Token, Prefix string }
			if err := json.Unmarshal(r.Body, &tok); err != nil || tok.Token == "" {
				errs <- fmt.Errorf("worker %d: issued %s (%v)", w, r.Body, err)
				return
			}
			secret := tok.Token
			r, err = e.credSend(http.MethodGet, "/v1/me", map[string]string{"Authorization": "Bearer " + secret}, "")
			expect(r, err, http.StatusOK, "use")
			r, err = e.credSend(http.MethodDelete, "/v1/tokens/"+tok.Prefix, map[string]string{"Authorization": "Bearer " + secret}, "")
			expect(r, err, http.StatusOK, "revoke own")
			r, err = e.credSend(http.MethodGet, "/v1/me", map[string]string{"Authorization": "Bearer " + secret}, "")
			expect(r, err, http.StatusUnauthorized, "use after revoke")
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	items := e.OK(http.StatusOK, http.MethodGet, "/v1/tokens", e.Admin, nil)["items"].([]any)
	if len(items) != 1+len(shared)+workers {
		t.Fatalf("%d credentials listed, want %d", len(items), 1+len(shared)+workers)
	}
	usable := 0
	for _, it := range items {
		if it.(map[string]any)["usable"] == true {
			usable++
		}
	}
	if usable != 1 {
		t.Fatalf("%d credentials still usable, want only the administrator's", usable)
	}
	for _, s := range shared {
		e.credRefused(s["token"].(string))
	}
}
