package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPageProjectRoles: a project's page lists who holds a role of its own
// and the role each member has inside it; a holder's Take away form ends
// the role; a member of the workspace who may see the project reads the
// same list.
func TestPageProjectRoles(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	bob := p.Member("bob", "member")
	p.Member("cy", "member")
	p.seeOther(t, "/projects", url.Values{"key": {"home"}, "title": {"Home"}})
	page := p.get(t, "/projects/home", http.StatusOK)
	contains(t, "a project without roles of its own", page, `id="project-roles-none"`, "workspace role: owner")

	p.seeOther(t, "/projects/home/members", url.Values{"username": {"cy"}})
	p.seeOther(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {"viewer"}})
	p.seeOther(t, "/projects/home/roles", url.Values{"username": {"cy"}, "role": {"admin"}})
	page = p.get(t, "/projects/home", http.StatusOK)
	roles := page[strings.Index(page, `id="project-roles"`):]
	contains(t, "the roles list", roles, "bob <span class=\"muted\">· bob ·</span> viewer here", "cy <span class=\"muted\">· cy ·</span> admin here",
		`<input type="hidden" name="username" value="bob"><input type="hidden" name="role" value="">`, `aria-label="Take away the role bob has here"`)
	if strings.Index(roles, "· bob ·") > strings.Index(roles, "· cy ·") {
		t.Fatal("the holders are not listed by username")
	}
	contains(t, "the members list", page, "· cy · since", "· role here: admin</span>")

	bp := &pageEnv{env: p.env, session: p.SignIn(p.MintLink(bob, map[string]any{})).Value}
	contains(t, "bob's view of the page", bp.get(t, "/projects/home", http.StatusOK), "viewer here", "admin here")

	p.seeOther(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {""}})
	page = p.get(t, "/projects/home", http.StatusOK)
	if strings.Contains(page, "viewer here") || !strings.Contains(page, "admin here") {
		t.Fatal("taking bob's role away left the list wrong")
	}
	p.sameRefusal(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {""}}, p.Admin, http.MethodDelete, "/v1/projects/home/roles/bob", nil)
}
