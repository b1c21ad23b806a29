package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web/webtest"
)

func TestSignInLinkSpentOnceAndPreviewDoesNotSpend(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.MintLink(e.Admin, map[string]any{})
	for range 2 { // a link preview, then the person: neither spends it
		r := e.Browser(http.MethodGet, "/signin?link="+secret, "", "", nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "admin") || !strings.Contains(string(r.Body), `method="post"`) {
			t.Fatalf("confirmation page: %d\n%s", r.Status, r.Body)
		}
		if r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("confirmation headers %v", r.Header)
		}
	}
	c := e.SignIn(secret)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure {
		t.Fatalf("cookie flags %+v", c)
	}
	me := e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil)
	if me.Status != http.StatusOK || me.JSON(t)["user"].(map[string]any)["username"] != "admin" {
		t.Fatalf("/v1/me with the session: %d %s", me.Status, me.Body)
	}
	home := e.Browser(http.MethodGet, "/", c.Value, "", nil)
	if home.Status != http.StatusOK || !strings.Contains(string(home.Body), `id="quick-add"`) {
		t.Fatalf("landing page: %d %s", home.Status, home.Body)
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} { // spent: the page says so
		var form url.Values
		path := "/signin?link=" + secret
		if m == http.MethodPost {
			form, path = url.Values{"link": {secret}}, "/signin"
		}
		r := e.Browser(m, path, "", e.Srv.URL, form)
		if r.Status != http.StatusGone || !strings.Contains(string(r.Body), "tend signin --user") {
			t.Fatalf("%s spent link: %d\n%s", m, r.Status, r.Body)
		}
	}
	if strings.Contains(e.LogText(), secret) || strings.Contains(e.LogText(), c.Value) {
		t.Fatalf("a secret reached the log:\n%s", e.LogText())
	}
}

func TestSignInLinkExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	secret := e.MintLink(e.Admin, map[string]any{"username": "admin"})
	e.Clock.Advance(app.LoginLinkLifetime)
	r := e.Browser(http.MethodGet, "/signin?link="+secret, "", "", nil)
	if r.Status != http.StatusGone || !strings.Contains(string(r.Body), "no longer works") {
		t.Fatalf("expired link: %d\n%s", r.Status, r.Body)
	}
	if r := e.Browser(http.MethodGet, "/signin?link=tend_nonsense", "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("unknown link: %d", r.Status)
	}
}

func TestSessionSlidesAndIsCapped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.SignIn(e.MintLink(e.Admin, nil))
	step := app.SessionIdleLifetime - time.Hour
	var used time.Duration
	for used+step < app.SessionMaxLifetime { // used within the idle lifetime, it lives on
		e.Clock.Advance(step)
		used += step
		if r := e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil); r.Status != http.StatusOK {
			t.Fatalf("after %s: %d %s", used, r.Status, r.Body)
		}
	}
	e.Clock.Advance(app.SessionMaxLifetime - used)
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")

	idle := e.SignIn(e.MintLink(e.Admin, nil))
	e.Clock.Advance(app.SessionIdleLifetime)
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", idle.Value, "", nil), http.StatusUnauthorized, "unauthorized")
}

func TestSessionCrossSiteWriteRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.SignIn(e.MintLink(e.Admin, nil))
	webtest.AssertProblem(t, e.Browser(http.MethodDelete, "/v1/session", c.Value, "https://evil.example", nil), http.StatusForbidden, "cross_origin")
	webtest.AssertProblem(t, e.Browser(http.MethodPost, "/signin", "", "https://evil.example", url.Values{"link": {e.MintLink(e.Admin, nil)}}),
		http.StatusForbidden, "cross_origin")
	// A bearer request is not a browser's: no origin check.
	req, _ := http.NewRequest(http.MethodPost, e.Srv.URL+"/v1/login-links", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+e.Admin)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	res, err := e.Srv.Client().Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("bearer from another origin: %v %v", err, res)
	}
	res.Body.Close()
	if r := e.Browser(http.MethodDelete, "/v1/session", c.Value, e.Srv.URL, nil); r.Status != http.StatusNoContent {
		t.Fatalf("same-origin sign-out: %d %s", r.Status, r.Body)
	}
}

func TestSessionSignOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.SignIn(e.MintLink(e.Admin, nil))
	r := e.Browser(http.MethodDelete, "/v1/session", c.Value, e.Srv.URL, nil)
	if r.Status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", r.Status, r.Body)
	}
	cleared := (&http.Response{Header: r.Header}).Cookies()
	if len(cleared) != 1 || cleared[0].Name != "tend_session" || cleared[0].MaxAge >= 0 {
		t.Fatalf("cookie not cleared: %v", cleared)
	}
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	e.Problem(http.StatusBadRequest, "not_a_session", http.MethodDelete, "/v1/session", e.Admin, nil)
}

