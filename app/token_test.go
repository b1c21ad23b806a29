package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// TestTokenIssuing checks the issuing rule: a credential never grants more
// than the one that asks for it.
func TestTokenIssuing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	member := f.person("mia", app.RoleMember)
	f.projects(
		app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"}, app.ProjectCreate{Key: "api"},
		app.ProjectCreate{Key: "secret", Visibility: "private"},
	)
	day := storetest.Epoch.Add(24 * time.Hour)
	narrow := f.login(f.issue(app.TokenCreate{Title: "narrow", Scopes: []string{app.PermItemRead, app.PermItemWrite, app.PermProjectRead,
		app.PermWorkspaceRead}, ExpiresAt: app.PatchOf(day), Workspace: app.PatchOf("default"),
		ProjectScope: app.PatchOf([]string{"web"}), ProjectWriteScope: app.PatchOf([]string{"ui"})}))

	t.Run("inherits what it leaves out", func(t *testing.T) {
		got := must(f.svc.CreateToken(f.ctx, narrow, app.TokenCreate{}))(t)
		if !slices.Equal(got.Scopes, narrow.Token.Scopes) || !got.ExpiresAt.Equal(day) || got.WorkspaceID != narrow.Token.WorkspaceID ||
			!slices.Equal(got.ProjectScope, narrow.Token.ProjectScope) || !slices.Equal(got.ProjectWriteScope, narrow.Token.ProjectWriteScope) ||
			got.Username != "admin" || got.IssuedBy != "admin" || got.IssuedByTokenID != narrow.Token.ID || got.Secret == "" || !got.Narrows() {
			t.Errorf("got %+v", got.Token)
		}
	})
	t.Run("narrower on every axis", func(t *testing.T) {
		got := must(f.svc.CreateToken(f.ctx, narrow, app.TokenCreate{Scopes: []string{app.PermItemRead, app.PermProjectRead},
			ExpiresAt: app.PatchOf(storetest.Epoch.Add(time.Hour)), ProjectScope: app.PatchOf([]string{"ui"})}))(t)
		a := f.login(got.Secret)
		if !slices.Equal(a.Token.Scopes, []string{app.PermItemRead, app.PermProjectRead}) || len(a.Token.ProjectScope) != 1 {
			t.Errorf("got %+v", a.Token)
		}
	})
	t.Run("an administrator's, unlimited", func(t *testing.T) {
		got := must(f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Title: "all"}))(t)
		if !slices.Equal(got.Scopes, []string{app.ScopeAll}) || got.ExpiresAt != nil || got.WorkspaceID != "" || got.ProjectScope != nil || got.Narrows() {
			t.Errorf("got %+v", got.Token)
		}
	})

	past := storetest.Epoch.Add(-time.Minute)
	cases := []refused[app.TokenCreate]{
		{"a scope the issuer lacks", narrow, app.TokenCreate{Scopes: []string{app.PermProjectRead, app.PermProjectWrite}}, app.CodeTokenScopeWider, "body.scopes"},
		{"a scope without what it needs", narrow, app.TokenCreate{Scopes: []string{app.PermItemRead}}, app.CodeTokenScopeIncomplete, "body.scopes"},
		{"every scope", narrow, app.TokenCreate{Scopes: []string{app.ScopeAll}}, app.CodeTokenScopeWider, "body.scopes"},
		{"every project", narrow, app.TokenCreate{ProjectScope: app.Patch[[]string]{Set: true, Null: true}}, app.CodeTokenProjectsWider, "body.project_scope"},
		{"another project", narrow, app.TokenCreate{ProjectScope: app.PatchOf([]string{"api"})}, app.CodeTokenProjectsWider, "body.project_scope"},
		{"writing in more", narrow, app.TokenCreate{ProjectWriteScope: app.PatchOf([]string{"web"})}, app.CodeTokenWriteWider, "body.project_write_scope"},
		{"outliving the issuer", narrow, app.TokenCreate{ExpiresAt: app.PatchOf(day.Add(time.Second))}, app.CodeTokenExpiryLater, "body.expires_at"},
		{"never expiring", narrow, app.TokenCreate{ExpiresAt: app.Patch[time.Time]{Set: true, Null: true}}, app.CodeTokenExpiryLater, "body.expires_at"},
		{"unpinned", narrow, app.TokenCreate{Workspace: app.Patch[string]{Set: true, Null: true}}, app.CodeTokenWorkspaceWider, "body.workspace"},
		{"pinned elsewhere", narrow, app.TokenCreate{Workspace: app.PatchOf("nowhere")}, app.CodeTokenWorkspaceWider, "body.workspace"},
		{"for another account, without the permission", member, app.TokenCreate{Username: "bob"}, app.CodeTokenForOther, ""},
		{"expired already", f.admin, app.TokenCreate{ExpiresAt: app.PatchOf(past)}, app.CodeValidation, "body.expires_at"},
		{"an unknown scope", f.admin, app.TokenCreate{Scopes: []string{"everything"}}, app.CodeValidation, "body.scopes"},
		{"no scope", f.admin, app.TokenCreate{Scopes: []string{}}, app.CodeValidation, "body.scopes"},
		{"an unknown project", f.admin, app.TokenCreate{ProjectScope: app.PatchOf([]string{"nope"})}, app.CodeValidation, "body.project_scope"},
		{"a project the issuer cannot see", member, app.TokenCreate{ProjectScope: app.PatchOf([]string{"secret"})}, app.CodeValidation,
			"body.project_scope"},
		{"writing where it may not read", f.admin, app.TokenCreate{ProjectScope: app.PatchOf([]string{"ui"}),
			ProjectWriteScope: app.PatchOf([]string{"api"})}, app.CodeValidation, "body.project_write_scope"},
		{"an unknown workspace", f.admin, app.TokenCreate{Workspace: app.PatchOf("nowhere")}, app.CodeValidation, "body.workspace"},
		{"a new account with no one to answer to", f.admin, app.TokenCreate{Username: "newbie"}, app.CodeValidation, "body.username"},
	}
	wantRefused(t, cases, func(a app.Actor, in app.TokenCreate) error { return errOf(f.svc.CreateToken(f.ctx, a, in)) })
}

