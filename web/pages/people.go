package pages

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

// The People page (issue 38 §3): a workspace's people and agents for
// those who manage its members, with each one's role, last use, state and
// credentials, and the form that issues a narrowed credential for an agent.
// Every action is one call of the Service method the API calls for it, so
// each refusal (the last owner, the last administrator, a scope wider than
// the issuer's) is the Service's, shown in words.

// peopleRoutes mounts the People page and its actions.
func (s *Server) peopleRoutes(rt Router) {
	s.page(rt, http.MethodGet, "/people", s.peopleOnly(s.pagePeople))
	s.page(rt, http.MethodPost, "/people", s.peopleOnly(s.pagePeopleTokenIssue))
	s.page(rt, http.MethodPost, "/people/:username/role", s.peopleOnly(s.pagePeopleRole))
	s.page(rt, http.MethodPost, "/people/:username/active", s.peopleOnly(s.pagePeopleActive))
	s.page(rt, http.MethodPost, "/people/:username/tokens/:token/revoke", s.peopleOnly(s.pagePeopleTokenRevoke))
	s.page(rt, http.MethodPost, "/people/:username/sessions/:session/revoke", s.peopleOnly(s.pagePeopleSessionRevoke))
	s.page(rt, http.MethodPost, "/people-invites/:invite/revoke", s.peopleOnly(s.pagePeopleInviteRevoke))
}

// peopleOnly lets fn answer only someone who manages the members of the
// workspace shown, or an instance administrator; anyone else is answered
// exactly as a path no route takes.
func (s *Server) peopleOnly(fn peopleFunc) pageFunc {
	return s.gate(func(r *http.Request, _ app.Actor, me app.Me) (bool, error) {
		return managesPeople(me, workspaceOf(r)), nil
	}, func(w http.ResponseWriter, r *http.Request, a app.Actor, me app.Me) error {
		ws := workspaceOf(r)
		if v, ok := shownWorkspace(me, ws); ok && ws == "" {
			ws = v.Slug
		}
		return fn(w, r, a, ws)
	})
}

