package app_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"tend/app"
)

// userCount is how many accounts the instance has.
func (f *fixture) userCount() int {
	f.t.Helper()
	p := must(f.svc.Users(f.ctx, f.admin, app.UserQuery{IncludeTotal: true}))(f.t)
	return *p.Page.Total
}

func (f *fixture) invite(in app.InviteCreate) app.IssuedInvite {
	f.t.Helper()
	return must(f.svc.CreateInvite(f.ctx, f.admin, "default", in))(f.t)
}

func TestInviteCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	owner := f.person("olga", app.RoleOwner)
	admin := f.person("ada", app.RoleAdmin)
	member := f.person("max", app.RoleMember)
	outsider := f.person("out", "")

	i := must(f.svc.CreateInvite(f.ctx, admin, "default", app.InviteCreate{Role: app.RoleMember, Note: "welcome"}))(t)
	if i.Secret == "" || i.MaxUses != 1 || i.Uses != 0 || !i.ExpiresAt.Equal(f.clock.Now().Add(app.InviteDefaultLifetime)) ||
		i.CreatedBy != "ada" || i.WorkspaceSlug != "default" {
		t.Errorf("invite %+v", i.Invite)
	}
	if got := must(f.svc.CreateInvite(f.ctx, owner, "default", app.InviteCreate{Role: app.RoleOwner, MaxUses: 100, ExpiresIn: "30d"}))(t); !got.ExpiresAt.Equal(f.clock.Now().Add(app.InviteMaxLifetime)) {
		t.Errorf("a 30-day invite expires at %v", got.ExpiresAt)
	}
	wantRefused(t, []refused[app.InviteCreate]{
		{"a member", member, app.InviteCreate{Role: app.RoleMember}, app.CodeForbidden, ""},
		{"no member of the workspace", outsider, app.InviteCreate{Role: app.RoleMember}, app.CodeNotFound, ""},
		{"a role above the admin's", admin, app.InviteCreate{Role: app.RoleOwner}, app.CodeForbidden, "body.role"},
		{"no such role", admin, app.InviteCreate{Role: "boss"}, app.CodeValidation, "body.role"},
		{"no role", admin, app.InviteCreate{}, app.CodeValidation, "body.role"},
		{"more than 30 days", admin, app.InviteCreate{Role: app.RoleMember, ExpiresIn: "31d"}, app.CodeValidation, "body.expires_in"},
		{"721 hours", admin, app.InviteCreate{Role: app.RoleMember, ExpiresIn: "721h"}, app.CodeValidation, "body.expires_in"},
		{"an expiry without a unit", admin, app.InviteCreate{Role: app.RoleMember, ExpiresIn: "7"}, app.CodeValidation, "body.expires_in"},
		{"a zero expiry", admin, app.InviteCreate{Role: app.RoleMember, ExpiresIn: "0d"}, app.CodeValidation, "body.expires_in"},
		{"101 uses", admin, app.InviteCreate{Role: app.RoleMember, MaxUses: 101}, app.CodeValidation, "body.max_uses"},
		{"negative uses", admin, app.InviteCreate{Role: app.RoleMember, MaxUses: -1}, app.CodeValidation, "body.max_uses"},
	}, func(a app.Actor, in app.InviteCreate) error {
		return errOf(f.svc.CreateInvite(f.ctx, a, "default", in))
	})
	// A member sees the workspace, so is told no; the list and revoking
	// answer the same.
	wantCode(t, errOf(f.svc.Invites(f.ctx, member, "default")), app.CodeForbidden)
	wantCode(t, errOf(f.svc.Invites(f.ctx, outsider, "default")), app.CodeNotFound)
	wantCode(t, f.svc.RevokeInvite(f.ctx, member, "default", i.ID), app.CodeForbidden)
	wantCode(t, f.svc.RevokeInvite(f.ctx, admin, "default", "no-such-id"), app.CodeNotFound)
	if got := must(f.svc.Invites(f.ctx, admin, "default"))(t); len(got) != 2 || got[1].ID != i.ID || got[1].Note != "welcome" {
		t.Errorf("invites %+v", got)
	}
}

func TestInviteCreateRateLimited(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var err error
	for n := 0; err == nil && n < 100; n++ {
		_, err = f.svc.CreateInvite(f.ctx, f.admin, "default", app.InviteCreate{Role: app.RoleMember})
	}
	if e := app.AsError(err); e.Code != app.CodeTooManyAttempts || e.RetryAfter <= 0 {
		t.Fatalf("after many invites: %v", err)
	}
	f.clock.Advance(time.Hour)
	must(f.svc.CreateInvite(f.ctx, f.admin, "default", app.InviteCreate{Role: app.RoleMember}))(t)
}

