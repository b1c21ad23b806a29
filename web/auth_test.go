package web_test

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

func TestAuthRefusesBadCredentials(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	valid := e.Admin
	wrongSecret := valid[:len(valid)-1] + "a"
	if wrongSecret == valid {
		wrongSecret = valid[:len(valid)-1] + "b"
	}
	cases := []struct {
		name   string
		header map[string]string
	}{
		{"missing header", nil},
		{"empty header", map[string]string{"Authorization": ""}},
		{"wrong scheme", map[string]string{"Authorization": "Basic " + valid}},
		{"scheme without secret", map[string]string{"Authorization": "Bearer"}},
		{"scheme with blank secret", map[string]string{"Authorization": "Bearer    "}},
		{"secret without scheme", map[string]string{"Authorization": valid}},
		{"garbage", map[string]string{"Authorization": "Bearer not-a-token-at-all"}},
		{"prefix alone", map[string]string{"Authorization": "Bearer " + valid[:15]}},
		{"right prefix, wrong secret", map[string]string{"Authorization": "Bearer " + wrongSecret}},
		{"secret with a character more", map[string]string{"Authorization": "Bearer " + valid + "x"}},
		{"well-formed unknown secret", map[string]string{"Authorization": "Bearer tend_aaaaaaaaaa_" + strings.Repeat("a", 40)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := e.credSend(http.MethodGet, "/v1/me", c.header, "")
			if err != nil {
				t.Fatal(err)
			}
			webtest.AssertProblem(t, r, http.StatusUnauthorized, "unauthorized")
			if got := r.Header.Get("WWW-Authenticate"); got != `Bearer realm="tend"` {
				t.Fatalf("WWW-Authenticate %q, want a Bearer challenge", got)
			}
			if strings.Contains(string(r.Body), valid) {
				t.Fatalf("the refusal echoes the secret: %s", r.Body)
			}
		})
	}
	t.Run("every refusal reads the same", func(t *testing.T) {
		var first []byte
		for _, h := range []string{"Bearer " + wrongSecret, "Bearer tend_aaaaaaaaaa_" + strings.Repeat("a", 40), "Bearer junk"} {
			r, err := e.credSend(http.MethodGet, "/v1/me", map[string]string{"Authorization": h}, "")
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = r.Body
			} else if string(r.Body) != string(first) {
				t.Fatalf("refusals differ, which tells a prober which part was right:\n%s\n%s", first, r.Body)
			}
		}
	})
	t.Run("scheme is case-insensitive", func(t *testing.T) {
		r, err := e.credSend(http.MethodGet, "/v1/me", map[string]string{"Authorization": "bearer " + valid}, "")
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != http.StatusOK {
			t.Fatalf("status %d, want 200\n%s", r.Status, r.Body)
		}
	})
	if strings.Contains(e.LogText(), valid) {
		t.Fatal("the server logged a secret")
	}
}

func TestAuthExpiredToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := e.Clock.Now()
	tok := e.Issue(e.Admin, map[string]any{"title": "short", "expires_at": credTime(now.Add(time.Hour))})
	secret := tok["token"].(string)
	e.credAuthorized(secret, "admin")

	e.Clock.Set(now.Add(2 * time.Hour))
	e.credRefused(secret)
	e.credAuthorized(e.Admin, "admin") // a credential without expiry is unaffected by the clock

	e.Clock.Set(now.Add(time.Hour)) // expires_at itself is already too late
	e.credRefused(secret)

	e.Clock.Set(now.Add(time.Hour - time.Second))
	e.credAuthorized(secret, "admin")
}

func TestAuthSecretInQuery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.Issue(e.Admin, map[string]any{"title": "leaky"})["token"].(string)
	for _, c := range []struct{ name, path string }{
		{"token parameter", "/v1/me?token=" + secret},
		{"token parameter with any value", "/v1/me?token=anything"},
		{"access_token parameter", "/v1/me?access_token=" + secret},
		{"api_key parameter", "/v1/me?api_key=x"},
		{"secret parameter", "/v1/me?secret=x"},
		{"secret under another name", "/v1/me?q=" + secret},
		{"secret among other parameters", "/v1/tokens?workspace_id=default&cursor=" + secret},
	} {
		path := c.path
		t.Run(c.name, func(t *testing.T) {
			// Refused even when a valid credential is presented as well: the
			// secret in the URL is already exposed.
			e.sub(t).Problem(http.StatusBadRequest, "secret_in_query", http.MethodGet, path, e.Admin, nil)
			e.sub(t).Problem(http.StatusBadRequest, "secret_in_query", http.MethodGet, path, "", nil)
		})
	}
	t.Run("ordinary query is fine", func(t *testing.T) {
		e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/users?limit=5", e.Admin, nil)
	})
	if logs := e.LogText(); strings.Contains(logs, secret) {
		t.Fatalf("the access log holds a secret sent in a query string:\n%s", logs)
	}
}

