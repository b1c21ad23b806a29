package web_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// sessionsOf lists the sessions GET path answers to the session or token.
func (e *env) sessionsOf(path, session, token string) []map[string]any {
	e.T.Helper()
	if token != "" {
		return lstItems(e.OK(http.StatusOK, http.MethodGet, path, token, nil))
	}
	r := e.Browser(http.MethodGet, path, session, "", nil)
	if r.Status != http.StatusOK {
		e.T.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	return lstItems(r.JSON(e.T))
}

func TestSessionsAsDevices(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	ann := e.Person("ann")
	one := e.SignIn(e.MintLink(bob, nil)).Value
	two := e.SignIn(e.MintLink(bob, nil)).Value
	annSession := e.SignIn(e.MintLink(ann, nil)).Value

	e.Clock.Advance(2 * time.Minute)
	mine := e.sessionsOf("/v1/me/sessions", one, "")
	if len(mine) != 2 {
		t.Fatalf("bob's sessions: %v", mine)
	}
	var current, other map[string]any
	for _, s := range mine {
		if s["via"] != "link" || s["browser"] == "" || s["created_at"] == "" || s["last_seen_at"] == "" {
			t.Errorf("session %v", s)
		}
		if s["current"] == true {
			current = s
		} else {
			other = s
		}
	}
	if current == nil || other == nil {
		t.Fatalf("one session is this one: %v", mine)
	}

	// Another person's session answers as a missing one, for her and in
	// her list; the administrator sees bob's and may revoke them.
	otherID := other["id"].(string)
	webtest.AssertProblem(t, e.Browser(http.MethodDelete, "/v1/me/sessions/"+otherID, annSession, e.Srv.URL, nil), http.StatusNotFound, "not_found")
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/users/bob/sessions", annSession, "", nil), http.StatusNotFound, "not_found")
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/users/bob/sessions/"+otherID, ann, nil)
	if got := e.sessionsOf("/v1/users/bob/sessions", "", e.Admin); len(got) != 2 || got[0]["current"] == true {
		t.Fatalf("the administrator's view of bob's sessions: %v", got)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/users/nobody/sessions", e.Admin, nil)

	// Revoked from the first browser, the second is signed out on its next request.
	if r := e.Browser(http.MethodDelete, "/v1/me/sessions/"+otherID, one, e.Srv.URL, nil); r.Status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", two, "", nil), http.StatusUnauthorized, "unauthorized")
	if r := e.Browser(http.MethodGet, "/", two, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("the revoked browser's page: %d", r.Status)
	}
	webtest.AssertProblem(t, e.Browser(http.MethodDelete, "/v1/me/sessions/"+otherID, one, e.Srv.URL, nil), http.StatusNotFound, "not_found")

	// An administrator revokes one of bob's; a token names no session of its own.
	three := e.SignIn(e.MintLink(bob, nil)).Value
	threeID := ""
	for _, s := range e.sessionsOf("/v1/me/sessions", three, "") {
		if s["current"] == true {
			threeID = s["id"].(string)
		}
	}
	if r := e.Do(http.MethodDelete, "/v1/users/bob/sessions/"+threeID, e.Admin, nil); r.Status != http.StatusNoContent {
		t.Fatalf("admin revoke: %d %s", r.Status, r.Body)
	}
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", three, "", nil), http.StatusUnauthorized, "unauthorized")

	// Sign out everywhere else keeps this browser.
	four := e.SignIn(e.MintLink(bob, nil)).Value
	r := e.Browser(http.MethodPost, "/v1/users/bob/signout?keep=current", one, e.Srv.URL, nil)
	if r.Status != http.StatusOK || r.JSON(t)["sessions"] != float64(1) {
		t.Fatalf("sign out everywhere else: %d %s", r.Status, r.Body)
	}
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", four, "", nil), http.StatusUnauthorized, "unauthorized")
	if r := e.Browser(http.MethodGet, "/v1/me", one, "", nil); r.Status != http.StatusOK {
		t.Fatalf("this browser is kept: %d", r.Status)
	}
	e.Problem(http.StatusBadRequest, "not_a_session", http.MethodPost, "/v1/users/bob/signout?keep=current", bob, nil)
	webtest.AssertProblem(t, e.Browser(http.MethodPost, "/v1/users/admin/signout?keep=current", one, e.Srv.URL, nil), http.StatusUnprocessableEntity, "validation")
	webtest.AssertProblem(t, e.Browser(http.MethodPost, "/v1/users/bob/signout?keep=all", one, e.Srv.URL, nil), http.StatusUnprocessableEntity, "validation")
}

func TestSessionIdleSetting(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	for _, days := range []any{0, 366, 1.5, nil} {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/instance", e.Admin, map[string]any{"session_idle_days": days})
	}
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/instance", bob, map[string]any{"session_idle_days": 5})
	if got := e.OK(http.StatusOK, http.MethodPatch, "/v1/instance", e.Admin, map[string]any{"session_idle_days": 5}); got["session_idle_days"] != float64(5) {
		t.Fatalf("instance %v", got)
	}
	c := e.SignIn(e.MintLink(bob, nil)).Value
	for range 3 { // used every four days, it lives past its five
		e.Clock.Advance(4 * 24 * time.Hour)
		if r := e.Browser(http.MethodGet, "/v1/me", c, "", nil); r.Status != http.StatusOK {
			t.Fatalf("used within five days: %d", r.Status)
		}
	}
	e.Clock.Advance(5 * 24 * time.Hour)
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", c, "", nil), http.StatusUnauthorized, "unauthorized")
}

func TestSessionSlidesThirtyDays(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Person("bob")
	used := e.SignIn(e.MintLink(bob, nil)).Value
	unused := e.SignIn(e.MintLink(bob, nil)).Value
	for range 4 { // used every 20 days, alive past 60
		e.Clock.Advance(20 * 24 * time.Hour)
		if r := e.Browser(http.MethodGet, "/v1/me", used, "", nil); r.Status != http.StatusOK {
			t.Fatalf("a session used every 20 days: %d", r.Status)
		}
	}
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", unused, "", nil), http.StatusUnauthorized, "unauthorized")
	fresh := e.SignIn(e.MintLink(bob, nil)).Value
	e.Clock.Advance(31 * 24 * time.Hour)
	webtest.AssertProblem(t, e.Browser(http.MethodGet, "/v1/me", fresh, "", nil), http.StatusUnauthorized, "unauthorized")
}

func TestDeviceLink(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	narrow := e.Issue(bob, map[string]any{"scopes": []string{"item:read", "project:read", "workspace:read"}})["token"].(string)
	session := e.SignIn(e.MintLink(bob, nil)).Value

	r := e.Browser(http.MethodPost, "/v1/me/device-links", session, e.Srv.URL, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("device link: %d %s", r.Status, r.Body)
	}
	link := r.JSON(t)
	if link["expires_at"] != e.Clock.Now().Add(10*time.Minute).UTC().Format(time.RFC3339) && !strings.HasPrefix(link["expires_at"].(string), e.Clock.Now().Add(10*time.Minute).UTC().Format("2006-01-02T15:04")) {
		t.Errorf("expires_at %v, want ten minutes on", link["expires_at"])
	}
	u, _ := url.Parse(link["url"].(string))
	secret := u.Query().Get("link")
	phone := e.SignIn(secret).Value
	var via string
	for _, s := range e.sessionsOf("/v1/me/sessions", phone, "") {
		if s["current"] == true {
			via = s["via"].(string)
		}
	}
	if via != "device_link" {
		t.Errorf("the phone's session began by %q, want device_link", via)
	}
	// Single use.
	if r := e.Browser(http.MethodPost, "/signin", "", e.Srv.URL, url.Values{"link": {secret}}); r.Status != http.StatusGone {
		t.Fatalf("spent twice: %d", r.Status)
	}
	// Ten minutes.
	late := e.OK(http.StatusCreated, http.MethodPost, "/v1/me/device-links", bob, nil)
	e.Clock.Advance(10 * time.Minute)
	u, _ = url.Parse(late["url"].(string))
	if r := e.Browser(http.MethodPost, "/signin", "", e.Srv.URL, url.Values{"link": {u.Query().Get("link")}}); r.Status != http.StatusGone {
		t.Fatalf("spent after ten minutes: %d", r.Status)
	}
	e.Problem(http.StatusForbidden, "login_link_narrowed", http.MethodPost, "/v1/me/device-links", narrow, nil)
	webtest.AssertProblem(t, e.Do(http.MethodPost, "/v1/me/device-links", "", nil), http.StatusUnauthorized, "unauthorized")

	// Rate limited per account.
	for i := 2; i < app.DeviceLinkUserLimit.Max; i++ {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/me/device-links", bob, nil)
	}
	refused := e.Do(http.MethodPost, "/v1/me/device-links", bob, nil)
	webtest.AssertProblem(t, refused, http.StatusTooManyRequests, "too_many_attempts")
	if refused.Header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	if strings.Contains(e.LogText(), secret) || strings.Contains(e.LogText(), session) {
		t.Fatalf("a secret reached the log:\n%s", e.LogText())
	}
}

func TestSignInRateLimits(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	bob := e.Person("bob")
	for range app.SignInLinkAddrLimit.Max {
		if r := e.Browser(http.MethodGet, "/signin?link=tend_aaaaaaaaaa_bbbb", "", "", nil); r.Status != http.StatusGone {
			t.Fatalf("an unknown link: %d", r.Status)
		}
	}
	r := e.Browser(http.MethodPost, "/signin", "", e.Srv.URL, url.Values{"link": {"tend_aaaaaaaaaa_bbbb"}})
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") != "600" || !strings.Contains(string(r.Body), "try again in 10 minutes") {
		t.Fatalf("past the bound: %d %v\n%s", r.Status, r.Header, r.Body)
	}
	e.Clock.Advance(app.SignInLinkAddrLimit.Window)

	for i := 0; i < app.LoginLinkUserLimit.Max; i++ {
		e.MintLink(e.Admin, map[string]any{"username": "bob"})
	}
	p := e.Problem(http.StatusTooManyRequests, "too_many_attempts", http.MethodPost, "/v1/login-links", bob, map[string]any{})
	if !strings.Contains(p["detail"].(string), "sign-in links for this account") {
		t.Errorf("detail %v", p["detail"])
	}
}

// tailscaleServer is a server trusting Tailscale, driven request by
// request so that each names its peer address.
type tailscaleServer struct {
	t     *testing.T
	h     http.Handler
	admin string
	clock *storetest.Clock
}

func newTailscaleServer(t *testing.T) *tailscaleServer {
	db, clock, admin := webtest.OpenBootstrapped(t)
	srv := webtest.Quiet(app.New(db, storetest.Options(app.Options{Version: "test"})))
	srv.TrustTailscale()
	return &tailscaleServer{t: t, h: srv, admin: admin, clock: clock}
}

// send serves a request from peer carrying login (none when empty) and the
// cookie session (none when empty).
func (ts *tailscaleServer) send(method, path, peer, login, session, token string, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.RemoteAddr = net.JoinHostPort(peer, "40000")
	if login != "" {
		req.Header.Set("Tailscale-User-Login", login)
	}
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if method != http.MethodGet {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	w := httptest.NewRecorder()
	ts.h.ServeHTTP(w, req)
	return w
}

func sessionCookie(w *httptest.ResponseRecorder) string {
	for _, c := range w.Result().Cookies() {
		if c.Name == "tend_session" {
			return c.Value
		}
	}
	return ""
}

func TestTailscaleSignIn(t *testing.T) {
	t.Parallel()
	ts := newTailscaleServer(t)
	if w := ts.send(http.MethodPost, "/v1/users", "127.0.0.1", "", "", ts.admin, `{"username":"bob"}`); w.Code != http.StatusCreated {
		t.Fatalf("bob: %d %s", w.Code, w.Body)
	}
	if w := ts.send(http.MethodPatch, "/v1/users/bob", "127.0.0.1", "", "", ts.admin, `{"tailscale_login":"Bob@Example.com"}`); w.Code != http.StatusOK {
		t.Fatalf("link bob: %d %s", w.Code, w.Body)
	}

	// From loopback, the header signs bob in, and the cookie keeps him.
	w := ts.send(http.MethodGet, "/v1/me", "127.0.0.1", "bob@example.com", "", "", "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"username":"bob"`) || !strings.Contains(w.Body.String(), `"tailscale_login":"bob@example.com"`) {
		t.Fatalf("trusted: %d %s", w.Code, w.Body)
	}
	bob := sessionCookie(w)
	if bob == "" {
		t.Fatal("no session cookie")
	}
	if w := ts.send(http.MethodGet, "/v1/me/sessions", "127.0.0.1", "", bob, "", ""); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"via":"tailscale"`) {
		t.Fatalf("bob's sessions: %d %s", w.Code, w.Body)
	}
	// bob belongs to no workspace, so the page is not found; he is signed in.
	if w := ts.send(http.MethodGet, "/account", "::1", "BOB@example.com", "", "", ""); sessionCookie(w) == "" || !strings.Contains(w.Body.String(), `href="/account"`) {
		t.Fatalf("a page from ::1: %d", w.Code)
	}

	// From any other peer the header is ignored.
	for _, peer := range []string{"192.0.2.7", "100.64.0.9", "10.0.0.1"} {
		w := ts.send(http.MethodGet, "/v1/me", peer, "bob@example.com", "", "", "")
		if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `"code":"unauthorized"`) || sessionCookie(w) != "" {
			t.Fatalf("from %s: %d %s", peer, w.Code, w.Body)
		}
	}

	// An unknown login: a problem for the API, a page for a browser, both naming whom to ask.
	w = ts.send(http.MethodGet, "/v1/me", "127.0.0.1", "eve@example.com", "", "", "")
	if w.Code != http.StatusUnauthorized || !strings.Contains(w.Body.String(), `"code":"tailscale_unlinked"`) ||
		!strings.Contains(w.Body.String(), "You are eve@example.com on Tailscale") || !strings.Contains(w.Body.String(), "Ask admin") {
		t.Fatalf("unknown login: %d %s", w.Code, w.Body)
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.RemoteAddr = "127.0.0.1:40000"
	req.Header.Set("Tailscale-User-Login", "eve@example.com")
	req.Header.Set("Accept", "text/html")
	pw := httptest.NewRecorder()
	ts.h.ServeHTTP(pw, req)
	if pw.Code != http.StatusUnauthorized || !strings.Contains(pw.Body.String(), "no tend account is linked to that login") {
		t.Fatalf("unknown login's page: %d %s", pw.Code, pw.Body)
	}

	// A login linked already is a conflict; only an administrator links one.
	if w := ts.send(http.MethodPost, "/v1/users", "127.0.0.1", "", "", ts.admin, `{"username":"carol"}`); w.Code != http.StatusCreated {
		t.Fatalf("carol: %d", w.Code)
	}
	w = ts.send(http.MethodPatch, "/v1/users/carol", "127.0.0.1", "", "", ts.admin, `{"tailscale_login":"BOB@example.com"}`)
	if w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), `"code":"conflict"`) {
		t.Fatalf("a login linked twice: %d %s", w.Code, w.Body)
	}
	w = ts.send(http.MethodPatch, "/v1/users/bob", "127.0.0.1", "", bob, "", `{"tailscale_login":"bob@other"}`)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":"forbidden"`) {
		t.Fatalf("bob relinks himself: %d %s", w.Code, w.Body)
	}
	// A deactivated account's login signs nobody in.
	if w := ts.send(http.MethodPatch, "/v1/users/bob", "127.0.0.1", "", "", ts.admin, `{"active":false}`); w.Code != http.StatusOK {
		t.Fatalf("deactivate: %d", w.Code)
	}
	if w := ts.send(http.MethodGet, "/v1/me", "127.0.0.1", "bob@example.com", "", "", ""); w.Code != http.StatusUnauthorized || sessionCookie(w) != "" {
		t.Fatalf("a deactivated account: %d %s", w.Code, w.Body)
	}
}

func TestTailscaleIgnoredUntrusted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"tailscale_login": "admin@example.com"})
	req := e.Request(http.MethodGet, "/v1/me", nil)
	req.Header.Set("Tailscale-User-Login", "admin@example.com")
	webtest.AssertProblem(t, e.Send(req), http.StatusUnauthorized, "unauthorized")
}

