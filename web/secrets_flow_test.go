package web_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tend/web/webtest"
)

// TestNoSecretAfterTheFlow is issue 38 §4's last security check: after the
// whole way in and back (an invite opened and redeemed on the join page and
// over the API, a device link made, opened and spent, a sign-in link spent,
// sessions listed and one revoked, a revoked session tried, an invite
// revoked), no secret of an invite, a device link, a sign-in link or a
// session is in the access log (debug level, JSON) or in an export, the
// API's or the command line's; nor is the hash stored for one in an
// export, in hex or base64.
func TestNoSecretAfterTheFlow(t *testing.T) {
	t.Parallel()
	e := newLogEnv(t, "json", nil)
	secrets := map[string]string{}
	inv, invite := e.invite(e.Admin, map[string]any{"role": "member", "max_uses": 2})
	secrets["invite"] = invite
	e.Do(http.MethodGet, "/join/"+invite, "", nil)
	e.Do(http.MethodPost, "/v1/invites/check", "", map[string]any{"invite": invite, "username": "newbie"})
	joined := e.Browser(http.MethodPost, "/join/"+invite, "", e.Srv.URL, url.Values{"username": {"newbie"}, "timezone": {"UTC"}})
	newbie := cookieValue(t, joined)
	secrets["session by the join page"] = newbie
	secrets["session by the invite API"] = cookieValue(t, e.accept(invite, "second"))
	e.Do(http.MethodGet, "/join/"+invite, "", nil) // used up now

	r := e.Browser(http.MethodPost, "/v1/me/device-links", newbie, e.Srv.URL, nil)
	if r.Status != http.StatusCreated {
		t.Fatalf("device link: %d %s", r.Status, r.Body)
	}
	u, err := url.Parse(r.JSON(t)["url"].(string))
	if err != nil {
		t.Fatal(err)
	}
	device := u.Query().Get("link")
	secrets["device link"] = device
	e.Do(http.MethodGet, "/signin?link="+url.QueryEscape(device), "", nil)
	other := e.SignIn(device).Value
	secrets["session by the device link"] = other
	e.Do(http.MethodGet, "/signin?link="+url.QueryEscape(device), "", nil) // spent now

	link := e.MintLink(e.Admin, map[string]any{})
	secrets["sign-in link"] = link
	secrets["session by the sign-in link"] = e.SignIn(link).Value

	for _, s := range e.sessionsOf("/v1/me/sessions", newbie, "") {
		if s["current"] != true {
			if r := e.Browser(http.MethodDelete, "/v1/me/sessions/"+s["id"].(string), newbie, e.Srv.URL, nil); r.Status != http.StatusNoContent {
				t.Fatalf("revoke: %d %s", r.Status, r.Body)
			}
		}
	}
	if r := e.Browser(http.MethodGet, "/account", other, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("the revoked session: %d", r.Status)
	}
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/workspaces/default/invites/"+inv["id"].(string), e.Admin, nil)

	logs := e.LogText()
	if !strings.Contains(logs, "/join/…") || !strings.Contains(logs, "device-links") {
		t.Fatalf("the log misses the flow:\n%s", logs)
	}
	exports := map[string]string{"GET /v1/export": string(e.export(e.Admin, "?workspace_id=default")), "tend export": string(e.exportAll())}
	for what, secret := range secrets {
		tail := secret[strings.LastIndex(secret, "_")+1:]
		if strings.Contains(logs, tail) {
			t.Errorf("the access log holds the %s's secret", what)
		}
		sum := sha256.Sum256([]byte(secret))
		for name, x := range exports {
			for _, s := range []string{tail, hex.EncodeToString(sum[:]), base64.StdEncoding.EncodeToString(sum[:])} {
				if strings.Contains(x, s) {
					t.Errorf("%s holds the %s's secret or its hash", name, what)
				}
			}
		}
	}
}

// cookieValue is the session cookie r sets, which must be there.
func cookieValue(t *testing.T, r webtest.Response) string {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" && c.Value != "" {
			return c.Value
		}
	}
	t.Fatalf("no session cookie: %d %s", r.Status, r.Body)
	return ""
}