// TestTokenForOthers checks issuing for another account with
// instance:user_create; what exactly an agent's credential may be given is
// pinned by the HTTP tests.
func TestTokenForOthers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)

	got := must(f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Username: "bot", AnswersTo: "bob"}))(t)
	if !got.AccountCreated || got.Username != "bot" {
		t.Errorf("got %+v, account created %v", got.Token, got.AccountCreated)
	}
	bot := f.login(got.Secret)
	if !bot.User.IsServiceAccount || bot.User.AnswersTo != "bob" {
		t.Errorf("the account: %+v", bot.User)
	}
	again := must(f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Username: "bot"}))(t)
	if again.AccountCreated {
		t.Errorf("a second credential created the account again")
	}
	_, err := f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Username: "bot", AnswersTo: "admin"})
	wantCode(t, err, app.CodeValidation)
	wantField(t, err, "body.answers_to")

	must(f.svc.UpdateUser(f.ctx, f.admin, "bob", app.UserUpdate{Active: app.PatchOf(false)}))(t)
	_, err = f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Username: "bob"})
	wantCode(t, err, app.CodeAccountInactive)
	// An agent stops working when the person it answers to leaves.
	_, err = f.svc.Authenticate(f.ctx, got.Secret, "test")
	wantCode(t, err, app.CodeUnauthorized)
}

