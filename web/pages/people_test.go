package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// peopleEnv is a page env with the people the People page shows: bob, a
// member; dana, an admin of the workspace who does not administer the
// instance; the agent bot answering to the administrator; and carol, who
// owns a workspace of her own and is no member of this one.
type peopleEnv struct {
	*pageEnv
	bob, dana, carol string // their tokens
}

func newPeopleEnv(t *testing.T) *peopleEnv {
	p := &peopleEnv{pageEnv: newPageEnv(t)}
	p.bob = p.Member("bob", "member")
	p.dana = p.Member("dana", "admin")
	p.Agent("bot", "admin")
	p.carol = p.Person("carol")
	p.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", p.carol, map[string]any{"slug": "other", "name": "Carol's"})
	return p
}

// sessionOf signs token's account in and returns its session.
func (p *peopleEnv) sessionOf(token string) string {
	return p.SignIn(p.MintLink(token, map[string]any{})).Value
}

// refused posts as session, wants the page back with status and code,
// and returns it.
func (p *peopleEnv) refused(t *testing.T, session, path string, form url.Values, status int, code string) string {
	t.Helper()
	r := p.Browser(http.MethodPost, path, session, p.Srv.URL, form)
	body := string(r.Body)
	if r.Status != status {
		t.Fatalf("POST %s: %d, want %d\n%s", path, r.Status, status, body)
	}
	contains(t, "the refusal", body, `id="people-refused"`, `<code id="problem-code">`+code+`</code>`, `<h1>People`)
	return body
}

// TestPeoplePage: the administrator's People page lists the workspace's
// people and agents (whom an agent answers to), their roles, last seen and
// state, each one's tokens, and every workspace of the instance; carol,
// of another workspace, is not among them until that workspace is chosen.
func TestPeoplePage(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	page := p.get(t, "/people", http.StatusOK)
	contains(t, "People", page, `<a class="item" href="/people" aria-current="page">People</a>`, `id="person-admin"`, `id="person-bob"`,
		`id="person-dana"`, `id="person-bot"`, "agent, answers to admin", "person, instance administrator",
		`<option value="member" selected>member</option>`, `<option value="admin" selected>admin</option>`,
		`aria-label="Deactivate bob"`, `id="token-issue"`, `<option value="bot">bot (agent of admin)</option>`,
		`id="people-workspaces"`, `href="/people?workspace_id=other"`)
	if strings.Contains(page, `id="person-carol"`) {
		t.Fatal("a person of another workspace is listed")
	}
	// The administrator signed in (a session) and bob's token was used to
	// add him: both were seen; dana's token was issued but never used.
	seen := regexp.MustCompile(`(?s)id="person-(\w+)".*?<dt>Last seen</dt><dd>([^<]*)<`)
	got := map[string]string{}
	for _, m := range seen.FindAllStringSubmatch(page, -1) {
		got[m[1]] = m[2]
	}
	if got["admin"] == "" || got["dana"] != "" {
		t.Fatalf("last seen: %q", got)
	}
	p.OK(http.StatusOK, http.MethodGet, "/v1/me", p.dana, nil)
	contains(t, "dana's row after she used her token", p.get(t, "/people", http.StatusOK), "UTC</dd>\n<dt>State</dt>")
	// The tokens of bot: the one Agent issued, with its prefix and scopes.
	contains(t, "bot's tokens", page, `id="tokens-bot"`, "<caption")

	other := p.get(t, "/people?workspace_id=other", http.StatusOK)
	contains(t, "Carol's workspace", other, `id="person-carol"`, "Carol&#39;s", `action="/people/carol/role?workspace_id=other"`)
	if strings.Contains(other, `id="person-bob"`) {
		t.Fatal("another workspace's page lists bob")
	}
}

// TestPeopleRole changes a role and shows each refusal in words: the
// last owner stays an owner; an admin cannot grant a role above their own.
func TestPeopleRole(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	if to := p.seeOther(t, "/people/bob/role", url.Values{"role": {"viewer"}}); to != "/people?notice=role#person-bob" {
		t.Fatalf("went to %q", to)
	}
	contains(t, "after the change", p.get(t, "/people?notice=role", http.StatusOK), "Changed the role.")
	for _, m := range p.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default/members", p.Admin, nil)["items"].([]any) {
		if m := m.(map[string]any); m["username"] == "bob" && m["role"] != "viewer" {
			t.Fatalf("bob is %v", m["role"])
		}
	}
	body := p.refused(t, p.session, "/people/admin/role", url.Values{"role": {"member"}}, http.StatusConflict, "last_owner")
	contains(t, "the last owner", body, "Not changed for admin: a workspace keeps at least one owner")
	dana := p.sessionOf(p.dana)
	body = p.refused(t, dana, "/people/bob/role", url.Values{"role": {"owner"}}, http.StatusForbidden, "forbidden")
	contains(t, "above her own", body, "you cannot grant a role above your own")
	p.refused(t, dana, "/people/bob/role", url.Values{"role": {"boss"}}, http.StatusUnprocessableEntity, "validation")
}

