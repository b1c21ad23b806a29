package app_test

import (
	"testing"
	"time"

	"tend/app"
)

// browser signs a into a browser session: a link minted and spent, then
// the session's cookie checked as the pages check it.
func (f *fixture) browser(a app.Actor) (app.Actor, string) {
	f.t.Helper()
	l := must(f.svc.CreateLoginLink(f.ctx, a, app.LoginLinkCreate{}))(f.t)
	ss := must(f.svc.SignIn(f.ctx, l.Secret, app.SessionClient{}))(f.t)
	return must(f.svc.AuthenticateSession(f.ctx, ss.Secret, "web"))(f.t), ss.Secret
}

// unknownSecret has a secret's shape and names nothing.
const unknownSecret = "tend_aaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

func TestLoginLinkCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.person("gone", app.RoleMember)
	must(f.svc.UpdateUser(f.ctx, f.admin, "gone", app.UserUpdate{Active: app.PatchOf(false)}))(t)
	f.agent("bot", "bob")
	narrow := f.login(f.issue(app.TokenCreate{Title: "narrow", Username: "bob",
		Scopes: []string{app.PermItemRead, app.PermProjectRead, app.PermWorkspaceRead}}))

	if bob.IsSystem() || !app.SystemActor("cli").IsSystem() {
		t.Fatal("a person's credential acts as the system, or the system does not")
	}
	own := must(f.svc.CreateLoginLink(f.ctx, bob, app.LoginLinkCreate{}))(t)
	if own.Username != "bob" || own.Secret == "" || !own.ExpiresAt.Equal(f.clock.Now().Add(app.LoginLinkLifetime)) {
		t.Errorf("own link %+v", own.LoginLink)
	}
	if other := must(f.svc.CreateLoginLink(f.ctx, f.admin, app.LoginLinkCreate{Username: "bob"}))(t); other.Username != "bob" {
		t.Errorf("the administrator's link for bob is for %s", other.Username)
	}
	// Naming oneself needs no authority over others.
	must(f.svc.CreateLoginLink(f.ctx, bob, app.LoginLinkCreate{Username: "BOB"}))(t)

	wantRefused(t, []refused[string]{
		{"a malformed username", f.admin, "no spaces", app.CodeValidation, "body.username"},
		{"a narrowed credential", narrow, "", app.CodeLoginLinkNarrowed, ""},
		{"another account without instance:user_create", bob, "admin", app.CodeTokenForOther, ""},
		{"no such account", f.admin, "nobody", app.CodeValidation, "body.username"},
		{"a deactivated account", f.admin, "gone", app.CodeAccountInactive, "body.username"},
		{"a service account", f.admin, "bot", app.CodeValidation, "body.username"},
		{"the system, naming nobody", app.SystemActor("cli"), "", app.CodeValidation, "body.username"},
	}, func(a app.Actor, username string) error {
		return errOf(f.svc.CreateLoginLink(f.ctx, a, app.LoginLinkCreate{Username: username}))
	})
}

func TestSignIn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	link := func() string { return must(f.svc.CreateLoginLink(f.ctx, bob, app.LoginLinkCreate{}))(t).Secret }

	spent := link()
	// Checking a link does not spend it; signing in does.
	if got := must(f.svc.CheckLoginLink(f.ctx, spent, ""))(t); got.Username != "bob" {
		t.Errorf("the link is for %s, want bob", got.Username)
	}
	ss := must(f.svc.SignIn(f.ctx, spent, app.SessionClient{}))(t)
	if ss.Secret == "" || !ss.IdleUntil.Equal(f.clock.Now().Add(app.SessionIdleLifetime)) ||
		!ss.ExpiresAt.Equal(f.clock.Now().Add(app.SessionMaxLifetime)) {
		t.Errorf("session %+v", ss.Session)
	}
	expired := link()
	f.clock.Advance(app.LoginLinkLifetime)
	deactivated := link()
	must(f.svc.UpdateUser(f.ctx, f.admin, "bob", app.UserUpdate{Active: app.PatchOf(false)}))(t)

	for name, secret := range map[string]string{
		"spent":                     spent,
		"expired":                   expired,
		"for a deactivated account": deactivated,
		"unknown":                   unknownSecret,
		"malformed":                 "not a secret",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := f.svc.CheckLoginLink(f.ctx, secret, "")
			wantCode(t, err, app.CodeLoginLinkUnusable)
			_, err = f.svc.SignIn(f.ctx, secret, app.SessionClient{})
			wantCode(t, err, app.CodeLoginLinkUnusable)
		})
	}
}