func TestRedeemInvite(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("taken", app.RoleMember)
	i := f.invite(app.InviteCreate{Role: app.RoleAdmin, MaxUses: 2, Note: "hi"})
	client := app.SessionClient{UserAgent: "Test/1", Address: "192.0.2.1"}

	info := must(f.svc.InviteInfo(f.ctx, i.Secret))(t)
	if info.State != app.InviteUsable || info.Role != app.RoleAdmin || info.Note != "hi" || info.WorkspaceSlug != "default" || info.Timezone == "" {
		t.Errorf("info %+v", info)
	}
	users := f.userCount()
	wantRefused(t, []refused[app.InviteRedeem]{
		{"a taken username", app.Actor{}, app.InviteRedeem{Secret: i.Secret, Username: "TAKEN", Timezone: "UTC"}, app.CodeUsernameTaken, "body.username"},
		{"an invalid username", app.Actor{}, app.InviteRedeem{Secret: i.Secret, Username: "no spaces", Timezone: "UTC"}, app.CodeValidation, "body.username"},
		{"a reserved username", app.Actor{}, app.InviteRedeem{Secret: i.Secret, Username: "me", Timezone: "UTC"}, app.CodeValidation, "body.username"},
		{"no timezone", app.Actor{}, app.InviteRedeem{Secret: i.Secret, Username: "zoe"}, app.CodeValidation, "body.timezone"},
		{"an unknown timezone", app.Actor{}, app.InviteRedeem{Secret: i.Secret, Username: "zoe", Timezone: "Mars/Olympus"}, app.CodeValidation, "body.timezone"},
		{"an unknown secret", app.Actor{}, app.InviteRedeem{Secret: unknownSecret, Username: "zoe", Timezone: "UTC"}, app.CodeInviteUnusable, ""},
		{"no secret", app.Actor{}, app.InviteRedeem{Username: "zoe", Timezone: "UTC"}, app.CodeInviteUnusable, ""},
	}, func(_ app.Actor, in app.InviteRedeem) error {
		return errOf(f.svc.RedeemInvite(f.ctx, in, client))
	})
	if got := f.userCount(); got != users {
		t.Fatalf("refused redemptions made %d accounts", got-users)
	}

	j := must(f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: i.Secret, Username: "zoe", Timezone: "Europe/Berlin"}, client))(t)
	if j.User.Username != "zoe" || j.User.IsServiceAccount || j.User.Timezone != "Europe/Berlin" || j.Role != app.RoleAdmin || j.Session.Secret == "" {
		t.Errorf("joined %+v", j)
	}
	zoe := must(f.svc.AuthenticateSession(f.ctx, j.Session.Secret, "web"))(t)
	if ws := must(f.svc.Workspace(f.ctx, zoe, "default"))(t); ws.Role != app.RoleAdmin {
		t.Errorf("zoe's role is %q", ws.Role)
	}
	got := must(f.svc.Invites(f.ctx, f.admin, "default"))(t)
	if len(got) != 1 || got[0].Uses != 1 || len(got[0].UsedBy) != 1 || got[0].UsedBy[0].Username != "zoe" {
		t.Errorf("after one use: %+v", got)
	}
	if info := must(f.svc.InviteInfo(f.ctx, unknownSecret))(t); info.State != app.InviteUnknown || info.Why == "" || info.WorkspaceName != "" {
		t.Errorf("unknown invite %+v", info)
	}
}

// TestInviteUnusable: an expired, revoked or used-up invite says which,
// and redeeming it changes nothing.
func TestInviteUnusable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	client := app.SessionClient{Address: "192.0.2.1"}
	usedUp := f.invite(app.InviteCreate{Role: app.RoleMember})
	must(f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: usedUp.Secret, Username: "first", Timezone: "UTC"}, client))(t)
	revoked := f.invite(app.InviteCreate{Role: app.RoleMember})
	if err := f.svc.RevokeInvite(f.ctx, f.admin, "default", revoked.ID); err != nil {
		t.Fatal(err)
	}
	expired := f.invite(app.InviteCreate{Role: app.RoleMember, ExpiresIn: "1h"})
	f.clock.Advance(time.Hour)

	users := f.userCount()
	for state, secret := range map[string]string{app.InviteUsedUp: usedUp.Secret, app.InviteRevoked: revoked.Secret, app.InviteExpired: expired.Secret} {
		if info := must(f.svc.InviteInfo(f.ctx, secret))(t); info.State != state || info.Why == "" {
			t.Errorf("%s: info %+v", state, info)
		}
		wantCode(t, errOf(f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: secret, Username: "late", Timezone: "UTC"}, client)), app.CodeInviteUnusable)
	}
	if got := f.userCount(); got != users {
		t.Errorf("unusable invites made %d accounts", got-users)
	}
	if _, err := f.svc.User(f.ctx, f.admin, "late"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("late exists: %v", err)
	}
}