// TestPeopleActive deactivates and reactivates a person; the last
// administrator cannot be deactivated, and a workspace admin who does not
// administer the instance is offered neither and refused in words.
func TestPeopleActive(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	if to := p.seeOther(t, "/people/bob/active", url.Values{"active": {"false"}}); to != "/people?notice=deactivated#person-bob" {
		t.Fatalf("went to %q", to)
	}
	page := p.get(t, "/people", http.StatusOK)
	contains(t, "bob deactivated", page, `aria-label="Reactivate bob"`, `<span class="blocked">deactivated</span>`)
	p.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", p.bob, nil)
	p.seeOther(t, "/people/bob/active", url.Values{"active": {"true"}})
	p.OK(http.StatusOK, http.MethodGet, "/v1/me", p.bob, nil)

	body := p.refused(t, p.session, "/people/admin/active", url.Values{"active": {"false"}}, http.StatusConflict, "last_administrator")
	contains(t, "the last administrator", body, "this is the last active administrator")
	dana := p.sessionOf(p.dana)
	page = string(p.Browser(http.MethodGet, "/people", dana, "", nil).Body)
	if strings.Contains(page, "Deactivate") || strings.Contains(page, `id="token-issue"`) {
		t.Fatalf("a workspace admin is offered what only the instance's may do:\n%s", page)
	}
	p.refused(t, dana, "/people/bob/active", url.Values{"active": {"false"}}, http.StatusForbidden, "forbidden")
}

// TestPeopleTokenIssue issues a narrowed token for a new agent: its secret
// and the MCP configuration are on that answer only, never in the log nor
// on the page again; the token works as narrowed; a refusal is in words and
// keeps what was sent; Revoke ends it.
func TestPeopleTokenIssue(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "web", "title": "Web"})
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "ops", "title": "Ops"})
	form := url.Values{"agent": {""}, "new_agent": {"coder"}, "answers_to": {"admin"}, "title": {"laptop"}, "project": {"web"},
		"expires_days": {"30"}, "scopes": {"project:read", "item:read", "item:write"}}
	r := p.post(t, "/people", form)
	body := string(r.Body)
	if r.Status != http.StatusOK {
		t.Fatalf("issue: %d\n%s", r.Status, body)
	}
	secret := regexp.MustCompile(`id="new-secret">(tend_[a-z2-7_]+)<`).FindStringSubmatch(body)[1]
	mcp := p.Srv.URL + "/mcp"
	contains(t, "the answer of the issue", body, "Created the agent <strong>coder</strong>", "shown once and never again",
		`claude mcp add --transport http tend `+mcp+` --header &#34;Authorization: Bearer `+secret+`&#34;`,
		`{&#34;mcpServers&#34;: {&#34;tend&#34;: {&#34;type&#34;: &#34;http&#34;, &#34;url&#34;: &#34;`+mcp+`&#34;,`,
		"POST "+mcp+"\nAuthorization: Bearer "+secret, `data-copy="snippet-claude" hidden`)
	contains(t, "the access log", p.LogText(), "method=POST route=/people url=/people status=200")
	if strings.Contains(p.get(t, "/people", http.StatusOK), secret) || strings.Contains(p.LogText(), secret) {
		t.Fatal("the secret is shown again or logged")
	}
	contains(t, "coder listed", p.get(t, "/people", http.StatusOK), `id="person-coder"`, "agent, answers to admin", `id="tokens-coder"`, "laptop",
		"projects web")
	me := p.OK(http.StatusOK, http.MethodGet, "/v1/me", secret, nil)
	if cred := me["credential"].(map[string]any); cred["expires_at"] == nil {
		t.Fatalf("the credential does not expire: %v", cred)
	}
	p.OK(http.StatusOK, http.MethodGet, "/v1/projects/web", secret, nil)
	p.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/projects/ops", secret, nil)

	bad := url.Values{"agent": {"coder"}, "scopes": {"item:read"}}
	body = p.refused(t, p.session, "/people", bad, http.StatusUnprocessableEntity, "token_scope_incomplete")
	contains(t, "scopes leaving out a need", body, "Not issued: ", "item:read needs project:read",
		`<input type="checkbox" id="scope-item:read" name="scopes" value="item:read" checked>`)
	if strings.Contains(body, `value="item:write" checked`) {
		t.Fatal("the refused form ticks scopes that were not sent")
	}
	p.refused(t, p.session, "/people", url.Values{"agent": {"coder"}}, http.StatusUnprocessableEntity, "validation")
	p.refused(t, p.session, "/people", url.Values{"scopes": {"item:read"}}, http.StatusUnprocessableEntity, "validation")

	prefix := secret[:len("tend_")+10]
	page := p.get(t, "/people", http.StatusOK)
	id := regexp.MustCompile(`action="/people/coder/tokens/([^/"]+)/revoke" class="inline"><button type="submit" class="plain" aria-label="Revoke ` + prefix).FindStringSubmatch(page)[1]
	if to := p.seeOther(t, "/people/coder/tokens/"+id+"/revoke", url.Values{}); to != "/people?notice=revoked#person-coder" {
		t.Fatalf("went to %q", to)
	}
	p.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me", secret, nil)
	contains(t, "after the revoke", p.get(t, "/people?notice=revoked", http.StatusOK), "Revoked the token", "revoked or expired")
}

