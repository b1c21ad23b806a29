package pages

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

// The invites (issue 38 §1): the Invites page, where a workspace's owners
// and admins make, list and revoke invites, and the join page an invite's
// link opens, where a person without an account picks a username and a
// timezone and comes in signed in. Every action is one call of the Service
// methods the API's invite routes call.

// inviteService is the part of app.Service the Invites page and the join
// page call.
type inviteService interface {
	CreateInvite(ctx context.Context, a app.Actor, workspace string, in app.InviteCreate) (app.IssuedInvite, error)
	Invites(ctx context.Context, a app.Actor, workspace string) ([]app.Invite, error)
	RevokeInvite(ctx context.Context, a app.Actor, workspace, id string) error
	InviteInfo(ctx context.Context, secret string) (app.InviteInfo, error)
	RedeemInvite(ctx context.Context, in app.InviteRedeem, c app.SessionClient) (app.Joined, error)
}

// inviteRoutes mounts the Invites page and the join page.
func (s *Server) inviteRoutes(rt Router) {
	rt.Handler(http.MethodGet, "/join/:secret", http.HandlerFunc(s.handleJoinPage)) // the secret is in the path: the access log hides it
	rt.Handler(http.MethodPost, "/join/:secret", http.HandlerFunc(s.handleJoin))
	s.page(rt, http.MethodGet, "/invites", s.invitesManaging(s.pageInvites))
	s.page(rt, http.MethodPost, "/invites", s.invitesManaging(s.pageInviteAdd))
	s.page(rt, http.MethodPost, "/invites/:invite/revoke", s.invitesManaging(s.pageInviteRevoke))
}

// ManagesInvites reports whether the person may invite people to the
// workspace ws (its owners and admins, who may add members, and the
// instance's administrators): the Account page links to the Invites page
// only then.
func (d accountData) ManagesInvites(ws string) bool { return managesInvites(d.Me, ws) }

func managesInvites(me app.Me, ws string) bool {
	w, ok := shownWorkspace(me, ws)
	return ok && (slices.Contains(w.Permissions, app.PermWorkspaceMembers) || slices.Contains(me.InstancePermissions, app.PermInstanceAdmin))
}

// invitesManaging lets fn answer only someone who manages the invites of
// the workspace shown; anyone else is answered as a path no route takes.
func (s *Server) invitesManaging(fn pageFunc) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		me, err := s.app.Me(r.Context(), a)
		if err != nil {
			return err
		}
		if workspaceOf(r) == "" && len(me.Workspaces) > 1 {
			return app.Errorf(app.CodeWorkspaceRequired, "choose a workspace")
		}
		if !managesInvites(me, workspaceOf(r)) {
			s.nowhere.ServeHTTP(w, r)
			return nil
		}
		return fn(w, r, a)
	}
}

// inviteLifetimes are what the Invites page offers, the API's default first.
var inviteLifetimes = []struct{ Value, Label string }{
	{"7d", "7 days"}, {"1d", "1 day"}, {"3d", "3 days"}, {"14d", "14 days"}, {"30d", "30 days"},
}

// invitesData is the Invites page's data.
type invitesData struct {
	Workspace       string
	Pending, Past   []app.Invite
	Roles           []app.Role
	Lifetimes       []struct{ Value, Label string }
	Form            inviteForm
	Added           *app.Invite // the invite just made, with Link its link: shown on this answer only
	Link            string
	Now             time.Time
	InviteMaxUses   int
	DefaultLifetime string
}

// inviteForm is the make-an-invite form as sent, with what was wrong.
type inviteForm struct {
	Role, ExpiresIn, Uses, Note string
	Errors                      map[string]string
	Refused                     string
}

func (s *Server) pageInvites(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.renderInvites(w, r, a, http.StatusOK, invitesData{Form: inviteForm{Role: app.RoleMember, ExpiresIn: "7d", Uses: "1"}})
}