func TestTokenRevoke(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	secret := f.issue(app.TokenCreate{Title: "to revoke", Username: "bob"})
	tok := f.login(secret).Token

	t.Run("listing reaches own credentials", func(t *testing.T) {
		var titles []string
		for _, x := range must(f.svc.Tokens(f.ctx, bob))(t) {
			titles = append(titles, x.Title)
		}
		if want := []string{"to revoke", "token"}; !slices.Equal(titles, want) {
			t.Errorf("bob lists %v, want %v", titles, want)
		}
		if all := must(f.svc.Tokens(f.ctx, f.admin))(t); len(all) != 3 {
			t.Errorf("the administrator lists %d credentials, want all 3", len(all))
		}
	})
	t.Run("beyond reach answers as absent", func(t *testing.T) {
		_, err := f.svc.RevokeToken(f.ctx, bob, f.admin.Token.Prefix)
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.RevokeToken(f.ctx, bob, "tend_nothing0")
		wantCode(t, err, app.CodeNotFound)
	})

	t.Run("an administrator's credential without instance:admin reaches only its own", func(t *testing.T) {
		narrow := f.login(f.issue(app.TokenCreate{Scopes: []string{app.PermItemRead, app.PermProjectRead}}))
		_, err := f.svc.RevokeToken(f.ctx, narrow, tok.ID)
		wantCode(t, err, app.CodeNotFound)
		f.login(secret)
	})

	f.clock.Advance(time.Minute)
	first := must(f.svc.RevokeToken(f.ctx, bob, tok.Prefix))(t)
	f.clock.Advance(time.Minute)
	second := must(f.svc.RevokeToken(f.ctx, f.admin, tok.ID))(t)
	if !first.RevokedAt.Equal(storetest.Epoch.Add(time.Minute)) || !second.RevokedAt.Equal(*first.RevokedAt) || second.Usable(storetest.Epoch) {
		t.Errorf("revoked at %v, then %v", first.RevokedAt, second.RevokedAt)
	}
	_, err := f.svc.Authenticate(f.ctx, secret, "test")
	wantCode(t, err, app.CodeUnauthorized)
}

func TestAuthenticate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	short := f.issue(app.TokenCreate{ExpiresAt: app.PatchOf(storetest.Epoch.Add(time.Hour))})
	cases := []struct {
		name   string
		secret string
		code   app.Code
	}{
		{"a live credential", short, ""},
		{"empty", "", app.CodeUnauthorized},
		{"not a secret", "hunter2", app.CodeUnauthorized},
		{"a known prefix, a wrong rest", short[:16] + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", app.CodeUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := f.svc.Authenticate(f.ctx, c.secret, "test")
			wantCode(t, err, c.code)
			if c.code == "" && (a.User.Username != "admin" || a.Token == nil || a.Interface != "test") {
				t.Errorf("authenticated as %+v", a)
			}
		})
	}
	f.clock.Advance(time.Hour)
	_, err := f.svc.Authenticate(f.ctx, short, "test")
	wantCode(t, err, app.CodeUnauthorized)
}