// TestPeopleDisclosure: to a member the page and its actions answer as a
// missing page does, with no link to it; a workspace admin sees the page
// of their workspace only, and none of another's people.
func TestPeopleDisclosure(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	missing := p.Browser(http.MethodGet, "/no-such-page", p.sessionOf(p.bob), "", nil)
	bob := p.sessionOf(p.bob)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/people"}, {http.MethodGet, "/people?workspace_id=other"},
		{http.MethodPost, "/people/dana/role"}, {http.MethodPost, "/people/dana/active"}, {http.MethodPost, "/people"},
	} {
		var form url.Values
		if c.method == http.MethodPost {
			form = url.Values{"role": {"viewer"}, "active": {"false"}}
		}
		r := p.Browser(c.method, c.path, bob, p.Srv.URL, form)
		if r.Status != http.StatusNotFound || r.Header.Get("Content-Type") != missing.Header.Get("Content-Type") {
			t.Fatalf("%s %s as a member: %d\n%s", c.method, c.path, r.Status, r.Body)
		}
		if strings.Contains(string(r.Body), "dana") && c.method == http.MethodGet {
			t.Fatalf("%s %s tells a member of dana", c.method, c.path)
		}
	}
	if missing.Status != http.StatusNotFound {
		t.Fatalf("a missing page: %d", missing.Status)
	}
	if home := string(p.Browser(http.MethodGet, "/", bob, "", nil).Body); strings.Contains(home, `href="/people"`) {
		t.Fatal("a member's top bar links to People")
	}
	dana := p.sessionOf(p.dana)
	page := string(p.Browser(http.MethodGet, "/people", dana, "", nil).Body)
	contains(t, "dana's People page", page, `href="/people"`, `id="person-bob"`)
	if strings.Contains(page, "person-carol") || strings.Contains(page, "people-workspaces") {
		t.Fatal("a workspace admin sees another workspace")
	}
	if r := p.Browser(http.MethodGet, "/people?workspace_id=other", dana, "", nil); r.Status != http.StatusNotFound {
		t.Fatalf("another workspace's People page to its non-member: %d", r.Status)
	}
	if r := p.Browser(http.MethodPost, "/people/carol/role?workspace_id=other", dana, p.Srv.URL, url.Values{"role": {"viewer"}}); r.Status != http.StatusNotFound {
		t.Fatalf("a role change in another workspace: %d", r.Status)
	}
}

