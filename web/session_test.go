package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web"
)

// browser sends requests with a session cookie (and no Authorization
// header), from the server's own origin unless origin says otherwise.
func (e *env) browser(method, path, session, origin string, form url.Values) response {
	e.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, e.srv.URL+path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	client := *e.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// mintLink mints a sign-in link with token and returns its secret.
func (e *env) mintLink(token string, body map[string]any) string {
	e.t.Helper()
	l := e.ok(http.StatusCreated, http.MethodPost, "/v1/login-links", token, body)
	u, err := url.Parse(l["url"].(string))
	if err != nil || u.Path != "/signin" {
		e.t.Fatalf("sign-in url %v", l["url"])
	}
	return u.Query().Get("link")
}

// signIn spends secret from the confirmation page and returns the session cookie.
func (e *env) signIn(secret string) *http.Cookie {
	e.t.Helper()
	r := e.browser(http.MethodPost, "/signin", "", e.srv.URL, url.Values{"link": {secret}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		e.t.Fatalf("sign in: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" {
			return c
		}
	}
	e.t.Fatal("no tend_session cookie")
	return nil
}

func TestSignInLinkSpentOnceAndPreviewDoesNotSpend(t *testing.T) {
	e := newEnv(t)
	secret := e.mintLink(e.admin, map[string]any{})
	for range 2 { // a link preview, then the person: neither spends it
		r := e.browser(http.MethodGet, "/signin?link="+secret, "", "", nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "admin") || !strings.Contains(string(r.Body), `method="post"`) {
			t.Fatalf("confirmation page: %d\n%s", r.Status, r.Body)
		}
		if r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("confirmation headers %v", r.Header)
		}
	}
	c := e.signIn(secret)
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure {
		t.Fatalf("cookie flags %+v", c)
	}
	me := e.browser(http.MethodGet, "/v1/me", c.Value, "", nil)
	if me.Status != http.StatusOK || me.JSON(t)["user"].(map[string]any)["username"] != "admin" {
		t.Fatalf("/v1/me with the session: %d %s", me.Status, me.Body)
	}
	home := e.browser(http.MethodGet, "/", c.Value, "", nil)
	if home.Status != http.StatusOK || !strings.Contains(string(home.Body), `id="quick-add"`) {
		t.Fatalf("landing page: %d %s", home.Status, home.Body)
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} { // spent: the page says so
		var form url.Values
		path := "/signin?link=" + secret
		if m == http.MethodPost {
			form, path = url.Values{"link": {secret}}, "/signin"
		}
		r := e.browser(m, path, "", e.srv.URL, form)
		if r.Status != http.StatusGone || !strings.Contains(string(r.Body), "tend signin --user") {
			t.Fatalf("%s spent link: %d\n%s", m, r.Status, r.Body)
		}
	}
	if strings.Contains(e.logText(), secret) || strings.Contains(e.logText(), c.Value) {
		t.Fatalf("a secret reached the log:\n%s", e.logText())
	}
}

func TestSignInLinkExpires(t *testing.T) {
	e := newEnv(t)
	secret := e.mintLink(e.admin, map[string]any{"username": "admin"})
	e.clock.Advance(app.LoginLinkLifetime)
	r := e.browser(http.MethodGet, "/signin?link="+secret, "", "", nil)
	if r.Status != http.StatusGone || !strings.Contains(string(r.Body), "no longer works") {
		t.Fatalf("expired link: %d\n%s", r.Status, r.Body)
	}
	if r := e.browser(http.MethodGet, "/signin?link=tend_nonsense", "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("unknown link: %d", r.Status)
	}
}

func TestSessionSlidesAndIsCapped(t *testing.T) {
	e := newEnv(t)
	c := e.signIn(e.mintLink(e.admin, nil))
	step := app.SessionIdleLifetime - time.Hour
	var used time.Duration
	for used+step < app.SessionMaxLifetime { // used within the idle lifetime, it lives on
		e.clock.Advance(step)
		used += step
		if r := e.browser(http.MethodGet, "/v1/me", c.Value, "", nil); r.Status != http.StatusOK {
			t.Fatalf("after %s: %d %s", used, r.Status, r.Body)
		}
	}
	e.clock.Advance(app.SessionMaxLifetime - used)
	assertProblem(t, e.browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")

	idle := e.signIn(e.mintLink(e.admin, nil))
	e.clock.Advance(app.SessionIdleLifetime)
	assertProblem(t, e.browser(http.MethodGet, "/v1/me", idle.Value, "", nil), http.StatusUnauthorized, "unauthorized")
}

func TestSessionCrossSiteWriteRefused(t *testing.T) {
	e := newEnv(t)
	c := e.signIn(e.mintLink(e.admin, nil))
	assertProblem(t, e.browser(http.MethodDelete, "/v1/session", c.Value, "https://evil.example", nil), http.StatusForbidden, "cross_origin")
	assertProblem(t, e.browser(http.MethodPost, "/signin", "", "https://evil.example", url.Values{"link": {e.mintLink(e.admin, nil)}}),
		http.StatusForbidden, "cross_origin")
	// A bearer request is not a browser's: no origin check.
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/login-links", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+e.admin)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "https://evil.example")
	res, err := e.srv.Client().Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("bearer from another origin: %v %v", err, res)
	}
	res.Body.Close()
	if r := e.browser(http.MethodDelete, "/v1/session", c.Value, e.srv.URL, nil); r.Status != http.StatusNoContent {
		t.Fatalf("same-origin sign-out: %d %s", r.Status, r.Body)
	}
}

func TestSessionSignOut(t *testing.T) {
	e := newEnv(t)
	c := e.signIn(e.mintLink(e.admin, nil))
	r := e.browser(http.MethodDelete, "/v1/session", c.Value, e.srv.URL, nil)
	if r.Status != http.StatusNoContent {
		t.Fatalf("sign out: %d %s", r.Status, r.Body)
	}
	cleared := (&http.Response{Header: r.Header}).Cookies()
	if len(cleared) != 1 || cleared[0].Name != "tend_session" || cleared[0].MaxAge >= 0 {
		t.Fatalf("cookie not cleared: %v", cleared)
	}
	assertProblem(t, e.browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	e.problem(http.StatusBadRequest, "not_a_session", http.MethodDelete, "/v1/session", e.admin, nil)
}

func TestSessionEndsWithDeactivation(t *testing.T) {
	e := newEnv(t)
	bob := e.person("bob")
	c := e.signIn(e.mintLink(bob, map[string]any{"username": "bob"}))
	link := e.mintLink(bob, nil)
	if r := e.browser(http.MethodGet, "/v1/me", c.Value, "", nil); r.Status != http.StatusOK {
		t.Fatalf("bob's session: %d", r.Status)
	}
	e.ok(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.admin, map[string]any{"active": false})
	assertProblem(t, e.browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	e.ok(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.admin, map[string]any{"active": true})
	assertProblem(t, e.browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	if r := e.browser(http.MethodGet, "/signin?link="+link, "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("link after deactivation: %d", r.Status)
	}
}

func TestLoginLinkWhoMayMint(t *testing.T) {
	e := newEnv(t)
	bob := e.person("bob")
	e.person("carol")
	e.problem(http.StatusForbidden, "token_for_other_account", http.MethodPost, "/v1/login-links", bob, map[string]any{"username": "carol"})
	narrow := e.issue(bob, map[string]any{"scopes": []string{"item:read", "project:read"}})["token"].(string)
	e.problem(http.StatusForbidden, "login_link_narrowed", http.MethodPost, "/v1/login-links", narrow, map[string]any{})
	e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/login-links", e.admin, map[string]any{"username": "nobody"})
	e.mintLink(e.admin, map[string]any{"username": "carol"})
}

func TestSessionCookieSecureBehindHTTPSPublicURL(t *testing.T) {
	db, clock := storetest.OpenClock(t)
	svc := app.New(db, app.Options{Version: "test", PublicURL: "https://tend.example"})
	first, err := svc.Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.NewServer(svc, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	e := &env{t: t, db: db, clock: clock, svc: svc, srv: srv, admin: first.Token.Secret, logs: &lockedWriter{}}
	l := e.ok(http.StatusCreated, http.MethodPost, "/v1/login-links", e.admin, map[string]any{})
	if !strings.HasPrefix(l["url"].(string), "https://tend.example/signin?link=tend_") {
		t.Fatalf("url %v", l["url"])
	}
	u, _ := url.Parse(l["url"].(string))
	if c := e.signIn(u.Query().Get("link")); !c.Secure {
		t.Fatalf("cookie not Secure behind an https public_url: %+v", c)
	}
}

func TestSignOutEverywhere(t *testing.T) {
	e := newEnv(t)
	bob := e.person("bob")
	carol := e.person("carol")
	one := e.signIn(e.mintLink(bob, nil))
	two := e.signIn(e.mintLink(bob, nil))
	unspent := e.mintLink(bob, nil)
	e.problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/users/bob/signout", carol, nil)
	got := e.ok(http.StatusOK, http.MethodPost, "/v1/users/bob/signout", bob, nil)
	if got["sessions"] != float64(2) || got["links"] != float64(1) {
		t.Fatalf("SignedOut %v", got)
	}
	for _, c := range []*http.Cookie{one, two} {
		assertProblem(t, e.browser(http.MethodGet, "/v1/me", c.Value, "", nil), http.StatusUnauthorized, "unauthorized")
	}
	if r := e.browser(http.MethodGet, "/signin?link="+unspent, "", "", nil); r.Status != http.StatusGone {
		t.Fatalf("revoked link: %d", r.Status)
	}
	e.signIn(e.mintLink(carol, nil))
	if got := e.ok(http.StatusOK, http.MethodPost, "/v1/users/carol/signout", e.admin, nil); got["sessions"] != float64(1) {
		t.Fatalf("administrator signs carol out: %v", got)
	}
}

func TestSessionActionRecordsNoToken(t *testing.T) {
	e := newEnv(t)
	c := e.signIn(e.mintLink(e.admin, nil))
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/tasks", strings.NewReader(`{"title":"from the browser"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", e.srv.URL)
	req.AddCookie(c)
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	task := response{Status: res.StatusCode, Body: b}
	if task.Status != http.StatusCreated {
		t.Fatalf("same-origin write with the session: %d %s", task.Status, b)
	}
	ref := task.JSON(t)["ref"]
	evs := e.ok(http.StatusOK, http.MethodGet, "/v1/tasks/"+strings.TrimPrefix(fmt.Sprint(ref), "#")+"/events", e.admin, nil)["items"].([]any)
	ev := evs[0].(map[string]any)
	if len(evs) != 1 || ev["actor_token_id"] != nil || ev["actor_interface"] != "web" || ev["actor_user_id"] == nil {
		t.Fatalf("event of a session-authenticated write: %v", evs)
	}
}

func TestLoginLinkRefusedForInactiveOrServiceAccounts(t *testing.T) {
	e := newEnv(t)
	e.person("bob")
	e.issue(e.admin, map[string]any{"username": "robot", "answers_to": "admin"})
	e.problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/login-links", e.admin, map[string]any{"username": "robot"})
	e.ok(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.admin, map[string]any{"active": false})
	e.problem(http.StatusConflict, "account_inactive", http.MethodPost, "/v1/login-links", e.admin, map[string]any{"username": "bob"})
	e.problem(http.StatusUnauthorized, "unauthorized", http.MethodPost, "/v1/login-links", "", map[string]any{})
}