// peopleFunc serves the People page or one of its actions in workspace
// ws: the one named, else the person's only one ("" when neither, which
// the Service answers by asking for one).
type peopleFunc func(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error

// managesPeople reports whether the People page is the person's: they
// manage the members of the workspace shown, or administer the instance.
func managesPeople(me app.Me, ws string) bool {
	if slices.Contains(me.InstancePermissions, app.PermInstanceAdmin) {
		return true
	}
	w, ok := shownWorkspace(me, ws)
	return ok && slices.Contains(w.Permissions, app.PermWorkspaceMembers)
}

// personRow is one member as the page lists them, with the credentials of
// theirs the viewer may revoke.
type personRow struct {
	app.Person
	Tokens []app.Token
	// Sessions are the person's live sessions, listed only to whom the
	// Service lets list them (the person, and who may sign them out).
	Sessions []deviceRow
	Query    string // the page's Query, for the rows' forms
}

// scopeChoice is one scope the issue form offers.
type scopeChoice struct {
	Name, What string
	Checked    bool
}

// issuedToken is a credential just issued for an agent, with the
// configuration snippets that use it: shown on this answer only.
type issuedToken struct {
	app.IssuedToken
	MCPURL, Claude, JSON, HTTP string
}

// peopleData is the People page's data.
type peopleData struct {
	// Query names the workspace as the address that reached the page did
	// ("" or "?workspace_id=…"): every form carries it, to return here.
	Query      string
	Slug, Name string
	People     []personRow
	Persons    []string // who an agent may answer to: the people here
	Roles      []app.Role
	Scopes     []scopeChoice
	Projects   []app.ProjectView
	Workspaces []app.WorkspaceOnInstance // every workspace, for an instance administrator
	// ManagesAccounts: the viewer may deactivate accounts and issue
	// credentials for others (instance:user_create).
	ManagesAccounts bool
	Me              string
	Now             time.Time
	// Refused is a refusal of the last action in words, with its code;
	// RefusedFor names the person it was about, if any.
	Refused, RefusedFor string
	Code                app.Code
	Issued              *issuedToken
	// Invites are the workspace's pending invites, listed when the viewer
	// manages them; nil otherwise.
	Invites []app.Invite
	Form    issueForm
}

// issueForm is what the issue form holds: what was sent, kept beside its
// refusal.
type issueForm struct {
	Agent, NewAgent, AnswersTo, Title, Project, ExpiresDays string
}

// peopleNotices are the page's messages after a redirect, by key.
var peopleNotices = map[string]string{
	"role":        "Changed the role.",
	"deactivated": "Deactivated: their sessions and sign-in links are revoked, and their credentials stop working.",
	"reactivated": "Reactivated: they can sign in again.",
	"revoked":     "Revoked the token: it stops working at once.",
	"session":     "Revoked the session: that browser is signed out on its next request.",
	"invite":      "Revoked the invite: nobody else can join by it. Those who joined by it stay.",
}

// pagePeople lists the workspace's people and agents.
func (s *Server) pagePeople(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	return s.renderPeople(w, r, a, ws, http.StatusOK, peopleData{})
}

func (s *Server) renderPeople(w http.ResponseWriter, r *http.Request, a app.Actor, ws string, status int, d peopleData) error {
	ctx := r.Context()
	people, err := s.app.People(ctx, a, ws)
	if app.CodeOf(err) == app.CodeNotFound {
		s.nowhere.ServeHTTP(w, r)
		return nil
	}
	if err != nil {
		return err
	}
	me, err := s.app.Me(ctx, a)
	if err != nil {
		return err
	}
	tokens, err := s.app.Tokens(ctx, a)
	if err != nil {
		return err
	}
	d.Query, d.Me, d.Now, d.Roles = peopleQuery(r), a.User.Username, time.Now(), app.Roles
	d.ManagesAccounts = slices.Contains(me.InstancePermissions, app.PermUserCreate)
	for _, p := range people {
		d.Slug, d.Name = p.Workspace.Slug, p.Workspace.Name
		row := personRow{Person: p, Query: d.Query}
		for _, t := range tokens {
			if t.UserID == p.UserID {
				row.Tokens = append(row.Tokens, t)
			}
		}
		if row.Sessions, err = s.personSessions(r, a, p.User); err != nil {
			return err
		}
		if !p.User.IsServiceAccount && p.User.Active {
			d.Persons = append(d.Persons, p.User.Username)
		}
		d.People = append(d.People, row)
	}
	var sent []string // the scopes a refused issue sent, to tick again
	if d.Code != "" && r.Method == http.MethodPost && r.URL.Path == "/people" {
		sent = append([]string{}, r.PostForm["scopes"]...)
	}
	d.Scopes = grantableScopes(a, sent)
	if d.Invites, err = s.pendingInvites(r, a, d.Slug); err != nil {
		return err
	}
	if d.Projects, err = s.app.Projects(ctx, a, d.Slug, false); err != nil && app.CodeOf(err) != app.CodeNotFound {
		return err
	}
	if slices.Contains(me.InstancePermissions, app.PermInstanceAdmin) {
		if d.Workspaces, err = s.app.InstanceWorkspaces(ctx, a); err != nil {
			return err
		}
	}
	v := s.view(r, a, "People", "people", d)
	if n, ok := peopleNotices[r.URL.Query().Get("notice")]; ok {
		v.Notice = n
	}
	return s.render(w, status, "people", v)
}

// personSessions are the live sessions of u that the viewer may list and
// revoke, by the Service's rule for the administrator's session routes;
// none for an agent, which signs in with tokens only, nor for a viewer the
// Service does not let see them.
func (s *Server) personSessions(r *http.Request, a app.Actor, u app.User) ([]deviceRow, error) {
	if u.IsServiceAccount {
		return nil, nil
	}
	ss, err := s.app.Sessions(r.Context(), a, u.Username)
	if c := app.CodeOf(err); c == app.CodeNotFound || c == app.CodeCredentialNarrowed {
		return nil, nil
	}
	var out []deviceRow
	for _, x := range ss {
		out = append(out, deviceRow{DeviceSession: x, How: viaWords[x.Via]})
	}
	return out, err
}

// pendingInvites are the workspace's invites still usable, when the
// viewer manages them (the Service says); nil otherwise.
func (s *Server) pendingInvites(r *http.Request, a app.Actor, ws string) ([]app.Invite, error) {
	is, err := s.app.Invites(r.Context(), a, ws)
	if c := app.CodeOf(err); c == app.CodeNotFound || c == app.CodeForbidden || c == app.CodeCredentialNarrowed {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := []app.Invite{}
	for _, i := range is {
		if i.State == app.InviteUsable {
			out = append(out, i)
		}
	}
	return out, nil
}

// grantableScopes are the scopes the issue form offers: those the
// viewer's own credential holds (all of them for a browser session), the
// ones an agent works with ticked at first, or those sent (non-nil) after a
// refusal.
func grantableScopes(a app.Actor, sent []string) []scopeChoice {
	work := []string{app.PermProjectRead, app.PermItemRead, app.PermItemWrite}
	var out []scopeChoice
	for _, p := range app.Permissions {
		if a.Token != nil && !slices.Contains(a.Token.Scopes, app.ScopeAll) && !slices.Contains(a.Token.Scopes, p.Name) {
			continue
		}
		c := scopeChoice{Name: p.Name, What: p.Description}
		if sent == nil {
			c.Checked = slices.Contains(work, p.Name)
		} else {
			c.Checked = slices.Contains(sent, p.Name)
		}
		out = append(out, c)
	}
	return out
}

// peopleQuery names the workspace as the request did, for the page's
// forms and redirects.
func peopleQuery(r *http.Request) string {
	if ws := r.URL.Query().Get("workspace_id"); ws != "" {
		return "?" + url.Values{"workspace_id": {ws}}.Encode()
	}
	return ""
}

// peoplePath is the People page, naming the workspace as the request did.
func peoplePath(r *http.Request) string { return "/people" + peopleQuery(r) }

// peopleRefused shows a refusal of an action on the page, in words, with
// the status the API gives it; a refusal that is not about the request
// (internal, signed out, not found) is the error page's.
func (s *Server) peopleRefused(w http.ResponseWriter, r *http.Request, a app.Actor, ws string, err error, d peopleData) error {
	p := wire.NewProblem(err)
	if p.Status >= 500 || p.Code == app.CodeUnauthorized || p.Code == app.CodeCrossOrigin || p.Code == app.CodeNotFound {
		return err
	}
	d.Refused, d.Code = problemMessage(err), p.Code
	return s.renderPeople(w, r, a, ws, p.Status, d)
}

// pagePeopleRole changes a member's role (RegradeMember).
func (s *Server) pagePeopleRole(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	who := wire.Param(r, "username")
	if _, err := s.app.RegradeMember(r.Context(), a, ws, who, app.Regrade{Role: f.str("role")}); err != nil {
		return s.peopleRefused(w, r, a, ws, err, peopleData{RefusedFor: who})
	}
	return seeOther(w, r, withNotice(peoplePath(r), "role")+"#person-"+who)
}

// pagePeopleActive deactivates or reactivates an account (UpdateUser).
func (s *Server) pagePeopleActive(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	who, on := wire.Param(r, "username"), f.str("active") == "true"
	if _, err := s.app.UpdateUser(r.Context(), a, who, app.UserUpdate{Active: app.PatchOf(on)}); err != nil {
		return s.peopleRefused(w, r, a, ws, err, peopleData{RefusedFor: who})
	}
	notice := "deactivated"
	if on {
		notice = "reactivated"
	}
	return seeOther(w, r, withNotice(peoplePath(r), notice)+"#person-"+who)
}

// pagePeopleTokenRevoke revokes a credential (RevokeToken, with its reach).
func (s *Server) pagePeopleTokenRevoke(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	return s.submit(w, r, withNotice(peoplePath(r), "revoked")+"#person-"+wire.Param(r, "username"), func(*pageForm) error {
		_, err := s.app.RevokeToken(r.Context(), a, wire.Param(r, "token"))
		return err
	})
}

// pagePeopleSessionRevoke ends one of a person's sessions (RevokeSession,
// with the authority that may sign them out).
func (s *Server) pagePeopleSessionRevoke(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	who := wire.Param(r, "username")
	if _, err := s.form(w, r); err != nil {
		return err
	}
	if err := s.app.RevokeSession(r.Context(), a, who, wire.Param(r, "session")); err != nil {
		return s.peopleRefused(w, r, a, ws, err, peopleData{RefusedFor: who})
	}
	return seeOther(w, r, withNotice(peoplePath(r), "session")+"#person-"+who)
}

// pagePeopleInviteRevoke revokes a pending invite of the workspace shown
// (RevokeInvite).
func (s *Server) pagePeopleInviteRevoke(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	return s.submit(w, r, withNotice(peoplePath(r), "invite")+"#people-invites", func(*pageForm) error {
		return s.app.RevokeInvite(r.Context(), a, ws, wire.Param(r, "invite"))
	})
}

// pagePeopleTokenIssue issues a credential for an agent, pinned to the
// workspace shown, creating the agent when a new name is given, and shows
// the secret on this answer only (no redirect: a secret must not travel in
// a URL), with the configuration that uses it.
func (s *Server) pagePeopleTokenIssue(w http.ResponseWriter, r *http.Request, a app.Actor, ws string) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	form := issueForm{Agent: f.str("agent"), NewAgent: strings.TrimSpace(f.str("new_agent")), AnswersTo: f.str("answers_to"),
		Title: strings.TrimSpace(f.str("title")), Project: f.str("project"), ExpiresDays: strings.TrimSpace(f.str("expires_days"))}
	in, err := form.tokenCreate(r.PostForm["scopes"], ws)
	if err == nil {
		var t app.IssuedToken
		if t, err = s.app.CreateToken(r.Context(), a, in); err == nil {
			return s.renderPeople(w, r, a, ws, http.StatusOK, peopleData{Issued: mcpSnippets(r, s.app.PublicURL(), t)})
		}
	}
	return s.peopleRefused(w, r, a, ws, err, peopleData{Form: form})
}

// tokenCreate is the credential the form asks for: for the agent picked,
// or a new one answering to the person named; the scopes ticked; pinned
// to the workspace; narrowed to a project and an expiry when given.
func (f issueForm) tokenCreate(scopes []string, ws string) (app.TokenCreate, error) {
	in := app.TokenCreate{Title: f.Title, Scopes: scopes, Username: f.Agent}
	if in.Scopes == nil {
		in.Scopes = []string{}
	}
	if f.NewAgent != "" {
		in.Username, in.AnswersTo = f.NewAgent, f.AnswersTo
	}
	if in.Username == "" {
		return in, app.Invalidf("form.agent", "pick an agent, or name a new one")
	}
	if ws != "" {
		in.Workspace = app.PatchOf(ws)
	}
	if f.Project != "" {
		in.ProjectScope = app.PatchOf([]string{f.Project})
	}
	if f.ExpiresDays != "" {
		n, err := strconv.Atoi(f.ExpiresDays)
		if err != nil || n < 1 {
			return in, app.Invalidf("form.expires_days", "expires in days is a whole number, at least 1")
		}
		// As `tend token issue --expires 30d` does: days from now.
		in.ExpiresAt = app.PatchOf(time.Now().AddDate(0, 0, n).UTC())
	}
	return in, nil
}

// mcpSnippets is the configuration that connects an MCP host to this
// instance with t, as web/docs/agent.md gives it for each host.
func mcpSnippets(r *http.Request, publicURL string, t app.IssuedToken) *issuedToken {
	u := wire.BaseURL(r, publicURL) + "/mcp"
	return &issuedToken{IssuedToken: t, MCPURL: u,
		Claude: `claude mcp add --transport http tend ` + u + ` --header "Authorization: Bearer ` + t.Secret + `"`,
		JSON: `{"mcpServers": {"tend": {"type": "http", "url": "` + u + `",` + "\n" +
			`  "headers": {"Authorization": "Bearer ` + t.Secret + `"}}}}`,
		HTTP: "POST " + u + "\nAuthorization: Bearer " + t.Secret + "\nContent-Type: application/json\nAccept: application/json, text/event-stream"}
}
