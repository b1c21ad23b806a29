package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// invite makes an invite to the default workspace with token and answers
// the IssuedInvite and its secret.
func (e *env) invite(token string, body map[string]any) (map[string]any, string) {
	e.T.Helper()
	i := e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/invites", token, body)
	u, err := url.Parse(i["url"].(string))
	if err != nil || !strings.HasPrefix(u.Path, "/join/") {
		e.T.Fatalf("invite url %v", i["url"])
	}
	return i, strings.TrimPrefix(u.Path, "/join/")
}

func (e *env) accept(secret, username string) webtest.Response {
	e.T.Helper()
	return e.Do(http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": secret, "username": username, "timezone": "Europe/Berlin"})
}

func TestInviteAPI(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	admin := e.Member("ada", "admin")
	member := e.Member("max", "member")
	outsider := e.Person("out")

	i, secret := e.invite(admin, map[string]any{"role": "member", "max_uses": 2, "expires_in": "2d", "note": "welcome"})
	if i["role"] != "member" || i["max_uses"] != float64(2) || i["uses"] != float64(0) || i["state"] != "usable" || i["created_by"] != "ada" ||
		i["note"] != "welcome" || i["workspace"] != "default" {
		t.Errorf("invite %v", i)
	}
	path := "/v1/workspaces/default/invites"
	for _, c := range []struct {
		name, token string
		body        map[string]any
		status      int
		code        string
	}{
		{"a member", member, map[string]any{"role": "member"}, 403, "forbidden"},
		{"a stranger to the workspace", outsider, map[string]any{"role": "member"}, 404, "not_found"},
		{"no credential", "", map[string]any{"role": "member"}, 401, "unauthorized"},
		{"a role above the admin's", admin, map[string]any{"role": "owner"}, 403, "forbidden"},
		{"a bad role", admin, map[string]any{"role": "boss"}, 422, "validation"},
		{"more than 30 days", admin, map[string]any{"role": "member", "expires_in": "31d"}, 422, "validation"},
		{"no uses", admin, map[string]any{"role": "member", "max_uses": -1}, 422, "validation"},
		{"101 uses", admin, map[string]any{"role": "member", "max_uses": 101}, 422, "validation"},
		{"an unknown field", admin, map[string]any{"role": "member", "uses": 3}, 422, "validation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.sub(t).Problem(c.status, c.code, http.MethodPost, path, c.token, c.body)
		})
	}
	e.Problem(403, "forbidden", http.MethodGet, path, member, nil)
	e.Problem(404, "not_found", http.MethodGet, path, outsider, nil)
	e.Problem(403, "forbidden", http.MethodDelete, path+"/"+i["id"].(string), member, nil)
	e.Problem(404, "not_found", http.MethodDelete, path+"/no-such-invite", admin, nil)

	// Joining: the account, the membership, the session.
	r := e.accept(secret, "zoe")
	if r.Status != http.StatusCreated {
		t.Fatalf("accept: %d %s", r.Status, r.Body)
	}
	j := r.JSON(t)
	if u := j["user"].(map[string]any); u["username"] != "zoe" || u["is_service_account"] != false || u["timezone"] != "Europe/Berlin" ||
		j["workspace"] != "default" || j["role"] != "member" {
		t.Errorf("joined %v", j)
	}
	var session string
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" && c.HttpOnly {
			session = c.Value
		}
	}
	if me := e.Browser(http.MethodGet, "/v1/me", session, "", nil); me.Status != 200 || !strings.Contains(string(me.Body), `"zoe"`) {
		t.Errorf("the new session: %d %s", me.Status, me.Body)
	}

	users := len(e.OK(200, http.MethodGet, "/v1/users", e.Admin, nil)["items"].([]any))
	webtest.AssertProblem(t, e.accept(secret, "ZOE"), 409, "username_taken")
	webtest.AssertProblem(t, e.accept(secret, "no spaces"), 422, "validation")
	webtest.AssertProblem(t, e.accept("tend_aaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "yan"), 410, "invite_unusable")
	e.Problem(422, "validation", http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": secret, "username": "yan"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": secret, "username": "yan", "timezone": "UTC"})
	webtest.AssertProblem(t, e.accept(secret, "xia"), 410, "invite_unusable") // used up

	revoked, revokedSecret := e.invite(admin, map[string]any{"role": "member"})
	e.OK(http.StatusNoContent, http.MethodDelete, path+"/"+revoked["id"].(string), admin, nil)
	webtest.AssertProblem(t, e.accept(revokedSecret, "xia"), 410, "invite_unusable")
	_, expiredSecret := e.invite(admin, map[string]any{"role": "member", "expires_in": "1h"})
	e.Clock.Advance(time.Hour)
	p := e.accept(expiredSecret, "xia")
	webtest.AssertProblem(t, p, 410, "invite_unusable")
	if !strings.Contains(string(p.Body), "expired on") {
		t.Errorf("an expired invite's problem says %s", p.Body)
	}
	if got := len(e.OK(200, http.MethodGet, "/v1/users", e.Admin, nil)["items"].([]any)); got != users+1 {
		t.Errorf("%d accounts made, want only yan", got-users)
	}

	list := e.OK(200, http.MethodGet, path, admin, nil)["items"].([]any)
	states := map[string]string{}
	for _, it := range list {
		m := it.(map[string]any)
		states[m["id"].(string)] = m["state"].(string)
		if m["id"] == i["id"] && (m["uses"] != float64(2) || len(m["used_by"].([]any)) != 2) {
			t.Errorf("the used invite %v", m)
		}
	}
	if states[i["id"].(string)] != "used_up" || states[revoked["id"].(string)] != "revoked" || len(list) != 3 {
		t.Errorf("states %v", states)
	}
}

