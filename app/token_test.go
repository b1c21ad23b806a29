package app_test

import (
	"slices"
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
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	f.project(f.admin, app.ProjectCreate{Key: "ui", Parent: "web"})
	f.project(f.admin, app.ProjectCreate{Key: "api"})
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
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
	cases := []struct {
		name string
		a    app.Actor
		in   app.TokenCreate
		code app.Code
		loc  string
	}{
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
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateToken(f.ctx, c.a, c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}
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
