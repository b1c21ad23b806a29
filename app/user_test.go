package app_test

import (
	"slices"
	"strings"
	"testing"

	"tend/app"
)

func TestUserCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	// An administrator's credential that may create accounts but holds
	// no instance:admin.
	creator := f.login(f.issue(app.TokenCreate{Scopes: []string{app.PermUserCreate}}))
	f.person("alice", "")
	f.person("gone", "")
	must(f.svc.UpdateUser(f.ctx, f.admin, "gone", app.UserUpdate{Active: app.PatchOf(false)}))(t)

	t.Run("a person", func(t *testing.T) {
		u := must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "Zed", DisplayName: "Zed Z.", Email: "zed@example.com",
			Timezone: "Europe/Berlin"}))(t)
		if u.Username != "Zed" || u.DisplayName != "Zed Z." || u.Email != "zed@example.com" || u.Timezone != "Europe/Berlin" ||
			u.IsServiceAccount || u.IsSuperuser || !u.Active || u.AnswersTo != "" || u.Version != 1 {
			t.Errorf("got %+v", u)
		}
	})
	t.Run("agents answer to their person, through other agents", func(t *testing.T) {
		robo := must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "robo", IsServiceAccount: true, AnswersTo: "BOB"}))(t)
		if !robo.IsServiceAccount || robo.AnswersTo != "bob" || robo.Responsible != "bob" {
			t.Errorf("robo %+v", robo)
		}
		deep := must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "robo2", IsServiceAccount: true, AnswersTo: "robo"}))(t)
		if deep.AnswersTo != "robo" || deep.Responsible != "bob" {
			t.Errorf("robo2 %+v", deep)
		}
	})
	t.Run("an administrator made by an administrator", func(t *testing.T) {
		if u := must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "root2", IsSuperuser: true}))(t); !u.IsSuperuser {
			t.Errorf("got %+v", u)
		}
	})

	cases := []refused[app.UserCreate]{
		{"without instance:user_create", bob, app.UserCreate{Username: "mallory"}, app.CodeForbidden, ""},
		{"an administrator, without instance:admin", creator, app.UserCreate{Username: "root3", IsSuperuser: true}, app.CodeForbidden, ""},
		{"an empty username", f.admin, app.UserCreate{}, app.CodeValidation, "body.username"},
		{"a space in the username", f.admin, app.UserCreate{Username: "bad name"}, app.CodeValidation, "body.username"},
		{"a leading dot", f.admin, app.UserCreate{Username: ".hidden"}, app.CodeValidation, "body.username"},
		{"65 characters", f.admin, app.UserCreate{Username: strings.Repeat("a", 65)}, app.CodeValidation, "body.username"},
		{"reserved me", f.admin, app.UserCreate{Username: "me"}, app.CodeValidation, "body.username"},
		{"reserved ME", f.admin, app.UserCreate{Username: "ME"}, app.CodeValidation, "body.username"},
		{"reserved nobody", f.admin, app.UserCreate{Username: "nobody"}, app.CodeValidation, "body.username"},
		{"an unknown timezone", f.admin, app.UserCreate{Username: "zed2", Timezone: "Mars/Olympus_Mons"}, app.CodeValidation, "body.timezone"},
		{"the Local timezone", f.admin, app.UserCreate{Username: "zed2", Timezone: "Local"}, app.CodeValidation, "body.timezone"},
		{"an email without @", f.admin, app.UserCreate{Username: "zed2", Email: "zed.example.com"}, app.CodeValidation, "body.email"},
		{"an agent answering to nobody", f.admin, app.UserCreate{Username: "robo3", IsServiceAccount: true}, app.CodeValidation, "body.answers_to"},
		{"a person answering to somebody", f.admin, app.UserCreate{Username: "zed2", AnswersTo: "bob"}, app.CodeValidation, "body.answers_to"},
		{"an agent answering to an unknown account", f.admin, app.UserCreate{Username: "robo3", IsServiceAccount: true, AnswersTo: "ghost"},
			app.CodeValidation, "body.answers_to"},
		{"an administrator agent", f.admin, app.UserCreate{Username: "robo3", IsServiceAccount: true, AnswersTo: "bob", IsSuperuser: true},
			app.CodeValidation, "body.is_superuser"},
		{"an agent of a deactivated account", f.admin, app.UserCreate{Username: "orphan", IsServiceAccount: true, AnswersTo: "gone"},
			app.CodeAccountInactive, "body.answers_to"},
		{"a username taken", f.admin, app.UserCreate{Username: "alice"}, app.CodeConflict, ""},
		{"a username taken, in capitals", f.admin, app.UserCreate{Username: "ALICE"}, app.CodeConflict, ""},
		{"a username taken, capitalised", f.admin, app.UserCreate{Username: "Bob"}, app.CodeConflict, ""},
	}
	wantRefused(t, cases, func(a app.Actor, in app.UserCreate) error { return errOf(f.svc.CreateUser(f.ctx, a, in)) })
	t.Run("every problem at once", func(t *testing.T) {
		_, err := f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "me", Timezone: "Nowhere/Land"})
		wantCode(t, err, app.CodeValidation)
		wantField(t, err, "body.username")
		wantField(t, err, "body.timezone")
	})
	for _, name := range []string{"mallory", "root3", "orphan"} {
		_, err := f.svc.User(f.ctx, f.admin, name)
		wantCode(t, err, app.CodeNotFound)
	}
}