// TestTokenNeverWider checks the issuing rule axis by axis, with issuers
// limited on one axis each, across two workspaces.
func TestTokenNeverWider(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "w2", Name: "W2"}))(t)
	alice := f.person("alice", app.RoleMember)
	f.person("bob", "")
	later := storetest.Epoch.Add(2 * time.Hour)
	issuer := func(in app.TokenCreate) app.Actor { return f.login(f.issue(in)) }
	null := app.Patch[[]string]{Set: true, Null: true}

	scopes := issuer(app.TokenCreate{Scopes: []string{app.PermItemRead, app.PermProjectRead}})
	projects := issuer(app.TokenCreate{ProjectScope: app.PatchOf([]string{"default/inbox"})})
	writes := issuer(app.TokenCreate{ProjectWriteScope: app.PatchOf([]string{"default/inbox"})})
	expiring := issuer(app.TokenCreate{ExpiresAt: app.PatchOf(later)})
	pinned := issuer(app.TokenCreate{Workspace: app.PatchOf("default")})
	alicePinned := f.login(must(f.svc.CreateToken(f.ctx, alice, app.TokenCreate{Workspace: app.PatchOf("default")}))(t).Secret)
	adminNoCreate := issuer(app.TokenCreate{Scopes: []string{app.PermItemRead, app.PermItemWrite, app.PermProjectRead, app.PermInstanceAdmin}})
	createOnly := issuer(app.TokenCreate{Scopes: []string{app.PermUserCreate}})
	before := len(must(f.svc.Tokens(f.ctx, f.admin))(t))

	cases := []refused[app.TokenCreate]{
		{"a scope more", scopes, app.TokenCreate{Scopes: []string{app.PermItemRead, app.PermItemWrite, app.PermProjectRead}},
			app.CodeTokenScopeWider, "body.scopes"},
		{"every scope", scopes, app.TokenCreate{Scopes: []string{app.ScopeAll}}, app.CodeTokenScopeWider, "body.scopes"},
		{"another scope", scopes, app.TokenCreate{Scopes: []string{app.PermAccountWrite}}, app.CodeTokenScopeWider, "body.scopes"},
		{"every scope beside one held", scopes, app.TokenCreate{Scopes: []string{app.ScopeAll, app.PermItemRead}}, app.CodeTokenScopeWider,
			"body.scopes"},
		{"a project in another workspace", projects, app.TokenCreate{ProjectScope: app.PatchOf([]string{"w2/inbox"})},
			app.CodeTokenProjectsWider, "body.project_scope"},
		{"a project more", projects, app.TokenCreate{ProjectScope: app.PatchOf([]string{"default/inbox", "w2/inbox"})},
			app.CodeTokenProjectsWider, "body.project_scope"},
		{"every project", projects, app.TokenCreate{ProjectScope: null}, app.CodeTokenProjectsWider, "body.project_scope"},
		{"writing elsewhere", writes, app.TokenCreate{ProjectWriteScope: app.PatchOf([]string{"w2/inbox"})}, app.CodeTokenWriteWider,
			"body.project_write_scope"},
		{"writing everywhere", writes, app.TokenCreate{ProjectWriteScope: null}, app.CodeTokenWriteWider, "body.project_write_scope"},
		{"a read limit does not lift the write limit", writes, app.TokenCreate{ProjectScope: app.PatchOf([]string{"w2/inbox"}),
			ProjectWriteScope: app.PatchOf([]string{"w2/inbox"})}, app.CodeTokenWriteWider, "body.project_write_scope"},
		{"a second later", expiring, app.TokenCreate{ExpiresAt: app.PatchOf(later.Add(time.Second))}, app.CodeTokenExpiryLater, "body.expires_at"},
		{"a year later", expiring, app.TokenCreate{ExpiresAt: app.PatchOf(later.Add(365 * 24 * time.Hour))}, app.CodeTokenExpiryLater,
			"body.expires_at"},
		{"never", expiring, app.TokenCreate{ExpiresAt: app.Patch[time.Time]{Set: true, Null: true}}, app.CodeTokenExpiryLater, "body.expires_at"},
		{"unpinned", pinned, app.TokenCreate{Workspace: app.Patch[string]{Set: true, Null: true}}, app.CodeTokenWorkspaceWider, "body.workspace"},
		{"pinned to nothing", pinned, app.TokenCreate{Workspace: app.PatchOf("")}, app.CodeTokenWorkspaceWider, "body.workspace"},
		{"pinned to another workspace", pinned, app.TokenCreate{Workspace: app.PatchOf("w2")}, app.CodeTokenWorkspaceWider, "body.workspace"},
		{"a pinned member naming another workspace", alicePinned, app.TokenCreate{Workspace: app.PatchOf("w2")}, app.CodeTokenWorkspaceWider,
			"body.workspace"},
		{"a pinned member naming no workspace there is", alicePinned, app.TokenCreate{Workspace: app.PatchOf("nowhere")},
			app.CodeTokenWorkspaceWider, "body.workspace"},
		{"a member, for another person", alice, app.TokenCreate{Username: "bob"}, app.CodeTokenForOther, ""},
		{"a member, for the administrator", alice, app.TokenCreate{Username: "admin"}, app.CodeTokenForOther, ""},
		{"a member, for a new agent", alice, app.TokenCreate{Username: "newbot", AnswersTo: "alice"}, app.CodeTokenForOther, ""},
		{"an administrator's credential without instance:user_create", adminNoCreate, app.TokenCreate{Username: "bob"}, app.CodeTokenForOther, ""},
		{"the same, narrower", adminNoCreate, app.TokenCreate{Username: "bob", Scopes: []string{app.PermItemRead, app.PermProjectRead}},
			app.CodeTokenForOther, ""},
		{"instance:user_create alone, for more", createOnly, app.TokenCreate{Username: "bob", Scopes: []string{app.PermItemRead,
			app.PermProjectRead}}, app.CodeTokenScopeWider, "body.scopes"},
	}
	wantRefused(t, cases, func(a app.Actor, in app.TokenCreate) error { return errOf(f.svc.CreateToken(f.ctx, a, in)) })
	f.wantNothingIssued(before, "newbot")
}