// TestRedeemInviteConcurrently: of 16 redemptions at once, exactly as many
// as the invite allows succeed, and the rest change nothing.
func TestRedeemInviteConcurrently(t *testing.T) {
	t.Parallel()
	for _, uses := range []int{1, 3} {
		t.Run(fmt.Sprint(uses), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t).on(t)
			i := f.invite(app.InviteCreate{Role: app.RoleMember, MaxUses: uses})
			users := f.userCount()
			var wg sync.WaitGroup
			errs := make([]error, 16)
			for n := range errs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[n] = f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: i.Secret, Username: fmt.Sprintf("p%d", n), Timezone: "UTC"},
						app.SessionClient{Address: fmt.Sprintf("192.0.2.%d", n)})
				}()
			}
			wg.Wait()
			ok := 0
			for _, err := range errs {
				if err == nil {
					ok++
				} else if app.CodeOf(err) != app.CodeInviteUnusable {
					t.Errorf("a redemption failed with %v", err)
				}
			}
			if ok != uses {
				t.Errorf("%d of 16 redemptions succeeded, want %d", ok, uses)
			}
			if got := f.userCount() - users; got != uses {
				t.Errorf("%d accounts made, want %d", got, uses)
			}
			if got := must(f.svc.Invites(f.ctx, f.admin, "default"))(t); got[0].Uses != uses || len(got[0].UsedBy) != uses {
				t.Errorf("invite counts %d uses by %d people", got[0].Uses, len(got[0].UsedBy))
			}
		})
	}
}

func TestRedeemInviteRateLimited(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	client := app.SessionClient{Address: "192.0.2.9"}
	var err error
	for n := 0; err == nil || app.CodeOf(err) == app.CodeInviteUnusable; n++ {
		if n > 1000 {
			t.Fatal("redemptions are not bounded")
		}
		_, err = f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: unknownSecret, Username: "guess", Timezone: "UTC"}, client)
	}
	if e := app.AsError(err); e.Code != app.CodeTooManyAttempts || e.RetryAfter <= 0 {
		t.Fatalf("after many guesses: %v", err)
	}
	// Another address is not held back, and waiting frees this one.
	i := f.invite(app.InviteCreate{Role: app.RoleMember})
	must(f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: i.Secret, Username: "other", Timezone: "UTC"}, app.SessionClient{Address: "192.0.2.10"}))(t)
	f.clock.Advance(app.AsError(err).RetryAfter)
	wantCode(t, errOf(f.svc.RedeemInvite(f.ctx, app.InviteRedeem{Secret: unknownSecret, Username: "guess", Timezone: "UTC"}, client)), app.CodeInviteUnusable)
}

func TestUsernameAvailable(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("taken", app.RoleMember)
	i := f.invite(app.InviteCreate{Role: app.RoleMember})
	for name, want := range map[string]bool{"free": true, "Taken": false, "no spaces": false, "me": false, "admin": false} {
		got := must(f.svc.UsernameAvailable(f.ctx, i.Secret, name, "192.0.2.1"))(t)
		if got.Available != want || (got.Reason == "") == !want || got.Username != name {
			t.Errorf("%q: %+v", name, got)
		}
	}
	// Without a usable invite, nothing is told of who has an account.
	wantCode(t, errOf(f.svc.UsernameAvailable(f.ctx, unknownSecret, "taken", "192.0.2.3")), app.CodeInviteUnusable)
	var err error
	for n := 0; err == nil; n++ {
		if n > 10000 {
			t.Fatal("username checks are not bounded")
		}
		_, err = f.svc.UsernameAvailable(f.ctx, i.Secret, "free", "192.0.2.2")
	}
	wantCode(t, err, app.CodeTooManyAttempts)
}
