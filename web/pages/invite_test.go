package pages_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// joinLinkRE finds an invite's link on the Invites page.
var joinLinkRE = regexp.MustCompile(`value="(http://[^"]+/join/(tend_[a-z0-9_]+))"`)

// TestInvitesPage walks the Invites page as the administrator: the link
// from the Account page, making an invite (its link on that answer only),
// refusals shown on the form, the list, and revoking. Anyone who may not
// invite is answered as a page that does not exist.
func TestInvitesPage(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	contains(t, "the account page", p.get(t, "/account", 200), `href="/invites" id="invites-link"`)
	contains(t, "the invites page", p.get(t, "/invites", 200), `id="invites-none"`, `id="invite-add"`)

	r := p.post(t, "/invites", url.Values{"role": {"member"}, "expires_in": {"3d"}, "max_uses": {"2"}, "note": {"For the team"}})
	m := joinLinkRE.FindStringSubmatch(string(r.Body))
	if r.Status != 200 || m == nil {
		t.Fatalf("POST /invites: %d\n%s", r.Status, r.Body)
	}
	contains(t, "the answer", string(r.Body), `id="new-invite"`, "shown once", `id="invite-copy"`)
	page := p.get(t, "/invites", 200)
	if strings.Contains(page, m[2]) {
		t.Error("the invite's link shows again")
	}
	contains(t, "the invites page", page, `id="invites-pending"`, "0 of 2", "For the team")

	for _, c := range []struct {
		form   url.Values
		status int
		want   string
	}{
		{url.Values{"role": {"boss"}, "expires_in": {"7d"}, "max_uses": {"1"}}, 422, `id="iv-role-error"`},
		{url.Values{"role": {"member"}, "expires_in": {"31d"}, "max_uses": {"1"}}, 422, `id="iv-expires-error"`},
		{url.Values{"role": {"member"}, "expires_in": {"7d"}, "max_uses": {"101"}}, 422, `id="iv-uses-error"`},
		{url.Values{"role": {"member"}, "expires_in": {"7d"}, "max_uses": {"many"}}, 422, `id="iv-uses-error"`},
	} {
		r := p.post(t, "/invites", c.form)
		if r.Status != c.status || !strings.Contains(string(r.Body), c.want) {
			t.Errorf("%v: %d, want %d with %s\n%s", c.form, r.Status, c.status, c.want, r.Body)
		}
	}

	id := regexp.MustCompile(`<tr id="invite-([^"]+)">`).FindStringSubmatch(page)[1]
	if to := p.seeOther(t, "/invites/"+id+"/revoke", url.Values{}); to != "/invites?notice=invite_revoked" {
		t.Errorf("revoking goes to %s", to)
	}
	contains(t, "after revoking", p.get(t, "/invites?notice=invite_revoked", 200), "Revoked the invite", `id="invites-past"`, "revoked ")

	member := p.SignIn(p.MintLink(p.Member("max", "member"), nil)).Value
	if r := p.Browser(http.MethodGet, "/invites", member, "", nil); r.Status != 404 {
		t.Errorf("a member's /invites: %d", r.Status)
	}
	if r := p.Browser(http.MethodPost, "/invites", member, p.Srv.URL, url.Values{"role": {"member"}}); r.Status != 404 {
		t.Errorf("a member's POST /invites: %d", r.Status)
	}
	if strings.Contains(string(p.Browser(http.MethodGet, "/account", member, "", nil).Body), "invites-link") {
		t.Error("a member's account page links to the invites")
	}
}

// TestJoinPage joins by an invite without the script: the page, a taken
// and an invalid username shown on the form again, then joining, signed
// in on Today. An invite used up, revoked, expired or unknown says which
// with 410, and changes nothing.
func TestJoinPage(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.Member("taken", "member")
	i := p.OK(201, http.MethodPost, "/v1/workspaces/default/invites", p.Admin, map[string]any{"role": "admin", "note": "Hello <team>"})
	path := strings.TrimPrefix(i["url"].(string), p.Srv.URL)

	page := string(p.Browser(http.MethodGet, path, "", "", nil).Body)
	contains(t, "the join page", page, "<h1>Join Default</h1>", "as <strong>admin</strong>", html.EscapeString("Hello <team>"), `<meta name="referrer" content="no-referrer">`, `<option selected>UTC</option>`)

	join := func(username, tz string) (webtest.Response, string) {
		r := p.Browser(http.MethodPost, path, "", p.Srv.URL, url.Values{"username": {username}, "timezone": {tz}})
		return r, string(r.Body)
	}
	if r, body := join("Taken", "Asia/Tokyo"); r.Status != 409 || !strings.Contains(body, `aria-invalid="true"`) ||
		!strings.Contains(body, "is taken") || !strings.Contains(body, `<option selected>Asia/Tokyo</option>`) || !strings.Contains(body, `value="Taken"`) {
		t.Errorf("a taken username: %d\n%s", r.Status, body)
	}
	if r, body := join("no spaces", "UTC"); r.Status != 422 || !strings.Contains(body, `id="j-username-check" aria-live="polite" class="field-error"`) {
		t.Errorf("an invalid username: %d\n%s", r.Status, body)
	}
	if r := p.Browser(http.MethodPost, path, "", "https://elsewhere.example", url.Values{"username": {"zoe"}, "timezone": {"UTC"}}); r.Status != 403 {
		t.Errorf("from another site: %d", r.Status)
	}
	r, _ := join("zoe", "Europe/Berlin")
	var session string
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "tend_session" {
			session = c.Value
		}
	}
	if r.Status != 303 || r.Header.Get("Location") != "/" || session == "" {
		t.Fatalf("joining: %d %s", r.Status, r.Header.Get("Location"))
	}
	if today := p.Browser(http.MethodGet, "/", session, "", nil); today.Status != 200 || !strings.Contains(string(today.Body), "zoe") {
		t.Errorf("Today for zoe: %d", today.Status)
	}

	expired := p.OK(201, http.MethodPost, "/v1/workspaces/default/invites", p.Admin, map[string]any{"role": "member", "expires_in": "1h"})
	revoked := p.OK(201, http.MethodPost, "/v1/workspaces/default/invites", p.Admin, map[string]any{"role": "member"})
	p.OK(204, http.MethodDelete, "/v1/workspaces/default/invites/"+revoked["id"].(string), p.Admin, nil)
	p.Clock.Advance(time.Hour)
	users := len(p.OK(200, http.MethodGet, "/v1/users", p.Admin, nil)["items"].([]any))
	for link, want := range map[string]string{
		path: "used as many times as it allows",
		strings.TrimPrefix(revoked["url"].(string), p.Srv.URL): "was revoked",
		strings.TrimPrefix(expired["url"].(string), p.Srv.URL): "expired on 2 March 2026 at 10:00 UTC",
		"/join/tend_aaaaaaaaaa_" + strings.Repeat("b", 40):     "not a valid invite",
		"/join/short": "not a valid invite",
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			r := p.Browser(method, link, "", p.Srv.URL, url.Values{"username": {"late"}, "timezone": {"UTC"}})
			if r.Status != 410 || !strings.Contains(string(r.Body), want) || !strings.Contains(string(r.Body), "Nothing was changed") {
				t.Errorf("%s %s: %d, want 410 saying %q\n%s", method, link, r.Status, want, r.Body)
			}
		}
	}
	if got := len(p.OK(200, http.MethodGet, "/v1/users", p.Admin, nil)["items"].([]any)); got != users {
		t.Errorf("unusable invites made %d accounts", got-users)
	}
}