func TestSessionEndsWithDeactivation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Person("bob")
	c := e.SignIn(e.MintLink(bob, map[string]any{"username": "bob"}))
	link := e.MintLink(bob, nil)
	if r := e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil); r.Status != http.StatusOK {
		t.Fatalf("bob's session: %d", r.Status)
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"active": false})
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"active": true})
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	if r := e.Browser(http.MethodGet, "/signin?link="+link, "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("link after deactivation: %d", r.Status)
	}
}

func TestLoginLinkWhoMayMint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Person("bob")
	e.Person("carol")
	e.Problem(http.StatusForbidden, "token_for_other_account", http.MethodPost, "/v1/login-links", bob, map[string]any{"username": "carol"})
	narrow := e.Issue(bob, map[string]any{"scopes": []string{"item:read", "project:read"}})["token"].(string)
	e.Problem(http.StatusForbidden, "login_link_narrowed", http.MethodPost, "/v1/login-links", narrow, map[string]any{})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/login-links", e.Admin, map[string]any{"username": "nobody"})
	e.MintLink(e.Admin, map[string]any{"username": "carol"})
}

func TestSessionCookieSecureBehindHTTPSPublicURL(t *testing.T) {
	t.Parallel()
	e := &env{webtest.NewWith(t, app.Options{Version: "test", PublicURL: "https://tend.example"})}
	l := e.OK(http.StatusCreated, http.MethodPost, "/v1/login-links", e.Admin, map[string]any{})
	if !strings.HasPrefix(l["url"].(string), "https://tend.example/signin?link=tend_") {
		t.Fatalf("url %v", l["url"])
	}
	u, _ := url.Parse(l["url"].(string))
	if c := e.SignIn(u.Query().Get("link")); !c.Secure {
		t.Fatalf("cookie not Secure behind an https public_url: %+v", c)
	}
}

func TestSignOutEverywhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Person("bob")
	carol := e.Person("carol")
	one := e.SignIn(e.MintLink(bob, nil))
	two := e.SignIn(e.MintLink(bob, nil))
	unspent := e.MintLink(bob, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/users/bob/signout", carol, nil)
	got := e.OK(http.StatusOK, http.MethodPost, "/v1/users/bob/signout", bob, nil)
	if got["sessions"] != float64(2) || got["links"] != float64(1) {
		t.Fatalf("SignedOut %v", got)
	}
	for _, c := range []*http.Cookie{one, two} {
		webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	}
	if r := e.Browser(http.MethodGet, "/signin?link="+unspent, "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("revoked link: %d", r.Status)
	}
	e.SignIn(e.MintLink(carol, nil))
	if got := e.OK(http.StatusOK, http.MethodPost, "/v1/users/carol/signout", e.Admin, nil); got["sessions"] != float64(1) {
		t.Fatalf("administrator signs carol out: %v", got)
	}
}

func TestSessionActionRecordsNoToken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.SignIn(e.MintLink(e.Admin, nil))
	req := e.Request(http.MethodPost, "/v1/tasks", strings.NewReader(`{"title":"from the browser"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", e.Srv.URL)
	req.AddCookie(c)
	task := e.Send(req)
	if task.Status != http.StatusCreated {
		t.Fatalf("same-origin write with the session: %d %s", task.Status, task.Body)
	}
	ref := task.JSON(t)["ref"]
	evs := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+strings.TrimPrefix(fmt.Sprint(ref), "#")+"/events", e.Admin, nil)["items"].([]any)
	ev := evs[0].(map[string]any)
	if len(evs) != 1 || ev["actor_token_id"] != nil || ev["actor_interface"] != "web" || ev["actor_user_id"] == nil {
		t.Fatalf("event of a session-authenticated write: %v", evs)
	}
}

func TestLoginLinkRefusedForInactiveOrServiceAccounts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Person("bob")
	e.Issue(e.Admin, map[string]any{"username": "robot", "answers_to": "admin"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/login-links", e.Admin, map[string]any{"username": "robot"})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"active": false})
	e.Problem(http.StatusConflict, "account_inactive", http.MethodPost, "/v1/login-links", e.Admin, map[string]any{"username": "bob"})
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodPost, "/v1/login-links", "", map[string]any{})
}
