package app_test

import (
	"testing"
	"time"

	"tend/app"
)

// TestPeople lists a workspace's members with when each was last seen (the
// latest use of their sessions or credentials) to those who manage its
// members and to instance administrators; to anyone else the workspace's
// people answer as a workspace that does not exist.
func TestPeople(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	dave := f.person("dave", app.RoleAdmin)
	f.agent("bot", "admin")
	carol := f.person("carol", "")
	must(f.svc.CreateWorkspace(f.ctx, carol, app.WorkspaceCreate{Slug: "other", Name: "Carol's"}))(t)
	must(f.svc.CreateUser(f.ctx, f.admin, app.UserCreate{Username: "erin"}))(t)
	must(f.svc.AddMember(f.ctx, f.admin, "default", app.Join{Username: "erin", Role: app.RoleViewer}))(t)

	f.clock.Advance(2 * time.Hour)
	later := f.clock.Now()
	f.login(f.issue(app.TokenCreate{Username: "bob"}))

	seen := func(a app.Actor, ws string) map[string]*time.Time {
		t.Helper()
		out := map[string]*time.Time{}
		for _, p := range must(f.svc.People(f.ctx, a, ws))(t) {
			out[p.User.Username] = p.LastSeenAt
		}
		return out
	}
	for _, a := range []app.Actor{f.admin, dave} {
		got := seen(a, "default")
		if len(got) != 5 || got["carol"] != nil {
			t.Fatalf("people of default: %v", got)
		}
		if got["erin"] != nil || got["admin"] == nil || got["bot"] == nil {
			t.Fatalf("last seen: %v", got)
		}
		if b := got["bob"]; b == nil || !b.Equal(later) {
			t.Fatalf("bob last seen %v, want %v (his newest credential's first use)", b, later)
		}
	}
	if got := seen(f.admin, "other"); len(got) != 1 || got["carol"] == nil {
		t.Fatalf("an instance administrator's view of another workspace: %v", got)
	}
	wantCode(t, errOf(f.svc.People(f.ctx, bob, "default")), app.CodeNotFound)
	wantCode(t, errOf(f.svc.People(f.ctx, dave, "other")), app.CodeNotFound)
	wantCode(t, errOf(f.svc.People(f.ctx, carol, "default")), app.CodeNotFound)
}