func TestAuthenticateSession(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	a, secret := f.browser(bob)
	if a.User.Username != "bob" || a.SessionID == "" || a.Interface != "web" {
		t.Errorf("session actor %+v", a)
	}
	// A use slides the idle expiry, so a session used every 20 days lasts
	// until its absolute lifetime and no longer.
	step, used := 20*24*time.Hour, time.Duration(0)
	for used+step < app.SessionMaxLifetime {
		f.clock.Advance(step)
		used += step
		wantCode(t, errOf(f.svc.AuthenticateSession(f.ctx, secret, "web")), "")
	}
	f.clock.Advance(app.SessionMaxLifetime - used)
	wantCode(t, errOf(f.svc.AuthenticateSession(f.ctx, secret, "web")), app.CodeUnauthorized)

	_, idle := f.browser(bob)
	_, ended := f.browser(bob)
	endedActor := must(f.svc.AuthenticateSession(f.ctx, ended, "web"))(t)
	wantCode(t, f.svc.EndSession(f.ctx, endedActor), "")
	f.clock.Advance(app.SessionIdleLifetime)

	cases := []struct {
		name   string
		secret string
	}{
		{"idle past its lifetime", idle},
		{"ended", ended},
		{"unknown", unknownSecret},
		{"malformed", "nope"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.AuthenticateSession(f.ctx, c.secret, "web")
			wantCode(t, err, app.CodeUnauthorized)
		})
	}
	t.Run("a token is no session to end", func(t *testing.T) {
		wantCode(t, f.svc.EndSession(f.ctx, bob), app.CodeNotASession)
	})
}

func TestSignOut(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleMember)
	narrow := f.login(f.issue(app.TokenCreate{Title: "narrow", Username: "bob",
		Scopes: []string{app.PermItemRead, app.PermProjectRead, app.PermWorkspaceRead}}))
	_, first := f.browser(bob)
	_, second := f.browser(bob)
	must(f.svc.CreateLoginLink(f.ctx, bob, app.LoginLinkCreate{}))(t)

	wantRefused(t, []refused[string]{
		{"one's own, with a narrowed credential", narrow, "bob", app.CodeCredentialNarrowed, ""},
		{"another account without instance:user_create", carol, "bob", app.CodeNotFound, ""},
		{"no such account", f.admin, "nobody", app.CodeNotFound, ""},
	}, func(a app.Actor, username string) error { return errOf(f.svc.SignOut(f.ctx, a, username)) })

	if got := must(f.svc.SignOut(f.ctx, f.admin, "bob"))(t); got != (app.SignedOut{Sessions: 2, Links: 1}) {
		t.Errorf("signed out %+v, want 2 sessions and 1 link", got)
	}
	for _, secret := range []string{first, second} {
		_, err := f.svc.AuthenticateSession(f.ctx, secret, "web")
		wantCode(t, err, app.CodeUnauthorized)
	}
	// Signing oneself out everywhere needs no authority over others.
	f.browser(carol)
	if got := must(f.svc.SignOut(f.ctx, carol, "carol"))(t); got.Sessions != 1 {
		t.Errorf("carol signed out %+v, want her one session", got)
	}
}

func TestLocalLoginLink(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	wantCode(t, f.svc.RecordServing(f.ctx, app.Serving{Addr: "127.0.0.1:7070"}), "")

	admin := must(f.svc.LocalLoginLink(f.ctx, ""))(t)
	if admin.Username != "admin" || admin.IssuedByID != "" || admin.Serving.Addr != "127.0.0.1:7070" {
		t.Errorf("link %+v serving %+v, want the administrator's, issued by nobody, with the address", admin.LoginLink, admin.Serving)
	}
	if bob := must(f.svc.LocalLoginLink(f.ctx, "bob"))(t); bob.Username != "bob" {
		t.Errorf("the link is for %s, want bob", bob.Username)
	}
	_, err := f.svc.LocalLoginLink(f.ctx, "nobody")
	wantCode(t, err, app.CodeNotFound)
}