// signIn signs username in through a sign-in link, from loopback without
// a Tailscale header, and returns the session.
func (ts *tailscaleServer) signIn(username string) string {
	ts.t.Helper()
	w := ts.send(http.MethodPost, "/v1/login-links", "127.0.0.1", "", "", ts.admin, `{"username":"`+username+`"}`)
	u, err := url.Parse(jsonField(ts.t, w, "url"))
	if err != nil {
		ts.t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, "/signin", strings.NewReader(url.Values{"link": {u.Query().Get("link")}}.Encode()))
	req.RemoteAddr = "127.0.0.1:40000"
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	rw := httptest.NewRecorder()
	ts.h.ServeHTTP(rw, req)
	if c := sessionCookie(rw); c != "" {
		return c
	}
	ts.t.Fatalf("sign in %s: %d %s", username, rw.Code, rw.Body)
	return ""
}

func jsonField(t *testing.T, w *httptest.ResponseRecorder, field string) string {
	t.Helper()
	m := regexp.MustCompile(`"` + field + `":"([^"]*)"`).FindStringSubmatch(w.Body.String())
	if m == nil {
		t.Fatalf("no %s in %d %s", field, w.Code, w.Body)
	}
	return m[1]
}

func TestTailscaleClaim(t *testing.T) {
	t.Parallel()
	ts := newTailscaleServer(t)
	for _, u := range []string{"carol", "dave"} {
		if w := ts.send(http.MethodPost, "/v1/users", "127.0.0.1", "", "", ts.admin, `{"username":"`+u+`"}`); w.Code != http.StatusCreated {
			t.Fatalf("%s: %d", u, w.Code)
		}
		if w := ts.send(http.MethodPost, "/v1/workspaces/default/members", "127.0.0.1", "", "", ts.admin, `{"username":"`+u+`","role":"member"}`); w.Code != http.StatusCreated {
			t.Fatalf("%s joins: %d %s", u, w.Code, w.Body)
		}
	}
	carol := ts.signIn("carol")
	page := ts.send(http.MethodGet, "/account", "127.0.0.1", "Carol@TS", carol, "", "")
	if !strings.Contains(page.Body.String(), "Link Tailscale login carol@ts") {
		t.Fatalf("no claim offered: %d", page.Code)
	}
	if w := ts.send(http.MethodGet, "/account", "192.0.2.1", "carol@ts", carol, "", ""); strings.Contains(w.Body.String(), "Link Tailscale login") {
		t.Fatal("a claim offered from an untrusted peer")
	}
	claim := func(session, login string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/account/tailscale", strings.NewReader(""))
		req.RemoteAddr = "127.0.0.1:40000"
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Tailscale-User-Login", login)
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
		w := httptest.NewRecorder()
		ts.h.ServeHTTP(w, req)
		return w
	}
	if w := claim(carol, "Carol@TS"); w.Code != http.StatusSeeOther {
		t.Fatalf("claim: %d %s", w.Code, w.Body)
	}
	if w := ts.send(http.MethodGet, "/v1/me", "127.0.0.1", "", carol, "", ""); !strings.Contains(w.Body.String(), `"tailscale_login":"carol@ts"`) {
		t.Fatalf("carol's account: %s", w.Body)
	}
	// Once only: a second claim, or one of a login linked already, is a conflict.
	if w := claim(carol, "other@ts"); w.Code != http.StatusConflict {
		t.Fatalf("a second claim: %d", w.Code)
	}
	dave := ts.signIn("dave")
	if w := claim(dave, "carol@ts"); w.Code != http.StatusConflict {
		t.Fatalf("a claim of carol's login: %d", w.Code)
	}
	if w := ts.send(http.MethodGet, "/v1/me", "127.0.0.1", "carol@ts", "", "", ""); !strings.Contains(w.Body.String(), `"username":"carol"`) {
		t.Fatalf("carol signs in by Tailscale: %d %s", w.Code, w.Body)
	}
}