func TestInviteAcceptCrossOrigin(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, secret := e.invite(e.Admin, map[string]any{"role": "member"})
	req := e.Request(http.MethodPost, "/v1/invites/accept", strings.NewReader(`{"invite":"`+secret+`","username":"zoe","timezone":"UTC"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://elsewhere.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	webtest.AssertProblem(t, e.Send(req), 403, "cross_origin")
	webtest.AssertProblem(t, e.accept(secret+"x", "zoe"), 410, "invite_unusable")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/invites/accept", "", map[string]any{"invite": secret, "username": "zoe", "timezone": "UTC"})
}

// TestUsernameCheck: the join form's live check answers the holder of a
// usable invite, and anyone else as a spent invite is answered, so that
// whether an account exists is no one's to ask without one.
func TestUsernameCheck(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	e.Person("taken")
	_, secret := e.invite(e.Admin, map[string]any{"role": "member"})
	ask := func(invite, name string) webtest.Response {
		return e.Do(http.MethodPost, "/v1/invites/check", "", map[string]any{"invite": invite, "username": name})
	}
	for name, want := range map[string]bool{"free": true, "taken": false, "me": false} {
		got := e.OK(200, http.MethodPost, "/v1/invites/check", "", map[string]any{"invite": secret, "username": name})
		if got["available"] != want || got["username"] != name || (got["reason"] == nil) != want {
			t.Errorf("%s: %v", name, got)
		}
	}
	webtest.AssertProblem(t, ask(secret+"x", "taken"), 410, "invite_unusable")
	webtest.AssertProblem(t, ask("", "taken"), 410, "invite_unusable")
	var r webtest.Response
	for n := 0; n < 1000; n++ {
		if r = ask(secret, "free"); r.Status != 200 {
			break
		}
	}
	webtest.AssertProblem(t, r, 429, "too_many_attempts")
	if r.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
}

func TestInviteRedeemRateLimited(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	var r webtest.Response
	for n := 0; n < 1000; n++ {
		if r = e.accept("tend_aaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "zoe"); r.Status != 410 {
			break
		}
	}
	webtest.AssertProblem(t, r, 429, "too_many_attempts")
	if r.Header.Get("Retry-After") != "600" {
		t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
	}
}

// TestInviteSecretNotLogged: the secret of an invite is in no access log
// line, whether it came in a join page's path or a redemption's body, nor
// in an export.
func TestInviteSecretNotLogged(t *testing.T) {
	t.Parallel()
	e := newLogEnv(t, "json", nil)
	_, secret := e.invite(e.Admin, map[string]any{"role": "member", "max_uses": 3})
	e.Do(http.MethodGet, "/join/"+secret, "", nil)
	e.Do(http.MethodGet, "/join/"+secret[:20], "", nil)
	e.Do(http.MethodPost, "/join/"+secret, "", nil)
	e.accept(secret, "zoe")
	tail := secret[strings.LastIndex(secret, "_")+1:]
	if logs := e.LogText(); strings.Contains(logs, tail) || strings.Contains(logs, secret[:20]) || !strings.Contains(logs, "/join/…") {
		t.Errorf("the log holds the invite's secret or no join line:\n%s", logs)
	}
	if x := string(e.export(e.Admin, "?workspace_id=default")); strings.Contains(x, tail) || strings.Contains(x, secret[:15]) {
		t.Error("the export holds the invite's secret or prefix")
	}
}