// TestPeopleSessions: the administrator sees each person's sessions (the
// browser, how it signed in, first and last seen) and revokes one, which
// signs that browser out on its next request; an unknown session is
// refused as not found; a workspace admin without the authority that signs
// others out sees only her own sessions and is answered as if bob's did
// not exist; an agent lists none.
func TestPeopleSessions(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	bob := p.sessionOf(p.bob)
	page := p.get(t, "/people", http.StatusOK)
	contains(t, "bob's sessions", page, `id="sessions-bob"`, "a sign-in link", "UTC</td><td>", `aria-label="Revoke bob's session in`,
		`id="sessions-admin"`, "(your session)")
	if strings.Contains(page, `id="sessions-bot"`) {
		t.Fatal("an agent lists sessions")
	}
	id := regexp.MustCompile(`action="/people/bob/sessions/([^/"]+)/revoke"`).FindStringSubmatch(page)[1]

	dana := p.sessionOf(p.dana)
	danaPage := string(p.Browser(http.MethodGet, "/people", dana, "", nil).Body)
	contains(t, "dana's own sessions", danaPage, `id="sessions-dana"`)
	if strings.Contains(danaPage, `id="sessions-bob"`) || strings.Contains(danaPage, id) {
		t.Fatal("a workspace admin sees sessions she may not revoke")
	}
	if r := p.Browser(http.MethodPost, "/people/bob/sessions/"+id+"/revoke", dana, p.Srv.URL, url.Values{}); r.Status != http.StatusNotFound || problemCode(r.Body) != "not_found" {
		t.Fatalf("dana revoking bob's session: %d %q", r.Status, problemCode(r.Body))
	}
	if r := p.Browser(http.MethodGet, "/v1/me", bob, "", nil); r.Status != http.StatusOK {
		t.Fatalf("bob after dana's refused revoke: %d", r.Status)
	}

	if r := p.post(t, "/people/bob/sessions/no-such-session/revoke", url.Values{}); r.Status != http.StatusNotFound || problemCode(r.Body) != "not_found" {
		t.Fatalf("an unknown session: %d %q", r.Status, problemCode(r.Body))
	}
	if to := p.seeOther(t, "/people/bob/sessions/"+id+"/revoke", url.Values{}); to != "/people?notice=session#person-bob" {
		t.Fatalf("went to %q", to)
	}
	if r := p.Browser(http.MethodGet, "/v1/me", bob, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("bob's revoked session: %d", r.Status)
	}
	after := p.get(t, "/people?notice=session", http.StatusOK)
	contains(t, "after the revoke", after, "Revoked the session")
	if strings.Contains(after, `id="sessions-bob"`) {
		t.Fatal("a revoked session is still listed")
	}
	if r := p.post(t, "/people/bob/sessions/"+id+"/revoke", url.Values{}); r.Status != http.StatusNotFound {
		t.Fatalf("revoking it again: %d", r.Status)
	}
}

// TestPeopleInvites: the page lists the workspace's pending invites with
// a link to the Invites page and revokes one; a used-up or revoked invite
// is not pending; an unknown one is refused as not found; a workspace admin
// sees her workspace's; a member gets what a missing page gets.
func TestPeopleInvites(t *testing.T) {
	t.Parallel()
	p := newPeopleEnv(t)
	contains(t, "no invites", p.get(t, "/people", http.StatusOK), `id="people-invites"`, `id="invites-none"`, `href="/invites" id="people-invites-link"`)
	inv := p.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/invites", p.Admin, map[string]any{"role": "member", "note": "for the designers"})
	id := inv["id"].(string)
	page := p.get(t, "/people", http.StatusOK)
	contains(t, "the pending invite", page, `id="invite-`+id+`"`, "for the designers", "0 of 1", `action="/people-invites/`+id+`/revoke"`)
	if strings.Contains(page, inv["url"].(string)) {
		t.Fatal("the page shows an invite's link")
	}
	dana := p.sessionOf(p.dana)
	contains(t, "dana's page", string(p.Browser(http.MethodGet, "/people", dana, "", nil).Body), `id="invite-`+id+`"`)
	bob := p.sessionOf(p.bob)
	if r := p.Browser(http.MethodPost, "/people-invites/"+id+"/revoke", bob, p.Srv.URL, url.Values{}); r.Status != http.StatusNotFound {
		t.Fatalf("a member revoking an invite: %d", r.Status)
	}
	if r := p.post(t, "/people-invites/no-such-invite/revoke", url.Values{}); r.Status != http.StatusNotFound || problemCode(r.Body) != "not_found" {
		t.Fatalf("an unknown invite: %d %q", r.Status, problemCode(r.Body))
	}
	if to := p.seeOther(t, "/people-invites/"+id+"/revoke", url.Values{}); to != "/people?notice=invite#people-invites" {
		t.Fatalf("went to %q", to)
	}
	after := p.get(t, "/people?notice=invite", http.StatusOK)
	contains(t, "after the revoke", after, "Revoked the invite", `id="invites-none"`)
	for _, i := range p.OK(http.StatusOK, http.MethodGet, "/v1/workspaces/default/invites", p.Admin, nil)["items"].([]any) {
		if i := i.(map[string]any); i["id"] == id && i["state"] != "revoked" {
			t.Fatalf("the invite is %v", i["state"])
		}
	}
	other := p.get(t, "/people?workspace_id=other", http.StatusOK)
	contains(t, "another workspace's invites", other, `id="people-invites"`, `href="/invites?workspace_id=other"`)
}
