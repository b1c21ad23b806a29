package app_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"tend/app"
)

func TestProjectCreate(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "test", Limits: app.Limits{MaxHierarchyDepth: 3}})
	viewer := f.person("vera", app.RoleViewer)
	bob := f.person("bob", app.RoleMember)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"}, app.ProjectCreate{Key: "private", Visibility: "private"})

	t.Run("made", func(t *testing.T) {
		got := must(f.svc.CreateProject(f.ctx, bob, "", app.ProjectCreate{Key: "docs-2", Title: " Docs ", Parent: "ui", Colour: "#aabbcc"}))(t)
		if got.Key != "docs-2" || got.Title != "Docs" || got.Path != "web/ui/docs-2" || got.Depth != 2 || got.Visibility != "public" ||
			got.Status.Key != "active" || got.OwnerID != bob.User.ID || got.Version != 1 {
			t.Errorf("got %+v", got)
		}
		members := must(f.svc.ProjectMembers(f.ctx, bob, "", "docs-2"))(t)
		if len(members) != 1 || members[0].User.Username != "bob" {
			t.Errorf("members %+v, want the creator", members)
		}
	})

	cases := []refused[app.ProjectCreate]{
		{"a key with capitals", f.admin, app.ProjectCreate{Key: "Web2", Title: "x"}, app.CodeValidation, "body.key"},
		{"a key starting with a digit", f.admin, app.ProjectCreate{Key: "2web", Title: "x"}, app.CodeValidation, "body.key"},
		{"no key", f.admin, app.ProjectCreate{Title: "x"}, app.CodeValidation, "body.key"},
		{"a key with a space", f.admin, app.ProjectCreate{Key: "has space", Title: "x"}, app.CodeValidation, "body.key"},
		{"a key with a dot", f.admin, app.ProjectCreate{Key: "a.b", Title: "x"}, app.CodeValidation, "body.key"},
		{"a key starting with an underscore", f.admin, app.ProjectCreate{Key: "_x", Title: "x"}, app.CodeValidation, "body.key"},
		{"a key of 33 characters", f.admin, app.ProjectCreate{Key: strings.Repeat("k", 33), Title: "x"}, app.CodeValidation, "body.key"},
		{"a status that is not a project status", f.admin, app.ProjectCreate{Key: "odd", Title: "x", Status: "todo"}, app.CodeValidation, "body.status"},
		{"no title", f.admin, app.ProjectCreate{Key: "t"}, app.CodeValidation, "body.title"},
		{"a visibility that is neither", f.admin, app.ProjectCreate{Key: "v", Title: "x", Visibility: "secret"}, app.CodeValidation, "body.visibility"},
		{"a colour that is not #rrggbb", f.admin, app.ProjectCreate{Key: "c", Title: "x", Colour: "red"}, app.CodeValidation, "body.colour"},
		{"an unknown setting", f.admin, app.ProjectCreate{Key: "s", Title: "x", Settings: map[string]any{"colour": 1.0}},
			app.CodeValidation, "body.settings.colour"},
		{"an unknown parent", f.admin, app.ProjectCreate{Key: "p", Title: "x", Parent: "nope"}, app.CodeValidation, "body.parent"},
		{"a parent the caller cannot see", bob, app.ProjectCreate{Key: "p", Title: "x", Parent: "private"}, app.CodeValidation, "body.parent"},
		{"deeper than the limit", f.admin, app.ProjectCreate{Key: "deep", Title: "x", Parent: "docs-2"}, app.CodeValidation, "body.parent"},
		{"a key taken", f.admin, app.ProjectCreate{Key: "web", Title: "x"}, app.CodeConflict, ""},
		{"a key taken by a project the caller cannot see", bob, app.ProjectCreate{Key: "private", Title: "x"}, app.CodeConflict, ""},
		{"a key taken in the trash", f.admin, app.ProjectCreate{Key: "gone", Title: "x"}, app.CodeConflict, ""},
		{"a viewer", viewer, app.ProjectCreate{Key: "v2", Title: "x"}, app.CodeForbidden, ""},
	}
	f.project(f.admin, app.ProjectCreate{Key: "gone"})
	must(f.svc.DeleteProject(f.ctx, f.admin, "", "gone"))(t)
	wantRefused(t, cases, func(a app.Actor, in app.ProjectCreate) error { return errOf(f.svc.CreateProject(f.ctx, a, "", in)) })
}