// TestUsers checks the directory: one account by name in any case, and
// the listing of the agents answerable to an account.
func TestUsers(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	for _, in := range []app.UserCreate{
		{Username: "Alice"},
		{Username: "a1", IsServiceAccount: true, AnswersTo: "alice"},
		{Username: "a2", IsServiceAccount: true, AnswersTo: "a1"},
		{Username: "b1", IsServiceAccount: true, AnswersTo: "bob"},
		{Username: "carol"},
		{Username: "a3", IsServiceAccount: true, AnswersTo: "alice"},
	} {
		must(f.svc.CreateUser(f.ctx, f.admin, in))(t)
	}
	for _, name := range []string{"alice", "ALICE", "aLiCe"} {
		if u := must(f.svc.User(f.ctx, bob, name))(t); u.Username != "Alice" {
			t.Errorf("%s reads as %+v", name, u)
		}
	}
	for _, name := range []string{"ghost", "me"} {
		_, err := f.svc.User(f.ctx, bob, name)
		wantCode(t, err, app.CodeNotFound)
	}

	names := func(q app.UserQuery) []string {
		t.Helper()
		var out []string
		for _, u := range must(f.svc.Users(f.ctx, bob, q))(t).Items {
			out = append(out, u.Username)
		}
		return out
	}
	for _, c := range []struct {
		answersTo string
		want      []string
	}{
		{"", []string{"admin", "bob", "Alice", "a1", "a2", "b1", "carol", "a3"}},
		{"alice", []string{"a1", "a2", "a3"}},
		{"BOB", []string{"b1"}},
		{"a1", []string{"a2"}},
		{"carol", nil},
	} {
		if got := names(app.UserQuery{AnswersTo: c.answersTo}); !slices.Equal(got, c.want) {
			t.Errorf("answering to %q: %v, want %v", c.answersTo, got, c.want)
		}
	}

	first := must(f.svc.Users(f.ctx, bob, app.UserQuery{AnswersTo: "alice", Limit: 1}))(t)
	if got := names(app.UserQuery{AnswersTo: "alice", Limit: 1, Cursor: first.Page.NextCursor}); !slices.Equal(got, []string{"a2"}) {
		t.Errorf("second page %v", got)
	}
	cases := []struct {
		name string
		q    app.UserQuery
		loc  string
	}{
		{"answering to an unknown account", app.UserQuery{AnswersTo: "ghost"}, "query.answers_to"},
		{"a negative limit", app.UserQuery{Limit: -1}, "query.limit"},
		{"a cursor without its filter", app.UserQuery{Cursor: first.Page.NextCursor}, "query.cursor"},
		{"a cursor of another filter", app.UserQuery{AnswersTo: "bob", Cursor: first.Page.NextCursor}, "query.cursor"},
		{"a cursor of an agent's filter", app.UserQuery{AnswersTo: "a1", Cursor: first.Page.NextCursor}, "query.cursor"},
	}
	for _, garbage := range []string{"garbage", "!!!", "eyJsIjoidXNlcnMifQ", "bnVsbA", "W10", strings.Repeat("A", 400)} {
		cases = append(cases, struct {
			name string
			q    app.UserQuery
			loc  string
		}{"the cursor " + garbage[:min(len(garbage), 20)], app.UserQuery{Cursor: garbage}, "query.cursor"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.Users(f.ctx, bob, c.q)
			wantRefusal(t, err, app.CodeValidation, c.loc)
		})
	}
}

func TestUserUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	alice := f.person("alice", "")
	bob := f.person("bob", "")
	f.person("carol", "")
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "robo", IsServiceAccount: true, AnswersTo: "alice"}))(t)
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "robo2", IsServiceAccount: true, AnswersTo: "robo"}))(t)
	must(f.svc.UpdateUser(f.ctx, f.admin, "carol", app.UserUpdate{Active: app.PatchOf(false)}))(t)

	t.Run("one's own timezone and name", func(t *testing.T) {
		u := must(f.svc.UpdateUser(f.ctx, alice, "ALICE", app.UserUpdate{Timezone: app.PatchOf("Europe/Berlin")}))(t)
		if u.Timezone != "Europe/Berlin" || u.Version != 2 {
			t.Errorf("got %+v", u)
		}
		must(f.svc.UpdateUser(f.ctx, f.admin, "admin", app.UserUpdate{Timezone: app.PatchOf("America/New_York")}))(t)
		must(f.svc.UpdateUser(f.ctx, alice, "alice", app.UserUpdate{DisplayName: app.PatchOf("Alice L.")}))(t)
		if u := must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{DisplayName: app.PatchOf("Alice M.")}))(t); u.DisplayName != "Alice M." {
			t.Errorf("an administrator renames: %+v", u)
		}
	})

	null := func() app.Patch[bool] { return app.Patch[bool]{Set: true, Null: true} }
	cases := []struct {
		name     string
		a        app.Actor
		username string
		in       app.UserUpdate
		code     app.Code
		loc      string
	}{
		{"somebody else's timezone, as the administrator", f.admin, "alice", app.UserUpdate{Timezone: app.PatchOf("Asia/Tokyo")},
			app.CodeTimezoneNotOwn, ""},
		{"somebody else's timezone", bob, "alice", app.UserUpdate{Timezone: app.PatchOf("Asia/Tokyo")}, app.CodeTimezoneNotOwn, ""},
		{"an unknown timezone", alice, "alice", app.UserUpdate{Timezone: app.PatchOf("Europe/Atlantis")}, app.CodeValidation, "body.timezone"},
		{"somebody else's name", bob, "alice", app.UserUpdate{DisplayName: app.PatchOf("Mallory")}, app.CodeForbidden, ""},
		{"an unknown account", f.admin, "ghost", app.UserUpdate{DisplayName: app.PatchOf("Ghost")}, app.CodeNotFound, ""},
		{"deactivating somebody else", bob, "alice", app.UserUpdate{Active: app.PatchOf(false)}, app.CodeForbidden, ""},
		{"deactivating oneself", bob, "bob", app.UserUpdate{Active: app.PatchOf(false)}, app.CodeForbidden, ""},
		{"reactivating somebody", bob, "carol", app.UserUpdate{Active: app.PatchOf(true)}, app.CodeForbidden, ""},
		{"active null", f.admin, "alice", app.UserUpdate{Active: null()}, app.CodeValidation, "body.active"},
		{"is_superuser null", f.admin, "alice", app.UserUpdate{IsSuperuser: null()}, app.CodeValidation, "body.is_superuser"},
		{"the last administrator leaves", f.admin, "admin", app.UserUpdate{Active: app.PatchOf(false)}, app.CodeLastAdministrator, ""},
		{"the last administrator steps down", f.admin, "admin", app.UserUpdate{IsSuperuser: app.PatchOf(false)}, app.CodeLastAdministrator, ""},
		{"promoting oneself", alice, "alice", app.UserUpdate{IsSuperuser: app.PatchOf(true)}, app.CodeForbidden, ""},
		{"an administrator agent", f.admin, "robo", app.UserUpdate{IsSuperuser: app.PatchOf(true)}, app.CodeValidation, "body.is_superuser"},
		{"handing over one's own agent", alice, "robo", app.UserUpdate{AnswersTo: app.PatchOf("bob")}, app.CodeForbidden, ""},
		{"taking over somebody's agent", bob, "robo", app.UserUpdate{AnswersTo: app.PatchOf("bob")}, app.CodeForbidden, ""},
		{"an agent to its own agent", f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("robo2")}, app.CodeCycle, "body.answers_to"},
		{"an agent to itself", f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("robo")}, app.CodeCycle, "body.answers_to"},
		{"a person's agents to an agent below that person", f.admin, "alice", app.UserUpdate{AnswersTo: app.PatchOf("robo2")},
			app.CodeCycle, "body.answers_to"},
		{"to a deactivated account", f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("carol")}, app.CodeAccountInactive, "body.answers_to"},
		{"to an unknown account", f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("ghost")}, app.CodeValidation, "body.answers_to"},
		{"to nobody", f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("")}, app.CodeValidation, "body.answers_to"},
		{"to null", f.admin, "robo", app.UserUpdate{AnswersTo: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.answers_to"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.UpdateUser(f.ctx, c.a, c.username, c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}
	if u := must(f.svc.User(f.ctx, bob, "robo"))(t); u.AnswersTo != "alice" {
		t.Errorf("a refused handover changed robo: %+v", u)
	}
}

// TestUserHandover checks that a handover moves the chain under it and
// that one change may hand a person's agents on and deactivate the person.
func TestUserHandover(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	aliceSecret := f.secretOf(app.UserCreate{Username: "alice"})
	roboSecret := f.secretOf(app.UserCreate{Username: "robo", IsServiceAccount: true, AnswersTo: "alice"})
	robo2Secret := f.secretOf(app.UserCreate{Username: "robo2", IsServiceAccount: true, AnswersTo: "robo"})
	agentsOf := func(boss string) []string {
		t.Helper()
		var out []string
		for _, u := range must(f.svc.Users(f.ctx, bob, app.UserQuery{AnswersTo: boss}))(t).Items {
			out = append(out, u.Username)
		}
		return out
	}

	u := must(f.svc.UpdateUser(f.ctx, f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("BOB")}))(t)
	if u.AnswersTo != "bob" || u.Responsible != "bob" {
		t.Errorf("handed over: %+v", u)
	}
	if got := agentsOf("bob"); !slices.Equal(got, []string{"robo", "robo2"}) || len(agentsOf("alice")) != 0 {
		t.Errorf("bob's agents %v, alice's %v", got, agentsOf("alice"))
	}
	if u := must(f.svc.User(f.ctx, bob, "robo2"))(t); u.Responsible != "bob" {
		t.Errorf("robo2 %+v", u)
	}
	must(f.svc.UpdateUser(f.ctx, f.admin, "robo", app.UserUpdate{AnswersTo: app.PatchOf("alice")}))(t)

	// Alice leaves; her agent moves to bob first, so it keeps working.
	u = must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{Active: app.PatchOf(false), AnswersTo: app.PatchOf("bob")}))(t)
	if u.Active || u.DeactivatedAt == nil {
		t.Errorf("alice after leaving: %+v", u)
	}
	if got := agentsOf("bob"); !slices.Equal(got, []string{"robo", "robo2"}) {
		t.Errorf("bob's agents %v", got)
	}
	_, err := f.svc.Authenticate(f.ctx, aliceSecret, "test")
	wantCode(t, err, app.CodeUnauthorized)
	f.login(roboSecret)
	f.login(robo2Secret)

	// An agent handed over and stopped at once.
	u = must(f.svc.UpdateUser(f.ctx, f.admin, "robo2", app.UserUpdate{AnswersTo: app.PatchOf("admin"), Active: app.PatchOf(false)}))(t)
	if u.AnswersTo != "admin" || u.Active {
		t.Errorf("robo2 %+v", u)
	}
	_, err = f.svc.Authenticate(f.ctx, robo2Secret, "test")
	wantCode(t, err, app.CodeUnauthorized)
}