func (s *Server) renderInvites(w http.ResponseWriter, r *http.Request, a app.Actor, status int, d invitesData) error {
	is, err := s.app.Invites(r.Context(), a, workspaceOf(r))
	if err != nil {
		return err
	}
	for _, i := range is {
		if i.State == app.InviteUsable {
			d.Pending = append(d.Pending, i)
		} else {
			d.Past = append(d.Past, i)
		}
	}
	d.Roles, d.Lifetimes, d.InviteMaxUses, d.Now = app.Roles, inviteLifetimes, app.InviteMaxUses, time.Now()
	v := s.view(r, a, "Invites", "account", d)
	if r.URL.Query().Get("notice") == "invite_revoked" {
		v.Notice = "Revoked the invite: nobody else can join by it. Those who joined by it stay."
	}
	return s.render(w, status, "invites", v)
}

// pageInviteAdd makes an invite and shows its link on this answer only
// (no redirect: a secret must not travel in a URL). A refusal shows the
// form again with what was sent and what was wrong with it.
func (s *Server) pageInviteAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	form := inviteForm{Role: f.str("role"), ExpiresIn: f.str("expires_in"), Uses: strings.TrimSpace(f.str("max_uses")), Note: f.str("note")}
	in := app.InviteCreate{Role: form.Role, ExpiresIn: form.ExpiresIn, Note: form.Note}
	if form.Uses != "" {
		if in.MaxUses, err = strconv.Atoi(form.Uses); err != nil {
			in.MaxUses = -1 // not a number: the Service says what is allowed
		}
	}
	i, err := s.app.CreateInvite(r.Context(), a, workspaceOf(r), in)
	if err != nil {
		e := app.AsError(err)
		if len(e.Fields) == 0 && e.Code != app.CodeTooManyAttempts {
			return err
		}
		form.Errors = map[string]string{}
		for _, fe := range e.Fields {
			form.Errors[fe.Loc[len(fe.Loc)-1]] = fe.Msg
		}
		if len(e.Fields) == 0 {
			form.Refused = e.Detail
		}
		return s.renderInvites(w, r, a, wire.NewProblem(err).Status, invitesData{Form: form})
	}
	return s.renderInvites(w, r, a, http.StatusOK, invitesData{Added: &i.Invite, Link: wire.JoinURL(wire.BaseURL(r, s.app.PublicURL()), i.Secret),
		Form: inviteForm{Role: app.RoleMember, ExpiresIn: "7d", Uses: "1"}})
}

func (s *Server) pageInviteRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, withNotice("/invites", "invite_revoked"), func(*pageForm) error {
		return s.app.RevokeInvite(r.Context(), a, workspaceOf(r), wire.Param(r, "invite"))
	})
}

// joinZones are the timezones the join form offers; the browser's own
// zone, when the script finds it elsewhere, is added to them.
var joinZones = []string{"UTC",
	"Africa/Cairo", "Africa/Johannesburg", "Africa/Lagos", "Africa/Nairobi",
	"America/Anchorage", "America/Argentina/Buenos_Aires", "America/Bogota", "America/Chicago", "America/Denver",
	"America/Halifax", "America/Los_Angeles", "America/Mexico_City", "America/New_York", "America/Phoenix",
	"America/Santiago", "America/Sao_Paulo", "America/St_Johns", "America/Toronto", "America/Vancouver",
	"Asia/Bangkok", "Asia/Dhaka", "Asia/Dubai", "Asia/Hong_Kong", "Asia/Jakarta", "Asia/Jerusalem", "Asia/Karachi",
	"Asia/Kathmandu", "Asia/Kolkata", "Asia/Manila", "Asia/Seoul", "Asia/Shanghai", "Asia/Singapore", "Asia/Taipei",
	"Asia/Tehran", "Asia/Tokyo",
	"Atlantic/Reykjavik", "Australia/Adelaide", "Australia/Brisbane", "Australia/Melbourne", "Australia/Perth", "Australia/Sydney",
	"Europe/Amsterdam", "Europe/Athens", "Europe/Berlin", "Europe/Brussels", "Europe/Dublin", "Europe/Helsinki", "Europe/Istanbul",
	"Europe/Kyiv", "Europe/Lisbon", "Europe/London", "Europe/Madrid", "Europe/Moscow", "Europe/Oslo", "Europe/Paris",
	"Europe/Prague", "Europe/Rome", "Europe/Stockholm", "Europe/Vienna", "Europe/Warsaw", "Europe/Zurich",
	"Pacific/Auckland", "Pacific/Honolulu",
}