// TestProjectDisclosure checks that a private project answers a workspace
// member who has no sight of it as one that does not exist, until shared.
func TestProjectDisclosure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.person("cy", app.RoleMember)
	p := f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	f.project(f.admin, app.ProjectCreate{Key: "inner", Parent: "secret"})
	tk := f.task(f.admin, app.TaskCreate{Title: "t", Project: "inner"})

	for _, idOrKey := range []string{"secret", p.ID, "inner", "nope"} {
		_, err := f.svc.ProjectGet(f.ctx, bob, "", idOrKey)
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.UpdateProject(f.ctx, bob, "", idOrKey, app.ProjectUpdate{Title: app.PatchOf("x")})
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.ProjectMembers(f.ctx, bob, "", idOrKey)
		wantCode(t, err, app.CodeNotFound)
	}
	keys := func(a app.Actor) []string {
		var out []string
		for _, v := range must(f.svc.Projects(f.ctx, a, "", false))(t) {
			out = append(out, v.Path)
		}
		return out
	}
	if got, want := keys(bob), []string{"inbox"}; !slices.Equal(got, want) {
		t.Errorf("bob sees %v, want %v", got, want)
	}

	// Sharing grants sight of the project and what is under it.
	_, err := f.svc.ShareProject(f.ctx, bob, "", "secret", "cy")
	wantCode(t, err, app.CodeNotFound)
	must(f.svc.ShareProject(f.ctx, f.admin, "", "secret", "bob"))(t)
	if got, want := keys(bob), []string{"inbox", "secret", "secret/inner"}; !slices.Equal(got, want) {
		t.Errorf("once shared, bob sees %v, want %v", got, want)
	}
	must(f.svc.TaskGet(f.ctx, bob, "", ref(tk.Ref)))(t)

	cases := []struct {
		name string
		call func() error
		code app.Code
	}{
		{"share twice", func() error { return errOf(f.svc.ShareProject(f.ctx, f.admin, "", "secret", "bob")) }, app.CodeAlreadyMember},
		{"share with a stranger", func() error { return errOf(f.svc.ShareProject(f.ctx, f.admin, "", "secret", "nobody1")) },
			app.CodeValidation},
		{"unshare the owner", func() error { return f.svc.UnshareProject(f.ctx, f.admin, "", "secret", "admin") }, app.CodeProjectOwnerRow},
		{"unshare one who holds no row", func() error { return f.svc.UnshareProject(f.ctx, f.admin, "", "secret", "cy") }, app.CodeNotFound},
		{"unshare", func() error { return f.svc.UnshareProject(f.ctx, f.admin, "", "secret", "bob") }, ""},
		{"unshare the last row", func() error { return f.svc.UnshareProject(f.ctx, f.admin, "", "secret", "admin") }, app.CodeLastProjectMember},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
	}
	_, err = f.svc.TaskGet(f.ctx, bob, "", ref(tk.Ref))
	wantCode(t, err, app.CodeNotFound)
}

func TestProjectUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	p := f.project(f.admin, app.ProjectCreate{Key: "web"})

	got := must(f.svc.UpdateProject(f.ctx, f.admin, "", p.ID, app.ProjectUpdate{Title: app.PatchOf("Website"),
		Status: app.PatchOf("on_hold"), HiddenStatuses: app.PatchOf([]string{"done"}), ExpectedVersion: ptr(1)}))(t)
	if got.Title != "Website" || got.Status.Key != "on_hold" || !slices.Equal(got.HiddenStatuses, []string{"done"}) || got.Version != 2 {
		t.Errorf("got %+v", got)
	}
	cases := []struct {
		name    string
		a       app.Actor
		project string
		in      app.ProjectUpdate
		code    app.Code
		loc     string
	}{
		{"a stale version", f.admin, "web", app.ProjectUpdate{Title: app.PatchOf("x"), ExpectedVersion: ptr(1)}, app.CodeVersionConflict, ""},
		{"the key", f.admin, "web", app.ProjectUpdate{Key: app.PatchOf("site")}, app.CodeValidation, "body.key"},
		{"an unknown status", f.admin, "web", app.ProjectUpdate{Status: app.PatchOf("todo")}, app.CodeValidation, "body.status"},
		{"a blank title", f.admin, "web", app.ProjectUpdate{Title: app.PatchOf("")}, app.CodeValidation, "body.title"},
		{"a visibility that is neither", f.admin, "web", app.ProjectUpdate{Visibility: app.PatchOf("hidden")}, app.CodeValidation, "body.visibility"},
		{"an unknown setting", f.admin, "web", app.ProjectUpdate{Settings: app.PatchOf(map[string]any{"no_such_setting": 3.0})},
			app.CodeValidation, "body.settings.no_such_setting"},
		{"claim_minutes 0", f.admin, "web", app.ProjectUpdate{Settings: app.PatchOf(map[string]any{"claim_minutes": 0.0})},
			app.CodeValidation, "body.settings.claim_minutes"},
		{"a week starting on friday", f.admin, "web", app.ProjectUpdate{Settings: app.PatchOf(map[string]any{"week_start": "friday"})},
			app.CodeValidation, "body.settings.week_start"},
		{"the inbox made private", f.admin, "inbox", app.ProjectUpdate{Visibility: app.PatchOf("private")}, app.CodeInboxProtected, ""},
		{"a viewer", viewer, "web", app.ProjectUpdate{Title: app.PatchOf("x")}, app.CodeForbidden, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.UpdateProject(f.ctx, c.a, "", c.project, c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}
	if got := must(f.svc.ProjectGet(f.ctx, f.admin, "", "web"))(t); got.Version != 2 || got.Title != "Website" {
		t.Errorf("refusals changed the project: %+v", got)
	}
}

func TestProjectMove(t *testing.T) {
	t.Parallel()
	f := newFixtureWith(t, app.Options{Version: "test", Limits: app.Limits{MaxHierarchyDepth: 3}})
	f.projects(
		app.ProjectCreate{Key: "a"}, app.ProjectCreate{Key: "b", Parent: "a"}, app.ProjectCreate{Key: "c", Parent: "b"},
		app.ProjectCreate{Key: "x"}, app.ProjectCreate{Key: "y", Parent: "x"},
	)
	to := func(parent string) app.Patch[string] { return app.PatchOf(parent) }

	cases := []struct {
		name    string
		project string
		parent  app.Patch[string]
		code    app.Code
		path    string
	}{
		{"under itself", "a", to("a"), app.CodeCycle, ""},
		{"under its grandchild", "a", to("c"), app.CodeCycle, ""},
		{"the inbox under another", "inbox", to("x"), app.CodeInboxProtected, ""},
		{"under no such project", "x", to("nope"), app.CodeValidation, ""},
		{"deeper than the limit", "x", to("b"), app.CodeValidation, ""},
		{"with its subtree", "b", to("x"), "", "x/b"},
		{"to the top", "b", app.Patch[string]{Set: true, Null: true}, "", "b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.MoveProject(f.ctx, f.admin, "", c.project, c.parent)
			if wantRefusal(t, err, c.code, "") {
				return
			}
			if got.Path != c.path {
				t.Errorf("path %s, want %s", got.Path, c.path)
			}
			if under := must(f.svc.ProjectGet(f.ctx, f.admin, "", "c"))(t); under.Path != c.path+"/c" {
				t.Errorf("the subproject is at %s, want %s/c", under.Path, c.path)
			}
		})
	}
}

func TestProjectTrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"})
	tk := f.task(f.admin, app.TaskCreate{Title: "t", Project: "ui"})
	d := f.doc(f.admin, app.DocumentCreate{Title: "d", Project: "ui"})

	_, err := f.svc.DeleteProject(f.ctx, f.admin, "", "inbox")
	wantCode(t, err, app.CodeInboxProtected)

	got := must(f.svc.DeleteProject(f.ctx, f.admin, "", "web"))(t)
	if got.DeletedAt == nil {
		t.Errorf("deleted_at unset")
	}
	// What is filed in a trashed project leaves with it.
	_, err = f.svc.ProjectGet(f.ctx, f.admin, "", "ui")
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.TaskGet(f.ctx, f.admin, "", ref(tk.Ref))
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.DocumentGet(f.ctx, f.admin, "", ref(d.Ref))
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.CreateTask(f.ctx, f.admin, "", app.TaskCreate{Title: "x", Project: "web"})
	wantCode(t, err, app.CodeValidation)
	wantField(t, err, "body.project")
	trash := must(f.svc.Projects(f.ctx, f.admin, "", true))(t)
	var paths []string
	for _, p := range trash {
		paths = append(paths, p.Path)
	}
	if want := []string{"web", "web/ui"}; !slices.Equal(paths, want) {
		t.Errorf("trash %v, want %v", paths, want)
	}

	_, err = f.svc.RestoreProject(f.ctx, f.admin, "", "ui")
	wantCode(t, err, app.CodeConflict) // its parent is still in the trash
	_, err = f.svc.RestoreProject(f.ctx, bob, "", "nope")
	wantCode(t, err, app.CodeNotFound)
	must(f.svc.RestoreProject(f.ctx, f.admin, "", "web"))(t)
	must(f.svc.ProjectGet(f.ctx, f.admin, "", "ui"))(t)
	must(f.svc.TaskGet(f.ctx, f.admin, "", ref(tk.Ref)))(t)
	_, err = f.svc.RestoreProject(f.ctx, f.admin, "", "web")
	wantCode(t, err, app.CodeNotFound)
}

func TestOpenTaskCounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.projects(
		app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"}, app.ProjectCreate{Key: "empty"},
		app.ProjectCreate{Key: "secret", Visibility: "private"},
	)
	for _, in := range []app.TaskCreate{{Project: "web"}, {Project: "web"}, {Project: "ui"}, {Project: "secret"}} {
		in.Title = "open in " + in.Project
		f.task(f.admin, in)
	}
	done := f.task(f.admin, app.TaskCreate{Title: "done", Project: "web"})
	must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(done.Ref), app.Completion{}))(t)
	trashed := f.task(f.admin, app.TaskCreate{Title: "trashed", Project: "web"})
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(trashed.Ref)))(t)

	// Only the tasks filed directly in a project count; a project with none is absent.
	got := must(f.svc.OpenTaskCounts(f.ctx, bob, ""))(t)
	if want := map[string]int{"web": 2, "ui": 1}; !maps.Equal(got, want) {
		t.Errorf("bob counts %v, want %v", got, want)
	}
	if got := must(f.svc.OpenTaskCounts(f.ctx, f.admin, ""))(t); got["secret"] != 1 {
		t.Errorf("the administrator counts %v, want secret's one task", got)
	}
	_, err := f.svc.OpenTaskCounts(f.ctx, bob, "no-such-workspace")
	wantCode(t, err, app.CodeNotFound)
}