// TestUserDeactivate checks that a deactivated account and every agent
// answerable to it stop at once, stay in the directory, and work again
// when reactivated.
func TestUserDeactivate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", "")
	aliceSecret := f.secretOf(app.UserCreate{Username: "alice"})
	roboSecret := f.secretOf(app.UserCreate{Username: "robo", IsServiceAccount: true, AnswersTo: "alice"})

	u := must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{Active: app.PatchOf(false)}))(t)
	if u.Active || u.DeactivatedAt == nil {
		t.Errorf("deactivated: %+v", u)
	}
	for _, secret := range []string{aliceSecret, roboSecret} {
		_, err := f.svc.Authenticate(f.ctx, secret, "test")
		wantCode(t, err, app.CodeUnauthorized)
	}
	if u := must(f.svc.User(f.ctx, bob, "alice"))(t); u.Active {
		t.Errorf("the directory shows %+v", u)
	}
	// Deactivating again changes nothing and is not an error.
	must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{Active: app.PatchOf(false)}))(t)

	u = must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{Active: app.PatchOf(true)}))(t)
	if !u.Active || u.DeactivatedAt != nil {
		t.Errorf("reactivated: %+v", u)
	}
	f.login(aliceSecret)
	f.login(roboSecret)
}

// TestUserLastAdministrator checks that the instance keeps one active
// administrator: with two, either may go, and the one left cannot.
func TestUserLastAdministrator(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	secret := f.secretOf(app.UserCreate{Username: "alice"})
	if u := must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{IsSuperuser: app.PatchOf(true)}))(t); !u.IsSuperuser {
		t.Fatalf("promoted: %+v", u)
	}
	alice := f.login(secret)
	if me := must(f.svc.Me(f.ctx, alice))(t); !slices.Contains(me.InstancePermissions, app.PermUserCreate) {
		t.Errorf("an administrator holds %s: %v", app.PermUserCreate, me.InstancePermissions)
	}
	must(f.svc.UpdateUser(f.ctx, alice, "admin", app.UserUpdate{Active: app.PatchOf(false)}))(t)
	_, err := f.svc.UpdateUser(f.ctx, alice, "alice", app.UserUpdate{Active: app.PatchOf(false)})
	wantCode(t, err, app.CodeLastAdministrator)
	_, err = f.svc.UpdateUser(f.ctx, alice, "alice", app.UserUpdate{IsSuperuser: app.PatchOf(false)})
	wantCode(t, err, app.CodeLastAdministrator)
}
