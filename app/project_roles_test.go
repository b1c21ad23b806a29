package app_test

import (
	"slices"
	"testing"

	"tend/app"
)

// TestProjectRoleHolders: who holds a role of a project's own, by
// username, as anyone who may see the project reads it; a role taken away
// or kept by someone who left the workspace is not listed; a project the
// caller may not see answers as one that does not exist.
func TestProjectRoleHolders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	vera := f.person("vera", app.RoleViewer)
	f.person("cy", app.RoleMember)
	f.person("dan", app.RoleMember)
	web := f.project(f.admin, app.ProjectCreate{Key: "web"})
	f.projects(app.ProjectCreate{Key: "secret", Visibility: "private"}, app.ProjectCreate{Key: "gone"})

	type held struct{ user, role string }
	holders := func(t *testing.T, a app.Actor, key string) []held {
		t.Helper()
		got := must(f.svc.ProjectRoleHolders(f.ctx, a, "", key))(t)
		out := []held{}
		for _, h := range got {
			if h.ProjectKey != key && h.ProjectKey != web.Key {
				t.Errorf("a holder of %s answered for project %q", key, h.ProjectKey)
			}
			out = append(out, held{h.User.Username, h.Role})
		}
		return out
	}
	same := func(t *testing.T, got []held, want ...held) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("holders %v, want %v", got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("holders %v, want %v", got, want)
			}
		}
	}

	same(t, holders(t, f.admin, "web"))
	for _, g := range []held{{"cy", app.RoleViewer}, {"bob", app.RoleAdmin}, {"dan", app.RoleViewer}} {
		must(f.svc.SetProjectRole(f.ctx, f.admin, "", "web", g.user, app.ProjectRoleGrant{Role: g.role}))(t)
	}
	must(f.svc.SetProjectRole(f.ctx, f.admin, "", "secret", "cy", app.ProjectRoleGrant{Role: app.RoleViewer}))(t)
	want := []held{{"bob", app.RoleAdmin}, {"cy", app.RoleViewer}, {"dan", app.RoleViewer}}
	t.Run("by username, to whoever sees the project", func(t *testing.T) {
		same(t, holders(t, f.admin, "web"), want...)
		same(t, holders(t, vera, "web"), want...)
		same(t, holders(t, vera, web.ID), want...)
		same(t, holders(t, bob, "web"), want...)
	})
	t.Run("a role changed, taken away, or kept by one who left", func(t *testing.T) {
		must(f.svc.SetProjectRole(f.ctx, f.admin, "", "web", "bob", app.ProjectRoleGrant{Role: app.RoleMember}))(t)
		if err := f.svc.RemoveProjectRole(f.ctx, f.admin, "", "web", "cy"); err != nil {
			t.Fatal(err)
		}
		if err := f.svc.RemoveMember(f.ctx, f.admin, "default", "dan"); err != nil {
			t.Fatal(err)
		}
		same(t, holders(t, vera, "web"), held{"bob", app.RoleMember})
	})
	t.Run("what the caller may not see does not exist", func(t *testing.T) {
		must(f.svc.DeleteProject(f.ctx, f.admin, "", "gone"))(t)
		for _, c := range []struct {
			name string
			a    app.Actor
			key  string
		}{{"a private project not shared with bob", bob, "secret"}, {"nor with vera", vera, "secret"},
			{"a project in the trash", f.admin, "gone"}, {"no such project", bob, "nope"}} {
			t.Run(c.name, func(t *testing.T) {
				_, err := f.svc.ProjectRoleHolders(f.ctx, c.a, "", c.key)
				wantCode(t, err, app.CodeNotFound)
			})
		}
		same(t, holders(t, f.admin, "secret"), held{"cy", app.RoleViewer})
	})
}

// TestSkipOccurrence: skipping answers the next occurrence it brought, as
// completing does, for a page to go on to; a second skip, or the last
// occurrence of a series, brings none.
func TestSkipOccurrence(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	first := f.task(f.admin, app.TaskCreate{Title: "Gym", Repeat: "every wednesday for 2 times"})
	c := must(f.svc.SkipOccurrence(f.ctx, f.admin, "", ref(first.Ref)))(t)
	if c.Task.Ref != first.Ref || c.Task.Status.Category != app.CategoryCancelled || c.Next == nil {
		t.Fatalf("skipped %+v, next %v", c.Task.Status, c.Next)
	}
	if c.Next.SeriesID != first.SeriesID || c.Next.Occurrence != 2 || c.Next.IsComplete() || c.Next.Ref == first.Ref {
		t.Errorf("next: %+v", *c.Next)
	}
	if again := must(f.svc.SkipOccurrence(f.ctx, f.admin, "", ref(first.Ref)))(t); again.Next != nil || again.Task.Version != c.Task.Version {
		t.Errorf("a second skip: next %v, version %d (was %d)", again.Next, again.Task.Version, c.Task.Version)
	}
	if last := must(f.svc.SkipOccurrence(f.ctx, f.admin, "", ref(c.Next.Ref)))(t); last.Next != nil {
		t.Errorf("skipping the last of two brought #%d", last.Next.Ref)
	}
	plain := f.task(f.admin, app.TaskCreate{Title: "once"})
	_, err := f.svc.SkipOccurrence(f.ctx, f.admin, "", ref(plain.Ref))
	wantCode(t, err, app.CodeNotRepeating)
}

// TestProjectRolesHeld: the projects where the caller holds a role of the
// project's own, in every workspace it reaches, with what the role allows.
func TestProjectRolesHeld(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleViewer)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"}, app.ProjectCreate{Key: "api"})
	if got := must(f.svc.ProjectRolesHeld(f.ctx, bob))(t); len(got) != 0 {
		t.Fatalf("bob holds %+v before any grant", got)
	}
	must(f.svc.SetProjectRole(f.ctx, f.admin, "", "ui", "bob", app.ProjectRoleGrant{Role: app.RoleAdmin}))(t)

	got := must(f.svc.ProjectRolesHeld(f.ctx, bob))(t)
	if len(got) != 1 || got[0].Address != "default/web/ui" || got[0].Role != app.RoleAdmin || !slices.Contains(got[0].Permissions, app.PermItemWrite) {
		t.Errorf("bob holds %+v, want admin of default/web/ui, able to write items", got)
	}
	if got := must(f.svc.ProjectRolesHeld(f.ctx, f.admin))(t); len(got) != 0 {
		t.Errorf("the administrator holds %+v, roles of no project's own", got)
	}
}