// joinData is the join page's data: the invite, and the form as sent
// with what was wrong with it.
type joinData struct {
	app.InviteInfo
	Secret, Username, Chosen string
	Zones                    []string
	UsernameError, Refused   string
	ExpiresText              string
}

// writeJoin renders a join page, or the page saying why an invite cannot
// be used.
func (s *Server) writeJoin(w http.ResponseWriter, status int, name string, d joinData) {
	d.Zones = joinZones
	tz := d.Chosen
	if tz == "" {
		tz = d.Timezone
	}
	if tz != "" && !slices.Contains(d.Zones, tz) {
		d.Zones = append([]string{tz}, d.Zones...)
	}
	d.Chosen = tz
	d.ExpiresText = d.ExpiresAt.UTC().Format("2 January 2006 at 15:04 UTC")
	title := "Join " + d.WorkspaceName
	if name != "join" {
		title = "This invite cannot be used"
		d.Why = strings.ToUpper(d.Why[:1]) + d.Why[1:] + "."
	}
	// The templates' own <meta name="referrer"> keeps the Referer out.
	_ = s.render(w, status, name, pageView{Title: title, Static: "/static/" + staticVersion, Data: d})
}

// handleJoinPage shows an invite's workspace, role and note with the form
// that joins, or, for an invite that cannot be used, says why in words
// (410). It changes nothing, so a link preview cannot spend the invite.
func (s *Server) handleJoinPage(w http.ResponseWriter, r *http.Request) {
	secret := wire.Param(r, "secret")
	info, err := s.app.InviteInfo(r.Context(), secret)
	if err != nil {
		s.problem(w, r, err)
		return
	}
	if info.State != app.InviteUsable {
		s.writeJoin(w, http.StatusGone, "join_unusable", joinData{InviteInfo: info})
		return
	}
	s.writeJoin(w, http.StatusOK, "join", joinData{InviteInfo: info, Secret: secret})
}

// handleJoin redeems the invite with the username and timezone posted,
// sets the session cookie and sends the browser to Today. A refusal shows
// the form again with what was wrong; an invite that cannot be used says
// why, and nothing changed.
func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request) {
	if err := s.crossOrigin.Check(r); err != nil {
		// Another site must not make an account and sign a browser in to it.
		s.problem(w, r, app.Errorf(app.CodeCrossOrigin, "join from tend's own page"))
		return
	}
	f, err := s.form(w, r)
	if err != nil {
		s.problem(w, r, err)
		return
	}
	secret := wire.Param(r, "secret")
	d := joinData{Secret: secret, Username: strings.TrimSpace(f.str("username")), Chosen: f.str("timezone")}
	j, err := s.app.RedeemInvite(r.Context(), app.InviteRedeem{Secret: secret, Username: d.Username, Timezone: d.Chosen},
		wire.SessionClient(r))
	if err == nil {
		wire.SetSession(w, r, s.app.PublicURL(), j.Session)
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	e := app.AsError(err)
	switch {
	case e.Code == app.CodeInviteUnusable:
		d.State, d.Why = app.InviteUnknown, e.Detail
		s.writeJoin(w, http.StatusGone, "join_unusable", d)
		return
	case e.Code == app.CodeInternal || e.Code == app.CodeBusy:
		s.problem(w, r, err)
		return
	}
	for _, fe := range e.Fields {
		if fe.Loc[len(fe.Loc)-1] == "username" {
			d.UsernameError = fe.Msg
		} else {
			d.Refused = fe.Msg
		}
	}
	if len(e.Fields) == 0 {
		d.Refused = e.Detail
	}
	info, ierr := s.app.InviteInfo(r.Context(), secret)
	if ierr != nil {
		s.problem(w, r, ierr)
		return
	}
	d.InviteInfo = info
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	s.writeJoin(w, wire.NewProblem(err).Status, "join", d)
}
