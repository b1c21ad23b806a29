package app_test

import (
	"database/sql"
	"fmt"
	"testing"

	"tend/app"
)

// agentChain creates agents bot1 … botN, bot1 answering to person, each
// next to the one before, and answers the deepest's name.
func (f *fixture) agentChain(person string, n int) string {
	f.t.Helper()
	boss := person
	for i := 1; i <= n; i++ {
		name := fmt.Sprint("bot", i)
		must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: name, IsServiceAccount: true, AnswersTo: boss}))(f.t)
		boss = name
	}
	return boss
}

// TestLocalActorChain: the command line acting as an agent 64, 65 and
// (without -short) 200 below a person works while the person is active and is refused
// once the person is deactivated, as the agent's credential is (the walk
// up the chain stopped at 64, issue 32 §3). An agent whose chain loops
// (put in place in SQL: the API refuses it) has nobody to answer for it
// and is refused too.
func TestLocalActorChain(t *testing.T) {
	t.Parallel()
	depths := []int{64, 65, 200}
	if testing.Short() {
		// The walk stopped at 64: 65 is past it, 200 only longer.
		depths = depths[:2]
	}
	for _, depth := range depths {
		t.Run(fmt.Sprint(depth, " deep"), func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "alice"}))(t)
			deepest := f.agentChain("alice", depth)
			if s := must(f.svc.LocalActor(f.ctx, deepest))(t); s.Actor.User.Username != deepest {
				t.Fatalf("acting as %s, want %s", s.Actor.User.Username, deepest)
			}
			must(f.svc.UpdateUser(f.ctx, f.admin, "alice", app.UserUpdate{Active: app.PatchOf(false)}))(t)
			_, err := f.svc.LocalActor(f.ctx, deepest)
			wantCode(t, err, app.CodeAccountInactive)
		})
	}
	t.Run("a chain that loops", func(t *testing.T) {
		t.Parallel()
		db, _ := seeded.Open(t)
		f := &fixture{t: t, ctx: t.Context(), svc: app.New(db, app.Options{Version: "test"})}
		f.admin = f.login(adminSecret)
		must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "alice"}))(t)
		f.agentChain("alice", 3)
		must(f.svc.LocalActor(f.ctx, "bot3"))(t)
		raw, err := sql.Open("sqlite", db.Path())
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		if _, err := raw.Exec(`UPDATE users SET answers_to = (SELECT id FROM users WHERE username = 'bot3') WHERE username = 'bot1'`); err != nil {
			t.Fatal(err)
		}
		_, err = f.svc.LocalActor(f.ctx, "bot3")
		wantCode(t, err, app.CodeAccountInactive)
	})
}
