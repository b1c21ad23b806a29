package pages

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"tend/app"
	"tend/web/wire"
)

type accountData struct {
	Me        app.Me
	Tokens    []app.Token
	Calendars []app.Calendar
	Now       time.Time
	// NewSecret is a token just issued, or NewFeed a feed URL just issued or
	// reset: shown on this one answer and never again.
	NewSecret, NewFeed string
	// MineEmpty: a feed of the person's own work would hold nothing,
	// while the workspace has dated work assigned to nobody.
	MineEmpty bool
	// Notify is the Notifications section; nil for an agent.
	Notify *notifyData
	// Webhooks: the person manages webhooks in the workspace shown, so the
	// page links to the webhooks page.
	Webhooks bool
	// Passkeys is the Passkeys section; nil for an agent.
	Passkeys *passkeysData
	// DeviceLink is a device link just made; Access the Devices section.
	DeviceLink *deviceLinkView
	Access     accessData
}

// pageAccount shows the person's settings, credentials and feeds.
func (s *Server) pageAccount(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.renderAccount(w, r, a, accountData{})
}

func (s *Server) renderAccount(w http.ResponseWriter, r *http.Request, a app.Actor, d accountData) error {
	var err error
	if d.Me, err = s.app.Me(r.Context(), a); err != nil {
		return err
	}
	if d.Tokens, err = s.app.Tokens(r.Context(), a); err != nil {
		return err
	}
	if d.Calendars, err = s.app.Calendars(r.Context(), a); err != nil {
		return err
	}
	if d.MineEmpty, err = s.mineEmpty(r, a); err != nil {
		return err
	}
	if d.Webhooks, err = s.managesWebhooks(r, a, d.Me); err != nil {
		return err
	}
	if d.Notify, err = s.notifications(r, a); err != nil {
		return err
	}
	if d.Passkeys, err = s.passkeys(r, a); err != nil {
		return err
	}
	if d.Access, err = s.devices(r, a, d.DeviceLink); err != nil {
		return err
	}
	d.Now = time.Now()
	return s.render(w, http.StatusOK, "account", s.view(r, a, "Account", "account", d))
}

// mineEmpty reports whether a feed of "my work" (CONTRACT: what is
// assigned to or claimed by its owner) would be empty while dated tasks
// nobody is assigned exist: a person working alone, who never assigns
// anything, then learns why their feed shows nothing and is offered the
// workspace's. A person in several workspaces who has not chosen one
// is told nothing.
func (s *Server) mineEmpty(r *http.Request, a app.Actor) (bool, error) {
	dated := func(assignee, claimedBy string, unassigned bool) (bool, error) {
		filter := map[string]string{"due_at.is": "set"}
		if unassigned {
			filter["assignee.is"] = "unset"
		}
		l, err := s.app.Tasks(r.Context(), a, app.TaskListQuery{Workspace: workspaceOf(r), Assignee: assignee, ClaimedBy: claimedBy,
			Filter: filter, Limit: 1})
		if app.CodeOf(err) == app.CodeWorkspaceRequired {
			return false, nil
		}
		return len(l.Items) > 0, err
	}
	for _, who := range [][2]string{{"me", ""}, {"", "me"}} {
		if has, err := dated(who[0], who[1], false); has || err != nil {
			return false, err
		}
	}
	return dated("", "", true)
}

// pageAccountEdit saves the display name, timezone and reminder settings.
func (s *Server) pageAccountEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in := app.UserUpdate{DisplayName: app.Patch[string]{Set: true, Value: f.str("display_name")}}
	if tz := strings.TrimSpace(f.str("timezone")); tz != "" {
		in.Timezone = app.Patch[string]{Set: true, Value: tz}
	} else {
		in.Timezone = app.Patch[string]{Set: true, Null: true}
	}
	if _, ok := r.PostForm["reminder_time"]; ok {
		in.ReminderTime = app.PatchOf(strings.TrimSpace(f.str("reminder_time")))
	}
	if _, ok := r.PostForm["default_reminders"]; ok {
		rs, err := app.ParseRemindersList(f.str("default_reminders"))
		if err != nil {
			return app.Invalidf("form.default_reminders", "%s", err.Error())
		}
		in.DefaultReminders = app.PatchOf(rs)
	}
	if _, err := s.app.UpdateUser(r.Context(), a, a.User.Username, in); err != nil {
		return err
	}
	return seeOther(w, r, withNotice("/account", "edited"))
}

// pageTokenIssue issues a token for the person and shows its secret on
// this answer only (no redirect: the secret must not travel in a URL).
func (s *Server) pageTokenIssue(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in := app.TokenCreate{Title: f.str("title"), Scopes: r.PostForm["scopes"]}
	if days := f.str("expires_days"); days != "" {
		n, err := strconv.Atoi(days)
		if err != nil || n < 1 {
			return app.Invalidf("form.expires_days", "expires_days is a whole number of days, at least 1")
		}
		// As `tend token issue --expires 30d` does: days from now.
		in.ExpiresAt = app.Patch[time.Time]{Set: true, Value: time.Now().AddDate(0, 0, n).UTC()}
	}
	t, err := s.app.CreateToken(r.Context(), a, in)
	if err != nil {
		return err
	}
	return s.renderAccount(w, r, a, accountData{NewSecret: t.Secret})
}

func (s *Server) pageTokenRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account#tokens", func(*pageForm) error {
		_, err := s.app.RevokeToken(r.Context(), a, wire.Param(r, "token"))
		return err
	})
}

// pageCalendarIssue issues a feed and shows its URL on this answer only.
func (s *Server) pageCalendarIssue(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	c, err := s.app.CreateCalendar(r.Context(), a, app.CalendarCreate{Title: f.str("title"), Audience: f.str("audience"),
		Project: f.str("project"), Workspace: workspaceOf(r)})
	if err != nil {
		return err
	}
	return s.renderAccount(w, r, a, accountData{NewFeed: wire.FeedURL(r, s.app.PublicURL(), c)})
}

func (s *Server) pageCalendarRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account#calendars", func(*pageForm) error {
		_, err := s.app.RevokeCalendar(r.Context(), a, wire.Param(r, "calendar"))
		return err
	})
}

func (s *Server) pageCalendarReset(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	c, err := s.app.ResetCalendar(r.Context(), a, wire.Param(r, "calendar"))
	if err != nil {
		return err
	}
	return s.renderAccount(w, r, a, accountData{NewFeed: wire.FeedURL(r, s.app.PublicURL(), c)})
}

// pageSignOut ends this browser's session (or, with everywhere set, every
// session and sign-in link of the account) and clears the cookie.
func (s *Server) pageSignOut(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	if f.str("everywhere") != "" {
		_, err = s.app.SignOut(r.Context(), a, a.User.Username)
	} else {
		err = s.app.EndSession(r.Context(), a)
	}
	if err != nil {
		return err
	}
	wire.ClearSession(w, r, s.app.PublicURL())
	return seeOther(w, r, "/signin")
}