func TestAuthDeactivationStopsAgents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Person("alice")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "bot", "is_service_account": true, "answers_to": "alice"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "subbot", "is_service_account": true, "answers_to": "bot"})
	bot := e.Issue(e.Admin, map[string]any{"username": "bot"})["token"].(string)
	subbot := e.Issue(e.Admin, map[string]any{"username": "subbot"})["token"].(string)
	secret := map[string]string{"alice": alice, "bot": bot, "subbot": subbot}
	authorized := func(e *env, names ...string) {
		for _, name := range names {
			e.credAuthorized(secret[name], name)
		}
	}
	refused := func(e *env, names ...string) {
		for _, name := range names {
			e.credRefused(secret[name])
		}
	}
	authorized(e, "alice", "bot", "subbot")

	t.Run("deactivating the person stops the whole chain", func(t *testing.T) {
		e := e.sub(t)
		u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": false})
		if u["active"] != false || u["deactivated_at"] == nil {
			t.Fatalf("alice after deactivation: %v", u)
		}
		refused(e, "alice", "bot", "subbot")
		e.credAuthorized(e.Admin, "admin")
	})
	t.Run("reactivating the person restores the chain", func(t *testing.T) {
		e := e.sub(t)
		u := e.OK(http.StatusOK, http.MethodPatch, "/v1/users/alice", e.Admin, map[string]any{"active": true})
		if u["active"] != true || u["deactivated_at"] != nil {
			t.Fatalf("alice after reactivation: %v", u)
		}
		authorized(e, "alice", "bot", "subbot")
	})
	t.Run("deactivating the agent stops it and what answers to it", func(t *testing.T) {
		e := e.sub(t)
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bot", e.Admin, map[string]any{"active": false})
		refused(e, "bot", "subbot")
		authorized(e, "alice")
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bot", e.Admin, map[string]any{"active": true})
		authorized(e, "bot", "subbot")
	})
	t.Run("deactivating the leaf agent leaves the rest", func(t *testing.T) {
		e := e.sub(t)
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/subbot", e.Admin, map[string]any{"active": false})
		refused(e, "subbot")
		authorized(e, "bot", "alice")
	})
	t.Run("a deactivated account cannot be issued a credential", func(t *testing.T) {
		e.sub(t).Problem(http.StatusConflict, "account_inactive", http.MethodPost, "/v1/tokens", e.Admin, map[string]any{"username": "subbot"})
	})
	t.Run("a member cannot deactivate", func(t *testing.T) {
		e.sub(t).Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/users/bot", alice, map[string]any{"active": false})
		e.sub(t).credAuthorized(bot, "bot")
	})
}

func TestMeEffectivePermissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.Member("alice", "member")
	memberPerms := []string{"item:read", "item:write", "project:read", "project:write", "workspace:read"}

	workspaces := func(t *testing.T, me map[string]any) map[string]map[string]any {
		t.Helper()
		out := map[string]map[string]any{}
		for _, w := range me["workspaces"].([]any) {
			m := w.(map[string]any)
			out[m["slug"].(string)] = m
		}
		return out
	}

	t.Run("member with every scope", func(t *testing.T) {
		me := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/me", alice, nil)
		ws := workspaces(t, me)
		if len(ws) != 1 || ws["default"] == nil {
			t.Fatalf("workspaces %v, want default only", me["workspaces"])
		}
		if got := credStrings(t, ws["default"]["permissions"]); !reflect.DeepEqual(got, memberPerms) {
			t.Fatalf("permissions %v, want %v", got, memberPerms)
		}
		if ws["default"]["role"] != "member" {
			t.Fatalf("role %v, want member", ws["default"]["role"])
		}
		want := []string{"account:write", "credential:manage", "workspace:create"}
		if got := credStrings(t, me["instance_permissions"]); !reflect.DeepEqual(got, want) {
			t.Fatalf("instance_permissions %v, want %v", got, want)
		}
	})
	t.Run("member token narrowed to reading", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(alice, map[string]any{"scopes": []string{"item:read", "project:read"}})["token"].(string)
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", narrow, nil)
		ws := workspaces(t, me)
		if got := credStrings(t, ws["default"]["permissions"]); !reflect.DeepEqual(got, []string{"item:read", "project:read"}) {
			t.Fatalf("permissions %v, want [item:read project:read]", got)
		}
		if ws["default"]["role"] != "member" {
			t.Fatalf("the role is the account's, not narrowed: got %v", ws["default"]["role"])
		}
		if got := credStrings(t, me["instance_permissions"]); len(got) != 0 || got == nil {
			t.Fatalf("instance_permissions %v, want an empty array", me["instance_permissions"])
		}
		c := me["credential"].(map[string]any)
		if c["narrows"] != true || !reflect.DeepEqual(credStrings(t, c["scopes"]), []string{"item:read", "project:read"}) {
			t.Fatalf("credential %v", c)
		}
	})
	t.Run("a scope the role lacks grants nothing", func(t *testing.T) {
		e := e.sub(t)
		vera := e.Member("vera", "viewer")
		tok := e.Issue(vera, map[string]any{"scopes": []string{"item:read", "item:write", "project:read"}})["token"].(string)
		ws := workspaces(t, e.OK(http.StatusOK, http.MethodGet, "/v1/me", tok, nil))
		if got := credStrings(t, ws["default"]["permissions"]); !reflect.DeepEqual(got, []string{"item:read", "project:read"}) {
			t.Fatalf("a viewer's token scoped to item:read, item:write and project:read has %v, want [item:read project:read]", got)
		}
	})
	t.Run("administrator token narrowed", func(t *testing.T) {
		e := e.sub(t)
		narrow := e.Issue(e.Admin, map[string]any{"scopes": []string{"item:read", "project:read", "instance:user_create"}})["token"].(string)
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", narrow, nil)
		if got := credStrings(t, me["instance_permissions"]); !reflect.DeepEqual(got, []string{"instance:user_create"}) {
			t.Fatalf("instance_permissions %v, want [instance:user_create]", got)
		}
		if got := credStrings(t, workspaces(t, me)["default"]["permissions"]); !reflect.DeepEqual(got, []string{"item:read", "project:read"}) {
			t.Fatalf("permissions %v, want [item:read project:read]", got)
		}
		full := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
		want := []string{"account:write", "credential:manage", "instance:admin", "instance:user_create", "workspace:create"}
		if got := credStrings(t, full["instance_permissions"]); !reflect.DeepEqual(got, want) {
			t.Fatalf("administrator's instance_permissions %v, want %v", got, want)
		}
	})
}

func TestMePinnedToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	w2 := e.credWorkspace("w2")
	full := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	if n := len(full["workspaces"].([]any)); n != 2 {
		t.Fatalf("the unpinned administrator reaches %d workspaces, want 2", n)
	}
	pinned := e.Issue(e.Admin, map[string]any{"workspace": "w2"})
	if pinned["workspace_id"] != w2 {
		t.Fatalf("issued workspace_id %v, want %s", pinned["workspace_id"], w2)
	}
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", pinned["token"].(string), nil)
	ws := me["workspaces"].([]any)
	if len(ws) != 1 || ws[0].(map[string]any)["slug"] != "w2" || ws[0].(map[string]any)["id"] != w2 {
		t.Fatalf("a token pinned to w2 lists %v", ws)
	}
	c := me["credential"].(map[string]any)
	if c["workspace_id"] != w2 || c["narrows"] != true {
		t.Fatalf("credential %v, want workspace_id %s and narrows true", c, w2)
	}
	// A pinned credential reaches nothing in other workspaces, even an
	// administrator's, which unpinned reaches every workspace.
	tok := pinned["token"].(string)
	e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/w2", tok, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default", e.Admin, nil)
	e.Person("carol")
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/default", tok, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/workspaces/default/members", tok, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/workspaces/default/members", tok, map[string]any{"username": "carol", "role": "owner"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/w2/members", tok, map[string]any{"username": "carol", "role": "viewer"})

	// Nor anything instance-wide: a pinned administrator's token holds no
	// instance permission.
	if ip := me["instance_permissions"].([]any); len(ip) != 0 {
		t.Fatalf("a pinned token holds instance permissions %v, want none", ip)
	}
	e.Problem(http.StatusForbidden, "forbidden", http.MethodGet, "/v1/instance/workspaces", tok, nil)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/instance", tok, map[string]any{"name": "x"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/users", tok, map[string]any{"username": "dave"})
}

func TestMeCredentialFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fields := []string{"expires_at", "id", "kind", "last_used_at", "narrows", "prefix", "project_scope", "project_scope_keys",
		"project_write_scope", "project_write_scope_keys", "scopes", "title", "workspace_id"}

	t.Run("the first administrator token narrows nothing", func(t *testing.T) {
		me := e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
		c := me["credential"].(map[string]any)
		for _, f := range fields {
			if _, ok := c[f]; !ok {
				t.Errorf("credential lacks %s: %v", f, c)
			}
		}
		if _, ok := c["token"]; ok {
			t.Fatalf("credential carries a secret field: %v", c)
		}
		if c["narrows"] != false || !reflect.DeepEqual(credStrings(t, c["scopes"]), []string{"*"}) || c["workspace_id"] != nil ||
			c["project_scope"] != nil || c["project_write_scope"] != nil || c["expires_at"] != nil {
			t.Fatalf("credential %v, want an unnarrowed one", c)
		}
		if c["kind"] != "api_token" || !strings.HasPrefix(e.Admin, c["prefix"].(string)) {
			t.Fatalf("credential kind %v prefix %v", c["kind"], c["prefix"])
		}
		if c["last_used_at"] == nil {
			t.Fatalf("last_used_at stays null after use: %v", c)
		}
		u := me["user"].(map[string]any)
		if u["username"] != "admin" || u["is_superuser"] != true || u["is_service_account"] != false {
			t.Fatalf("user %v", u)
		}
		if me["api_version"] == "" || me["api_version"] == nil {
			t.Fatalf("api_version missing: %v", me)
		}
	})
	t.Run("a project-scoped, expiring token reports its limits", func(t *testing.T) {
		e := e.sub(t)
		exp := e.Clock.Now().Add(48 * time.Hour)
		tok := e.Issue(e.Admin, map[string]any{"title": "scoped", "project_scope": []string{"inbox"}, "expires_at": credTime(exp)})
		me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", tok["token"].(string), nil)
		c := me["credential"].(map[string]any)
		if c["narrows"] != true || c["title"] != "scoped" || c["id"] != tok["id"] || c["prefix"] != tok["prefix"] {
			t.Fatalf("credential %v", c)
		}
		if !credParse(t, c["expires_at"]).Equal(exp) {
			t.Fatalf("expires_at %v, want %s", c["expires_at"], exp)
		}
		if got := credStrings(t, c["project_scope_keys"]); !reflect.DeepEqual(got, []string{"inbox"}) {
			t.Fatalf("project_scope_keys %v", got)
		}
		if got := credStrings(t, c["project_scope"]); !reflect.DeepEqual(got, credStrings(t, tok["project_scope"])) || len(got) != 1 {
			t.Fatalf("project_scope %v, issued %v", got, tok["project_scope"])
		}
		if strings.Contains(string(e.Do(http.MethodGet, "/v1/me", tok["token"].(string), nil).Body), tok["token"].(string)) {
			t.Fatal("GET /v1/me shows the secret")
		}
	})
}

// TestAccessLogRedactsSecrets: a real credential put anywhere in a URL,
// mid-segment, encoded, in a query key or as a sign-in link or feed
// secret, never reaches the log; its public prefix may.
func TestAccessLogRedactsSecrets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.Admin
	tail := secret[strings.LastIndex(secret, "_")+1:]
	for _, path := range []string{
		"/v1/tasks/x" + secret,
		"/v1/tasks/" + url.PathEscape(url.PathEscape(secret)),
		"/v1/tasks?" + secret + "=1",
		"/v1/tasks?q=" + url.QueryEscape(url.QueryEscape(secret)),
		"/signin?link=" + tail,
		"/v1/calendars/cal_x/" + tail + ".ics",
	} {
		e.Do(http.MethodGet, path, e.Admin, nil)
	}
	logs := e.LogText()
	if strings.Contains(logs, tail) || strings.Contains(logs, tail[:24]) {
		t.Fatalf("the access log holds a secret:\n%s", logs)
	}
	if !strings.Contains(logs, "/v1/tasks/x"+secret[:len("tend_")+10]) {
		t.Errorf("the access log lost the public prefix:\n%s", logs)
	}
}
