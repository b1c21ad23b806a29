package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/app/passkeytest"
	"tend/web/webtest"
)

// passkeyOrigin is where these tests' browser is: localhost, the one
// plain-http address WebAuthn allows, sent as the Host of each request.
const passkeyOrigin = "http://localhost"

// passkeyHeaders make a route golden's request come to localhost from a
// page there.
var passkeyHeaders = map[string]string{"Host": "localhost", "Origin": passkeyOrigin}

// passkeyDo sends a passkey request as a page at localhost does: with the
// session's cookie when there is one.
func passkeyDo(e *env, method, path, session string, body any) webtest.Response {
	e.T.Helper()
	req := e.JSONRequest(method, path, body)
	req.Host = "localhost"
	req.Header.Set("Origin", passkeyOrigin)
	if session != "" {
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
	}
	return e.Exchange(req)
}

// passkeyOptions asks for options at path and answers the challenge id
// and the publicKey member.
func passkeyOptions(e *env, path, session string) (string, json.RawMessage) {
	e.T.Helper()
	r := passkeyDo(e, http.MethodPost, path, session, nil)
	if r.Status != http.StatusOK {
		e.T.Fatalf("POST %s: %d\n%s", path, r.Status, r.Body)
	}
	var o struct {
		ChallengeID string          `json:"challenge_id"`
		PublicKey   json.RawMessage `json:"public_key"`
	}
	if err := json.Unmarshal(r.Body, &o); err != nil {
		e.T.Fatal(err)
	}
	return o.ChallengeID, o.PublicKey
}

// addPasskey registers a software authenticator for the session's account
// through the API and returns it and the passkey's id.
func addPasskey(e *env, session, name string) (*passkeytest.Authenticator, string) {
	e.T.Helper()
	auth := passkeytest.New(passkeyOrigin)
	id, pk := passkeyOptions(e, "/v1/me/passkeys/options", session)
	cred, err := auth.Create(pk)
	if err != nil {
		e.T.Fatal(err)
	}
	r := passkeyDo(e, http.MethodPost, "/v1/me/passkeys", session, map[string]any{"challenge_id": id, "name": name, "credential": cred})
	if r.Status != http.StatusCreated {
		e.T.Fatalf("POST /v1/me/passkeys: %d\n%s", r.Status, r.Body)
	}
	return auth, r.JSON(e.T)["id"].(string)
}

// passkeyAssertion begins a sign-in and answers it with auth: the body to
// post to /v1/passkeys/signin.
func passkeyAssertion(e *env, auth *passkeytest.Authenticator) map[string]any {
	e.T.Helper()
	id, pk := passkeyOptions(e, "/v1/passkeys/signin/options", "")
	cred, err := auth.Get(pk)
	if err != nil {
		e.T.Fatal(err)
	}
	return map[string]any{"challenge_id": id, "credential": cred}
}

// goldenPasskey is the authenticator the route goldens register and sign
// in with.
var goldenPasskey *passkeytest.Authenticator

func passkeyRegistrationPrep(e *env, vals map[string]string) {
	goldenPasskey = passkeytest.New(passkeyOrigin)
	id, pk := passkeyOptions(e, "/v1/me/passkeys/options", vals["session"])
	cred, err := goldenPasskey.Create(pk)
	if err != nil {
		e.T.Fatal(err)
	}
	vals["passkey_challenge"], vals["passkey_credential"] = id, string(cred)
}

func passkeySignInPrep(e *env, vals map[string]string) {
	id, pk := passkeyOptions(e, "/v1/passkeys/signin/options", "")
	cred, err := goldenPasskey.Get(pk)
	if err != nil {
		e.T.Fatal(err)
	}
	vals["passkey_challenge"], vals["passkey_credential"] = id, string(cred)
}

func passkeySparePrep(e *env, vals map[string]string) {
	_, vals["spare_passkey"] = addPasskey(e, vals["session"], "spare")
}

func TestPasskeySignInAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.Member("ann", "member")
	session := e.SignIn(e.MintLink(ann, nil)).Value
	auth, id := addPasskey(e, session, "phone")

	r := passkeyDo(e, http.MethodPost, "/v1/passkeys/signin", "", passkeyAssertion(e, auth))
	if r.Status != http.StatusOK || r.JSON(t)["username"] != "ann" {
		t.Fatalf("sign-in: %d\n%s", r.Status, r.Body)
	}
	var cookie *http.Cookie
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly {
		t.Fatalf("no HttpOnly session cookie: %v", r.Header["Set-Cookie"])
	}
	me := passkeyDo(e, http.MethodGet, "/v1/me/passkeys", cookie.Value, nil)
	items, _ := me.JSON(t)["items"].([]any)
	if me.Status != http.StatusOK || len(items) != 1 || items[0].(map[string]any)["last_used_at"] == nil {
		t.Errorf("the new session lists %d %s", me.Status, me.Body)
	}
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/me/passkeys/"+id, ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/me/passkeys/"+id, ann, nil)
}

func TestPasskeyRefusalsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.Member("ann", "member")
	session := e.SignIn(e.MintLink(ann, nil)).Value
	auth, _ := addPasskey(e, session, "phone")
	bob := e.Member("bob", "member")
	bobSession := e.SignIn(e.MintLink(bob, nil)).Value
	bobAuth, _ := addPasskey(e, bobSession, "phone")

	signIn := func(body any) webtest.Response {
		return passkeyDo(e, http.MethodPost, "/v1/passkeys/signin", "", body)
	}
	t.Run("token holder adds none", func(t *testing.T) {
		e.Problem(http.StatusForbidden, "passkey_needs_session", http.MethodPost, "/v1/me/passkeys/options", ann, nil)
	})
	t.Run("forged signature", func(t *testing.T) {
		body := passkeyAssertion(e, auth)
		var cred map[string]any
		_ = json.Unmarshal(body["credential"].(json.RawMessage), &cred)
		resp := cred["response"].(map[string]any)
		sig := resp["signature"].(string)
		resp["signature"] = sig[:12] + strings.Map(func(r rune) rune {
			if r == 'A' {
				return 'B'
			}
			return 'A'
		}, sig[12:13]) + sig[13:]
		body["credential"] = cred
		webtest.AssertProblem(t, signIn(body), http.StatusBadRequest, "passkey_invalid")
	})
	t.Run("replayed", func(t *testing.T) {
		body := passkeyAssertion(e, auth)
		if r := signIn(body); r.Status != http.StatusOK {
			t.Fatalf("first use: %d %s", r.Status, r.Body)
		}
		webtest.AssertProblem(t, signIn(body), http.StatusBadRequest, "passkey_invalid")
	})
	t.Run("expired", func(t *testing.T) {
		body := passkeyAssertion(e, auth)
		e.Clock.Advance(app.PasskeyChallengeLifetime)
		webtest.AssertProblem(t, signIn(body), http.StatusBadRequest, "passkey_invalid")
	})
	t.Run("wrong origin", func(t *testing.T) {
		defer func() { auth.Origin = passkeyOrigin }()
		auth.Origin = "http://localhost:8443"
		webtest.AssertProblem(t, signIn(passkeyAssertion(e, auth)), http.StatusBadRequest, "passkey_invalid")
	})
	t.Run("wrong relying party", func(t *testing.T) {
		defer func() { auth.RPID = "" }()
		auth.RPID = "tend.example"
		webtest.AssertProblem(t, signIn(passkeyAssertion(e, auth)), http.StatusBadRequest, "passkey_invalid")
	})
	t.Run("not at a secure address", func(t *testing.T) {
		// The test server's own address is 127.0.0.1: an IP address is
		// never a relying party.
		e.Problem(http.StatusConflict, "passkey_unavailable", http.MethodPost, "/v1/passkeys/signin/options", "", nil)
	})
	t.Run("from another site", func(t *testing.T) {
		req := e.Request(http.MethodPost, "/v1/passkeys/signin", strings.NewReader(`{"challenge_id":"x","credential":{}}`))
		req.Host = "localhost"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Origin", "https://evil.example")
		webtest.AssertProblem(t, e.Exchange(req), http.StatusForbidden, "cross_origin")
	})
	t.Run("deactivated account", func(t *testing.T) {
		e.OK(http.StatusOK, http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"active": false})
		webtest.AssertProblem(t, signIn(passkeyAssertion(e, bobAuth)), http.StatusConflict, "account_inactive")
	})
}

func TestPasskeySignInRateLimitAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 30 {
		passkeyOptions(e, "/v1/passkeys/signin/options", "")
	}
	r := passkeyDo(e, http.MethodPost, "/v1/passkeys/signin/options", "", nil)
	webtest.AssertProblem(t, r, http.StatusTooManyRequests, "too_many_attempts")
	if got := r.Header.Get("Retry-After"); got != "600" {
		t.Errorf("Retry-After %q, want the window's 600 seconds", got)
	}
	e.Clock.Advance(10 * time.Minute)
	passkeyOptions(e, "/v1/passkeys/signin/options", "")
}