// wantNothingIssued fails the test unless refused requests left the
// credentials as they were, before of them, and created no account named
// username.
func (f *fixture) wantNothingIssued(before int, username string) {
	f.t.Helper()
	if after := len(must(f.svc.Tokens(f.ctx, f.admin))(f.t)); after != before {
		f.t.Errorf("%d credentials after the refusals, %d before", after, before)
	}
	_, err := f.svc.User(f.ctx, f.admin, username)
	wantCode(f.t, err, app.CodeNotFound)
}

// TestTokenValidation checks the requests no issuer may make.
func TestTokenValidation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "w2", Name: "W2"}))(t)
	f.person("alice", "")
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "helper", IsServiceAccount: true, AnswersTo: "alice"}))(t)
	f.person("bob", "")
	before := len(must(f.svc.Tokens(f.ctx, f.admin))(t))

	cases := []struct {
		name string
		in   app.TokenCreate
		loc  string
	}{
		{"an unknown scope", app.TokenCreate{Scopes: []string{app.PermItemRead, "item:fly"}}, "body.scopes"},
		{"a blank title", app.TokenCreate{Title: "   "}, "body.title"},
		{"writing outside the read scope", app.TokenCreate{ProjectScope: app.PatchOf([]string{"default/inbox"}),
			ProjectWriteScope: app.PatchOf([]string{"w2/inbox"})}, "body.project_write_scope"},
		{"an unknown project", app.TokenCreate{ProjectScope: app.PatchOf([]string{"default/nothing"})}, "body.project_scope"},
		{"a project key in two workspaces", app.TokenCreate{ProjectScope: app.PatchOf([]string{"inbox"})}, "body.project_scope"},
		{"a project outside the pin", app.TokenCreate{Workspace: app.PatchOf("default"), ProjectScope: app.PatchOf([]string{"w2/inbox"})},
			"body.project_scope"},
		{"answers_to for oneself", app.TokenCreate{AnswersTo: "admin"}, "body.answers_to"},
		{"a username that is none", app.TokenCreate{Username: "no spaces allowed"}, "body.username"},
		{"a new agent answering to an unknown account", app.TokenCreate{Username: "orphan", AnswersTo: "nobody"}, "body.answers_to"},
		{"an agent handed over by answers_to", app.TokenCreate{Username: "helper", AnswersTo: "bob"}, "body.answers_to"},
		{"a person made an agent by answers_to", app.TokenCreate{Username: "bob", AnswersTo: "alice"}, "body.answers_to"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateToken(f.ctx, f.admin, c.in)
			wantRefusal(t, err, app.CodeValidation, c.loc)
		})
	}
	t.Run("an unknown scope names the valid ones", func(t *testing.T) {
		_, err := f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Scopes: []string{"item:fly"}})
		wantCode(t, err, app.CodeValidation)
		if fs := app.AsError(err).Fields; len(fs) != 1 || !strings.Contains(fs[0].Msg, "item:fly") || !strings.Contains(fs[0].Msg, app.PermItemRead) {
			t.Errorf("%+v does not name the scope and the valid ones", fs)
		}
	})
	t.Run("every problem at once", func(t *testing.T) {
		_, err := f.svc.CreateToken(f.ctx, f.admin, app.TokenCreate{Scopes: []string{"nope"}, Username: "not a name"})
		wantCode(t, err, app.CodeValidation)
		wantField(t, err, "body.scopes")
		wantField(t, err, "body.username")
	})
	f.wantNothingIssued(before, "orphan")
}

