package app_test

import (
	"slices"
	"testing"

	"tend/app"
)

// tagNames lists the names of the tags a caller sees, and the total.
func tagNames(t *testing.T, f *fixture, a app.Actor) ([]string, int) {
	t.Helper()
	page := must(f.svc.Tags(f.ctx, a, "", 0, "", true))(t)
	var out []string
	for _, g := range page.Items {
		out = append(out, g.Name)
	}
	return out, *page.Page.Total
}

// tagID finds the id of a tag the caller sees by name.
func tagID(t *testing.T, f *fixture, a app.Actor, name string) string {
	t.Helper()
	for _, g := range must(f.svc.Tags(f.ctx, a, "", 0, "", false))(t).Items {
		if g.Name == name {
			return g.ID
		}
	}
	t.Fatalf("no tag %q", name)
	return ""
}

// TestTags checks the tag vocabulary: made by use or declared, renamed
// (onto its items), merged into by a rename, removed, and never disclosing
// a tag used only where the reader cannot look.
func TestTags(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ada := f.person("ada", app.RoleAdmin) // runs the workspace, but has no sight of the private project
	viewer := f.person("vera", app.RoleViewer)
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	seen := f.task(f.admin, app.TaskCreate{Title: "seen", Tags: []string{"ops", "UI"}})
	hidden := f.task(f.admin, app.TaskCreate{Title: "hidden", Project: "secret", Tags: []string{"payroll", "ops"}})
	must(f.svc.AddTag(f.ctx, f.admin, "", app.CreateTag{Name: "#later", Description: ptr("for another day")}))(t)

	if got, n := tagNames(t, f, f.admin); !slices.Equal(got, []string{"later", "ops", "payroll", "UI"}) || n != 4 {
		t.Errorf("admin sees %v (total %d)", got, n)
	}
	if got, n := tagNames(t, f, ada); !slices.Equal(got, []string{"later", "ops", "UI"}) || n != 3 {
		t.Errorf("ada sees %v (total %d); payroll is used only where she cannot look", got, n)
	}

	t.Run("refusals", func(t *testing.T) {
		ui, payroll := tagID(t, f, ada, "UI"), tagID(t, f, f.admin, "payroll")
		cases := []struct {
			name string
			call func() error
			code app.Code
		}{
			{"declare a name in sight", func() error { return errOf(f.svc.AddTag(f.ctx, ada, "", app.CreateTag{Name: "OPS"})) }, app.CodeConflict},
			{"declare a name that is no tag", func() error { return errOf(f.svc.AddTag(f.ctx, ada, "", app.CreateTag{Name: "a b"})) },
				app.CodeValidation},
			{"a viewer declares", func() error { return errOf(f.svc.AddTag(f.ctx, viewer, "", app.CreateTag{Name: "v"})) }, app.CodeForbidden},
			{"a viewer renames", func() error { return errOf(f.svc.ChangeTag(f.ctx, viewer, ui, app.UpdateTag{Name: app.PatchOf("v")})) }, app.CodeForbidden},
			{"rename a tag out of sight", func() error {
				return errOf(f.svc.ChangeTag(f.ctx, ada, payroll, app.UpdateTag{Name: app.PatchOf("pay")}))
			}, app.CodeNotFound},
			{"remove a tag out of sight", func() error { return f.svc.RemoveTag(f.ctx, ada, payroll) }, app.CodeNotFound},
			{"rename onto a name in sight", func() error { return errOf(f.svc.ChangeTag(f.ctx, ada, ui, app.UpdateTag{Name: app.PatchOf("ops")})) }, app.CodeConflict},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
		}
	})

	t.Run("a rename reaches the items", func(t *testing.T) {
		must(f.svc.ChangeTag(f.ctx, ada, tagID(t, f, ada, "ops"), app.UpdateTag{Name: app.PatchOf("infra")}))(t)
		for _, tk := range []app.Task{seen, hidden} {
			got := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(tk.Ref)))(t)
			if !slices.Contains(got.Tags, "infra") || slices.Contains(got.Tags, "ops") {
				t.Errorf("#%d carries %v", tk.Ref, got.Tags)
			}
		}
	})
	t.Run("declaring a name used out of sight adopts it", func(t *testing.T) {
		// Ada cannot tell payroll exists: declaring it answers as a new
		// tag would, and the hidden task keeps it.
		got := must(f.svc.AddTag(f.ctx, ada, "", app.CreateTag{Name: "payroll", Description: ptr("money")}))(t)
		if got.Name != "payroll" || !got.Declared || got.Description != "money" {
			t.Errorf("declared %+v", got)
		}
		if names, _ := tagNames(t, f, ada); !slices.Contains(names, "payroll") {
			t.Errorf("ada sees %v after declaring payroll", names)
		}
		if h := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(hidden.Ref)))(t); !slices.Contains(h.Tags, "payroll") {
			t.Errorf("the hidden task carries %v", h.Tags)
		}
	})
	t.Run("renaming onto a name used out of sight merges", func(t *testing.T) {
		f.task(f.admin, app.TaskCreate{Title: "hidden 2", Project: "secret", Tags: []string{"audit"}})
		ui := tagID(t, f, ada, "UI")
		got := must(f.svc.ChangeTag(f.ctx, ada, ui, app.UpdateTag{Name: app.PatchOf("audit")}))(t)
		if got.ID != ui {
			t.Errorf("the renamed tag became %s, want it to keep its id %s", got.ID, ui)
		}
		if names, n := tagNames(t, f, f.admin); slices.Contains(names, "UI") || n != 4 {
			t.Errorf("admin sees %v (total %d) after the merge", names, n)
		}
		if s := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(seen.Ref)))(t); !slices.Contains(s.Tags, "audit") {
			t.Errorf("the seen task carries %v", s.Tags)
		}
	})
	t.Run("removing takes it off its items", func(t *testing.T) {
		wantCode(t, f.svc.RemoveTag(f.ctx, f.admin, tagID(t, f, f.admin, "infra")), "")
		if s := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(seen.Ref)))(t); slices.Contains(s.Tags, "infra") {
			t.Errorf("the task still carries %v", s.Tags)
		}
		list := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Tag: "infra"}))(t)
		if len(list.Items) != 0 {
			t.Errorf("tag=infra lists %v", refs(list.Items))
		}
	})
}

