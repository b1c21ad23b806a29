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

// startDevice begins a browser sign-in as a terminal would, with no credential.
func (e *env) startDevice(client string) (deviceCode, userCode string) {
	e.T.Helper()
	d := e.OK(http.StatusOK, http.MethodPost, "/v1/auth/device", "", map[string]any{"client_name": client})
	return d["device_code"].(string), d["user_code"].(string)
}

// deviceBody is the body of the terminal's poll for its credential.
func deviceBody(deviceCode string) map[string]any {
	return map[string]any{"device_code": deviceCode}
}

// TestDeviceSignIn: the terminal asks for codes, the signed-in person
// opens the link, sees the terminal's name, approves for a workspace, and
// the terminal's poll receives a credential of that person pinned to it,
// once. Polling before that is authorization_pending, polling faster
// than the interval slow_down; a denied request is access_denied, one
// past its ten minutes expired_token, a spent or unknown device code
// invalid_grant; a wrong user code is the page's not_found, and no
// credential can approve.
func TestDeviceSignIn(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	session := e.SignIn(e.MintLink(e.Admin, nil)).Value
	start := e.OK(http.StatusOK, http.MethodPost, "/v1/auth/device", "", map[string]any{"client_name": "tend on laptop"})
	deviceCode, userCode := start["device_code"].(string), start["user_code"].(string)
	if start["expires_in"] != 600.0 || start["interval"] != 5.0 || !strings.HasSuffix(start["verification_uri"].(string), "/device") ||
		start["verification_uri_complete"] != start["verification_uri"].(string)+"?user_code="+url.QueryEscape(userCode) || len(userCode) != 9 {
		t.Fatalf("device authorization: %v", start)
	}
	path := "/v1/auth/device/token"
	e.Problem(http.StatusBadRequest, "authorization_pending", http.MethodPost, path, "", deviceBody(deviceCode))
	e.Problem(http.StatusBadRequest, "slow_down", http.MethodPost, path, "", deviceBody(deviceCode))
	e.Clock.Advance(10 * time.Second) // the interval is 10 s now
	e.Problem(http.StatusBadRequest, "authorization_pending", http.MethodPost, path, "", deviceBody(deviceCode))

	page := e.Browser(http.MethodGet, "/device?user_code="+url.QueryEscape(strings.ToLower(userCode)), session, "", nil)
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), "tend on laptop") || !strings.Contains(string(page.Body), `value="default"`) {
		t.Fatalf("the approval page: %d\n%s", page.Status, page.Body)
	}
	if r := e.Browser(http.MethodGet, "/device?user_code=BCDF-GHJK", session, "", nil); r.Status != http.StatusNotFound {
		t.Errorf("a wrong user code: %d", r.Status)
	}
	if r := e.Browser(http.MethodPost, "/device", session, "https://evil.example", url.Values{"user_code": {userCode}, "decision": {"approve"}}); r.Status != http.StatusForbidden {
		t.Errorf("a cross-site approval: %d", r.Status)
	}
	if r := e.Do(http.MethodGet, "/device?user_code="+userCode, e.Admin, nil); r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "forbidden") {
		t.Errorf("a credential approving: %d", r.Status)
	}
	r := e.Browser(http.MethodPost, "/device", session, "", url.Values{"user_code": {userCode}, "workspace": {"default"}, "decision": {"approve"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/device?decided=approved" {
		t.Fatalf("approving: %d %s\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	if r := e.Browser(http.MethodGet, "/device?user_code="+userCode, session, "", nil); r.Status != http.StatusNotFound {
		t.Errorf("a decided code is no longer shown: %d", r.Status)
	}

	issued := e.OK(http.StatusOK, http.MethodPost, path, "", deviceBody(deviceCode))
	secret := issued["token"].(string)
	if issued["username"] != "admin" || issued["title"] != "tend on laptop" || issued["workspace_id"] == nil || !strings.HasPrefix(secret, "tend_") {
		t.Fatalf("the credential: %v", issued)
	}
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)
	if me["user"].(map[string]any)["username"] != "admin" || me["credential"].(map[string]any)["workspace_id"] != issued["workspace_id"] {
		t.Fatalf("the credential acts as: %v", me)
	}
	e.Problem(http.StatusBadRequest, "invalid_grant", http.MethodPost, path, "", deviceBody(deviceCode))
	e.Problem(http.StatusBadRequest, "invalid_grant", http.MethodPost, path, "", deviceBody("tend_device_nosuchcode"))
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, "", map[string]any{})

	denied, deniedUser := e.startDevice("")
	if r := e.Browser(http.MethodPost, "/device", session, "", url.Values{"user_code": {deniedUser}, "decision": {"deny"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("denying: %d", r.Status)
	}
	e.Problem(http.StatusBadRequest, "access_denied", http.MethodPost, path, "", deviceBody(denied))

	expired, expiredUser := e.startDevice("")
	e.Clock.Advance(app.DeviceCodeLifetime)
	e.Problem(http.StatusBadRequest, "expired_token", http.MethodPost, path, "", deviceBody(expired))
	if r := e.Browser(http.MethodGet, "/device?user_code="+expiredUser, session, "", nil); r.Status != http.StatusNotFound {
		t.Errorf("an expired code: %d", r.Status)
	}
}

// TestDeviceSignInLimits: a browser session may try ten user codes that
// name no request within ten minutes, all sessions together a hundred;
// past either, every code is refused 429 too_many_attempts, the right one
// too (on the page and in its form), until the window moves on. One
// address may start twenty sign-ins in ten minutes.
func TestDeviceSignInLimits(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	session := e.SignIn(e.MintLink(e.Admin, nil)).Value
	_, userCode := e.startDevice("laptop")
	guess := func(session string, i int) webtest.Response {
		return e.Browser(http.MethodGet, fmt.Sprintf("/device?user_code=BCDF-%04d", i), session, "", nil)
	}
	for i := range app.DeviceGuessesPerSession {
		if r := guess(session, i); r.Status != http.StatusNotFound {
			t.Fatalf("guess %d: %d", i, r.Status)
		}
	}
	limited := func(r webtest.Response) {
		t.Helper()
		if r.Status != http.StatusTooManyRequests || !strings.Contains(string(r.Body), "too_many_attempts") {
			t.Fatalf("past the bound: %d\n%s", r.Status, r.Body)
		}
	}
	limited(guess(session, 99))
	limited(e.Browser(http.MethodGet, "/device?user_code="+userCode, session, "", nil))
	limited(e.Browser(http.MethodPost, "/device", session, "", url.Values{"user_code": {userCode}, "decision": {"approve"}}))

	other := e.SignIn(e.MintLink(e.Admin, nil)).Value
	if r := e.Browser(http.MethodGet, "/device?user_code="+userCode, other, "", nil); r.Status != http.StatusOK {
		t.Fatalf("another session is not held back: %d", r.Status)
	}
	for s := 1; s < app.DeviceGuesses/app.DeviceGuessesPerSession; s++ {
		sess := other
		if s > 1 {
			sess = e.SignIn(e.MintLink(e.Admin, nil)).Value
		}
		for i := range app.DeviceGuessesPerSession {
			if r := guess(sess, i); r.Status != http.StatusNotFound {
				t.Fatalf("session %d, guess %d: %d", s, i, r.Status)
			}
		}
	}
	fresh := e.SignIn(e.MintLink(e.Admin, nil)).Value
	limited(e.Browser(http.MethodGet, "/device?user_code="+userCode, fresh, "", nil))

	e.Clock.Advance(app.DeviceCodeLifetime)
	_, userCode = e.startDevice("laptop")
	if r := e.Browser(http.MethodGet, "/device?user_code="+userCode, session, "", nil); r.Status != http.StatusOK {
		t.Fatalf("ten minutes on: %d", r.Status)
	}

	for i := 1; i < app.DeviceStartsPerAddress; i++ { // one started since the clock moved on
		e.startDevice("laptop")
	}
	p := e.Problem(http.StatusTooManyRequests, "too_many_attempts", http.MethodPost, "/v1/auth/device", "", map[string]any{})
	if r := e.Do(http.MethodPost, "/v1/auth/device", "", map[string]any{}); r.Header.Get("Retry-After") != "600" { // all started at one instant: the window's whole length
		t.Errorf("Retry-After %q; %v", r.Header.Get("Retry-After"), p)
	}
	e.Clock.Advance(app.DeviceCodeLifetime)
	e.startDevice("laptop")
}
