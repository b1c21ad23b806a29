package app_test

import (
	"testing"
	"time"

	"tend/app"
)

func TestInstanceUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)

	got := must(f.svc.UpdateInstance(f.ctx, f.admin, app.InstanceUpdate{Name: app.PatchOf("  Home  "), Timezone: app.PatchOf("Europe/Berlin")}))(t)
	if got.Name != "Home" || got.Timezone != "Europe/Berlin" {
		t.Errorf("instance %+v, want Home in Europe/Berlin", got)
	}
	// Any caller reads it; nothing changed changes nothing.
	if read := must(f.svc.Instance(f.ctx, bob))(t); read.Name != "Home" || !read.UpdatedAt.Equal(got.UpdatedAt) {
		t.Errorf("bob reads %+v", read)
	}
	must(f.svc.UpdateInstance(f.ctx, f.admin, app.InstanceUpdate{Name: app.PatchOf("Home")}))(t)

	wantRefused(t, []refused[app.InstanceUpdate]{
		{"an empty name", f.admin, app.InstanceUpdate{Name: app.PatchOf(" ")}, app.CodeValidation, "body.name"},
		{"an unknown timezone", f.admin, app.InstanceUpdate{Timezone: app.PatchOf("Mars/Olympus")}, app.CodeValidation, "body.timezone"},
		{"a workspace owner, not an administrator", bob, app.InstanceUpdate{Name: app.PatchOf("Mine")}, app.CodeForbidden, ""},
	}, func(a app.Actor, in app.InstanceUpdate) error { return errOf(f.svc.UpdateInstance(f.ctx, a, in)) })
	if read := must(f.svc.Instance(f.ctx, f.admin))(t); read.Name != "Home" {
		t.Errorf("a refused update renamed the instance to %q", read.Name)
	}
}

func TestInstanceWorkspaces(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "lab", Name: "Lab"}))(t)

	var slugs []string
	for _, w := range must(f.svc.InstanceWorkspaces(f.ctx, f.admin))(t) {
		slugs = append(slugs, w.Slug)
	}
	if !sameSet(slugs, []string{"default", "lab"}) {
		t.Errorf("workspaces %v, want default and lab", slugs)
	}
	_, err := f.svc.InstanceWorkspaces(f.ctx, bob)
	wantCode(t, err, app.CodeForbidden)
}

func TestRecordServing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if got := must(f.svc.Instance(f.ctx, f.admin))(t).Serving.URL(); got != "" {
		t.Errorf("a new instance serves at %q, want nowhere", got)
	}
	for _, c := range []struct {
		sv   app.Serving
		want string
	}{
		{app.Serving{Addr: "127.0.0.1:7070"}, "http://127.0.0.1:7070"},
		{app.Serving{Addr: "127.0.0.1:7070", PublicURL: "https://tend.example"}, "https://tend.example"},
		// The same again writes nothing and keeps it.
		{app.Serving{Addr: "127.0.0.1:7070", PublicURL: "https://tend.example"}, "https://tend.example"},
	} {
		wantCode(t, f.svc.RecordServing(f.ctx, c.sv), "")
		if got := must(f.svc.Instance(f.ctx, f.admin))(t).Serving.URL(); got != c.want {
			t.Errorf("after %+v the instance serves at %q, want %q", c.sv, got, c.want)
		}
	}
}

func TestServiceReady(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "test", PublicURL: "https://tend.example"})
	wantCode(t, f.svc.Ready(f.ctx), "")
	if got := f.svc.PublicURL(); got != "https://tend.example" {
		t.Errorf("public URL %q", got)
	}
	if got := f.svc.ReadRefusals(); got != (app.ReadRefusals{}) {
		t.Errorf("a new service counts refusals %+v", got)
	}
}

func TestAuthorizeMetrics(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)
	wantCode(t, f.svc.AuthorizeMetrics(f.ctx, f.admin), "")
	wantCode(t, f.svc.AuthorizeMetrics(f.ctx, bob), app.CodeForbidden)
}

func TestBackups(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleOwner)

	first := must(f.svc.TakeBackup(f.ctx, f.admin, nil))(t)
	if first.Name == "" || first.TakenFor != app.BackupRoutine || first.SizeBytes == 0 {
		t.Errorf("backup %+v", first)
	}
	wantRefused(t, []refused[*int]{
		{"keep 0", f.admin, ptr(0), app.CodeValidation, "body.keep"},
		{"not an administrator", bob, nil, app.CodeForbidden, ""},
		// Backup names are by the millisecond; the clock has not moved.
		{"a second in the same millisecond", f.admin, nil, app.CodeConflict, ""},
	}, func(a app.Actor, keep *int) error { return errOf(f.svc.TakeBackup(f.ctx, a, keep)) })

	f.clock.Advance(time.Second)
	must(f.svc.TakeBackup(f.ctx, f.admin, nil))(t)
	f.clock.Advance(time.Second)
	newest := must(f.svc.TakeBackup(f.ctx, f.admin, ptr(2)))(t)
	var names []string
	for _, b := range must(f.svc.Backups(f.ctx, f.admin))(t) {
		names = append(names, b.Name)
	}
	if len(names) != 2 || names[0] != newest.Name {
		t.Errorf("backups %v, want the newest two, %s first", names, newest.Name)
	}
	_, err := f.svc.Backups(f.ctx, bob)
	wantCode(t, err, app.CodeForbidden)
}

func TestMeta(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "v9", PublicURL: "https://tend.example"})
	bob := f.person("bob", app.RoleMember)
	loner := f.login(f.secretOf(app.UserCreate{Username: "loner"}))

	m := must(f.svc.Meta(f.ctx, bob, ""))(t)
	if m.Workspace == nil || m.Workspace.Slug != "default" || len(m.Statuses["task"]) == 0 || len(m.LinkTypes) == 0 ||
		m.InstanceVersion != "v9" || m.PublicURL != "https://tend.example" || m.VocabularyNotShown != "" {
		t.Errorf("bob's meta: workspace %v, %d task statuses, %d link types, version %q, URL %q, not shown %q",
			m.Workspace, len(m.Statuses["task"]), len(m.LinkTypes), m.InstanceVersion, m.PublicURL, m.VocabularyNotShown)
	}
	if m := must(f.svc.Meta(f.ctx, loner, ""))(t); m.Workspace != nil || m.VocabularyNotShown == "" || len(m.Workspaces) != 0 {
		t.Errorf("an account in no workspace: workspace %v, not shown %q", m.Workspace, m.VocabularyNotShown)
	}

	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "lab", Name: "Lab"}))(t)
	t.Run("several workspaces and none named", func(t *testing.T) {
		m := must(f.svc.Meta(f.ctx, f.admin, ""))(t)
		if m.Workspace != nil || m.VocabularyNotShown == "" || len(m.Workspaces) != 2 {
			t.Errorf("workspace %v, not shown %q, %d workspaces", m.Workspace, m.VocabularyNotShown, len(m.Workspaces))
		}
		if m := must(f.svc.Meta(f.ctx, f.admin, "lab"))(t); m.Workspace == nil || m.Workspace.Slug != "lab" {
			t.Errorf("named lab, got %v", m.Workspace)
		}
	})
	t.Run("a workspace the caller is not in", func(t *testing.T) {
		_, err := f.svc.Meta(f.ctx, bob, "lab")
		wantCode(t, err, app.CodeNotFound)
	})
}