// TestIssueLocalToken: a credential issued on the database file, with the
// authority of whoever can open it: for the oldest administrator when no
// account is named, creating a missing account in the oldest workspace (an
// agent as its person's agent), and keeping whom an account answers to.
func TestIssueLocalToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	f.agent("bot", "bob")

	wantUser := func(t *testing.T, in app.LocalToken, username string) app.Actor {
		t.Helper()
		a := f.login(must(f.svc.IssueLocalToken(f.ctx, in))(t).Secret)
		if a.User.Username != username {
			t.Errorf("issued for %s, want %s", a.User.Username, username)
		}
		return a
	}
	wantUser(t, app.LocalToken{}, "admin")
	wantUser(t, app.LocalToken{TokenCreate: app.TokenCreate{Username: "bob"}}, "bob")
	carol := wantUser(t, app.LocalToken{TokenCreate: app.TokenCreate{Username: "carol"}}, "carol")
	if ws := must(f.svc.Meta(f.ctx, carol, ""))(t).Workspace; ws == nil || ws.Slug != "default" || ws.Role != app.RoleMember {
		t.Errorf("carol joined %+v, want the default workspace as a member", ws)
	}
	helper := wantUser(t, app.LocalToken{TokenCreate: app.TokenCreate{Username: "helper"}, AgentOf: "carol"}, "helper")
	if !helper.User.IsServiceAccount || helper.User.AnswersTo != "carol" {
		t.Errorf("helper %+v, want a service account answering to carol", helper.User)
	}
	// Naming whom an existing agent already answers to is no change.
	wantUser(t, app.LocalToken{TokenCreate: app.TokenCreate{Username: "bot"}, AgentOf: "bob"}, "bot")

	wantRefused(t, []refused[app.LocalToken]{
		{"an agent without a username", app.Actor{}, app.LocalToken{AgentOf: "bob"}, app.CodeValidation, "body.username"},
		{"a malformed username", app.Actor{}, app.LocalToken{TokenCreate: app.TokenCreate{Username: "no spaces"}}, app.CodeValidation, "body.username"},
		{"an agent of nobody", app.Actor{}, app.LocalToken{TokenCreate: app.TokenCreate{Username: "orphan"}, AgentOf: "nobody"}, app.CodeValidation, ""},
		{"an existing agent, handed to somebody else", app.Actor{}, app.LocalToken{TokenCreate: app.TokenCreate{Username: "bot"}, AgentOf: "carol"}, app.CodeValidation, ""},
		{"no such workspace", app.Actor{}, app.LocalToken{TokenCreate: app.TokenCreate{Username: "dave", Workspace: app.PatchOf("nowhere")}}, app.CodeValidation, "body.workspace"},
	}, func(_ app.Actor, in app.LocalToken) error { return errOf(f.svc.IssueLocalToken(f.ctx, in)) })
}

// TestTokenFilterMatches: which credentials a listing or revocation
// reaches: all, an account's own and those it issued, or one credential
// and those it issued.
func TestTokenFilterMatches(t *testing.T) {
	own := app.Token{ID: "t1", UserID: "u1"}
	issued := app.Token{ID: "t2", UserID: "u2", IssuedByID: "u1", IssuedByTokenID: "t1"}
	other := app.Token{ID: "t3", UserID: "u2"}
	for _, c := range []struct {
		name string
		f    app.TokenFilter
		want [3]bool
	}{
		{"all", app.TokenFilter{All: true}, [3]bool{true, true, true}},
		{"an account", app.TokenFilter{UserID: "u1"}, [3]bool{true, true, false}},
		{"a credential", app.TokenFilter{TokenID: "t1"}, [3]bool{true, true, false}},
		{"nothing", app.TokenFilter{}, [3]bool{false, false, false}},
	} {
		for i, tok := range []app.Token{own, issued, other} {
			if got := c.f.Matches(tok); got != c.want[i] {
				t.Errorf("%s: matches %s = %v, want %v", c.name, tok.ID, got, c.want[i])
			}
		}
	}
}