func TestTagPages(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, n := range []string{"e", "B", "a", "d", "C"} {
		must(f.svc.AddTag(f.ctx, f.admin, "", app.CreateTag{Name: n}))(t)
	}
	var got []string
	cursor := ""
	for range 5 {
		page := must(f.svc.Tags(f.ctx, f.admin, "", 2, cursor, false))(t)
		for _, g := range page.Items {
			got = append(got, g.Name)
		}
		if !page.Page.HasMore {
			break
		}
		cursor = page.Page.NextCursor
	}
	if want := []string{"a", "B", "C", "d", "e"}; !slices.Equal(got, want) {
		t.Errorf("paged %v, want %v", got, want)
	}
	_, err := f.svc.Tags(f.ctx, f.admin, "", -1, "", false)
	wantCode(t, err, app.CodeValidation)
	_, err = f.svc.Tags(f.ctx, f.admin, "", 2, "nonsense", false)
	wantCode(t, err, app.CodeValidation)
}

// TestTagRefusals checks who may change tags, the names they take, and
// what answers as absent.
func TestTagRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	mem := f.person("mem", app.RoleMember)
	viewer := f.person("vera", app.RoleViewer)
	f.task(f.admin, app.TaskCreate{Title: "one", Tags: []string{"alpha", "beta"}})
	alpha := tagID(t, f, viewer, "alpha")
	beta := tagID(t, f, f.admin, "beta")
	f.person("bob", "")
	users := must(f.svc.Users(f.ctx, f.admin, app.UserQuery{Limit: 1}))(t)

	cases := []struct {
		name string
		call func() error
		code app.Code
	}{
		{"a task tagged with a name that is no tag", func() error {
			return errOf(f.svc.CreateTask(f.ctx, f.admin, "", app.TaskCreate{Title: "bad", Tags: []string{"no spaces"}}))
		}, app.CodeValidation},
		{"a member declares", func() error { return errOf(f.svc.AddTag(f.ctx, mem, "", app.CreateTag{Name: "members"})) }, ""},
		{"a viewer declares", func() error { return errOf(f.svc.AddTag(f.ctx, viewer, "", app.CreateTag{Name: "viewers"})) },
			app.CodeForbidden},
		{"a member renames", func() error {
			return errOf(f.svc.ChangeTag(f.ctx, mem, alpha, app.UpdateTag{Name: app.PatchOf("mine")}))
		}, app.CodeForbidden},
		{"a member removes", func() error { return f.svc.RemoveTag(f.ctx, mem, alpha) }, app.CodeForbidden},
		{"renamed to a name that is no tag", func() error {
			return errOf(f.svc.ChangeTag(f.ctx, f.admin, alpha, app.UpdateTag{Name: app.PatchOf("two words")}))
		}, app.CodeValidation},
		{"renamed onto another, in capitals", func() error {
			return errOf(f.svc.ChangeTag(f.ctx, f.admin, alpha, app.UpdateTag{Name: app.PatchOf("BETA")}))
		}, app.CodeConflict},
		{"an unknown id renamed", func() error {
			return errOf(f.svc.ChangeTag(f.ctx, f.admin, "00000000-0000-4000-8000-000000000000", app.UpdateTag{Name: app.PatchOf("x")}))
		}, app.CodeNotFound},
		{"removed", func() error { return f.svc.RemoveTag(f.ctx, f.admin, beta) }, ""},
		{"removed twice", func() error { return f.svc.RemoveTag(f.ctx, f.admin, beta) }, app.CodeNotFound},
		{"paged with another listing's cursor", func() error { return errOf(f.svc.Tags(f.ctx, f.admin, "", 2, users.Page.NextCursor, false)) }, app.CodeValidation},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
	}
	if got, _ := tagNames(t, f, f.admin); !slices.Equal(got, []string{"alpha", "members"}) {
		t.Errorf("tags %v", got)
	}
}
