package app_test

import (
	"slices"
	"testing"

	"tend/app"
)

// statusKeys lists the keys of a workspace's statuses for one entity, in
// display order, with the default marked by a star.
func statusKeys(t *testing.T, f *fixture, entity string) []string {
	t.Helper()
	var out []string
	for _, st := range must(f.svc.Statuses(f.ctx, f.admin, "", entity))(t) {
		k := st.Key
		if st.IsDefault {
			k += "*"
		}
		out = append(out, k)
	}
	return out
}

func TestStatuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	member := f.person("bob", app.RoleMember)

	if got, want := statusKeys(t, f, "task"), []string{"todo*", "in_progress", "blocked", "done", "cancelled"}; !slices.Equal(got, want) {
		t.Fatalf("task statuses %v, want %v", got, want)
	}
	review := must(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "review", Label: "Review",
		Category: app.CategoryInProgress, Position: ptr(2)}))(t)
	triage := must(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "triage", Label: "Triage",
		Category: app.CategoryTodo, IsDefault: true}))(t)
	if got, want := statusKeys(t, f, "task"), []string{"todo", "in_progress", "review", "blocked", "done", "cancelled", "triage*"}; !slices.Equal(got, want) {
		t.Errorf("after adding: %v, want %v", got, want)
	}
	if tk := f.task(f.admin, app.TaskCreate{Title: "new"}); tk.Status.Key != "triage" {
		t.Errorf("a new task is %s, want the new default triage", tk.Status.Key)
	}
	must(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Label: app.PatchOf("In review"), Position: app.PatchOf(0)}))(t)
	if got, want := statusKeys(t, f, "task"), []string{"review", "todo", "in_progress", "blocked", "done", "cancelled", "triage*"}; !slices.Equal(got, want) {
		t.Errorf("after moving: %v, want %v", got, want)
	}

	cases := []struct {
		name string
		call func() error
		code app.Code
	}{
		{"a key taken", func() error {
			return errOf(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "done", Label: "x", Category: "done"}))
		}, app.CodeConflict},
		{"an unknown category", func() error {
			return errOf(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "x", Label: "x", Category: "later"}))
		}, app.CodeValidation},
		{"a key that is none", func() error {
			return errOf(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "Bad Key", Label: "x", Category: "todo"}))
		}, app.CodeValidation},
		{"no label", func() error {
			return errOf(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "x", Category: "todo"}))
		}, app.CodeValidation},
		{"an unknown entity", func() error {
			return errOf(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "comment", Key: "x", Label: "x", Category: "todo"}))
		}, app.CodeValidation},
		{"a member changes the vocabulary", func() error {
			return errOf(f.svc.AddStatus(f.ctx, member, "", app.CreateStatus{EntityType: "task", Key: "x", Label: "x", Category: "todo"}))
		}, app.CodeForbidden},
		{"a new category", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Category: app.PatchOf("done")}))
		}, app.CodeValidation},
		{"its own category again", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Category: app.PatchOf(app.CategoryInProgress)}))
		}, app.CodeValidation},
		{"renamed to a key that is none", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Key: app.PatchOf("Not A Key")}))
		}, app.CodeValidation},
		{"an empty label", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Label: app.PatchOf("")}))
		}, app.CodeValidation},
		{"a member changes", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, member, review.ID, app.UpdateStatus{Label: app.PatchOf("Mine")}))
		}, app.CodeForbidden},
		{"no longer the default", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, triage.ID, app.UpdateStatus{IsDefault: app.PatchOf(false)}))
		}, app.CodeValidation},
		{"renamed onto a key taken", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, review.ID, app.UpdateStatus{Key: app.PatchOf("done")}))
		}, app.CodeConflict},
		{"changed by no such id", func() error {
			return errOf(f.svc.ChangeStatus(f.ctx, f.admin, "no-such-status", app.UpdateStatus{Label: app.PatchOf("x")}))
		}, app.CodeNotFound},
		{"remove the default", func() error { return f.svc.RemoveStatus(f.ctx, f.admin, triage.ID) }, app.CodeStatusIsDefault},
		{"remove one in use", func() error {
			f.task(f.admin, app.TaskCreate{Title: "in review", Status: "review"})
			return f.svc.RemoveStatus(f.ctx, f.admin, review.ID)
		}, app.CodeStatusInUse},
		{"a member removes", func() error { return f.svc.RemoveStatus(f.ctx, member, review.ID) }, app.CodeForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
	}

	blocked := must(f.svc.Statuses(f.ctx, f.admin, "", "task"))(t)[3]
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, blocked.ID), "")
	if got, want := statusKeys(t, f, "task"), []string{"review", "todo", "in_progress", "done", "cancelled", "triage*"}; !slices.Equal(got, want) {
		t.Errorf("after removing %s: %v, want %v", blocked.Key, got, want)
	}
	for i, st := range must(f.svc.Statuses(f.ctx, f.admin, "", "task"))(t) {
		if st.Position != i {
			t.Errorf("%s at position %d, want %d", st.Key, st.Position, i)
		}
	}
	_, err := f.svc.Statuses(f.ctx, f.admin, "", "comment")
	wantCode(t, err, app.CodeValidation)
}

// TestStatusEntities checks what holds for every entity type's statuses:
// the defaults, a key reused under another entity type, a default
// status or one in use kept, and a removed status gone from use.
func TestStatusEntities(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	if all := must(f.svc.Statuses(f.ctx, f.admin, "", ""))(t); len(all) != 14 {
		t.Errorf("%d statuses, want 14", len(all))
	}
	for entity, want := range map[string][]string{
		"task":     {"todo*", "in_progress", "blocked", "done", "cancelled"},
		"project":  {"active*", "planned", "on_hold", "completed", "cancelled"},
		"document": {"current*", "draft", "archived", "superseded"},
	} {
		if got := statusKeys(t, f, entity); !slices.Equal(got, want) {
			t.Errorf("%s statuses %v, want %v", entity, got, want)
		}
	}
	byKey := func(entity, key string) app.Status {
		t.Helper()
		for _, st := range must(f.svc.Statuses(f.ctx, f.admin, "", entity))(t) {
			if st.Key == key {
				return st
			}
		}
		t.Fatalf("no %s status %s", entity, key)
		return app.Status{}
	}

	must(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "task", Key: "review", Label: "Review", Category: app.CategoryTodo}))(t)
	if st := must(f.svc.AddStatus(f.ctx, f.admin, "", app.CreateStatus{EntityType: "document", Key: "review", Label: "Review",
		Category: app.CategoryTodo}))(t); st.EntityType != "document" {
		t.Errorf("added %+v", st)
	}
	f.project(f.admin, app.ProjectCreate{Key: "paused", Status: "on_hold"})
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, byKey("project", "active").ID), app.CodeStatusIsDefault)
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, byKey("project", "on_hold").ID), app.CodeStatusInUse)
	// Out of the status, it can go.
	must(f.svc.UpdateProject(f.ctx, f.admin, "", "paused", app.ProjectUpdate{Status: app.PatchOf("active")}))(t)
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, byKey("project", "on_hold").ID), "")

	// Moved past the end, a status goes last.
	if st := must(f.svc.ChangeStatus(f.ctx, f.admin, byKey("task", "blocked").ID, app.UpdateStatus{Position: app.PatchOf(99)}))(t); st.Position != 5 {
		t.Errorf("moved to %d, want 5", st.Position)
	}
	must(f.svc.ChangeStatus(f.ctx, f.admin, byKey("task", "in_progress").ID, app.UpdateStatus{IsDefault: app.PatchOf(true)}))(t)
	if got, want := statusKeys(t, f, "task"), []string{"todo", "in_progress*", "done", "cancelled", "review", "blocked"}; !slices.Equal(got, want) {
		t.Errorf("task statuses %v, want %v", got, want)
	}
	if tk := f.task(f.admin, app.TaskCreate{Title: "fresh"}); tk.Status.Key != "in_progress" {
		t.Errorf("a new task is %s, want the new default", tk.Status.Key)
	}

	cancelled := byKey("task", "cancelled").ID
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, cancelled), "")
	wantCode(t, f.svc.RemoveStatus(f.ctx, f.admin, cancelled), app.CodeNotFound)
	_, err := f.svc.CreateTask(f.ctx, f.admin, "", app.TaskCreate{Title: "t", Status: "cancelled"})
	wantRefusal(t, err, app.CodeValidation, "body.status")
}

func TestLinkTypes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	member := f.person("bob", app.RoleMember)
	keys := func() []string {
		var out []string
		for _, lt := range must(f.svc.LinkTypes(f.ctx, member, ""))(t) {
			out = append(out, lt.Key)
		}
		return out
	}
	if got, want := keys(), []string{"blocks", "precedes", "relates_to", "duplicates", "documents", "derives_from", "supersedes"}; !slices.Equal(got, want) {
		t.Fatalf("link types %v, want %v", got, want)
	}
	mentors := must(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "mentors", Title: "mentors",
		InverseTitle: "is mentored by", Category: app.LinkAssociation}))(t)
	pairs := must(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "pairs", Title: "pairs with",
		InverseTitle: "pairs with", IsSymmetric: true, Category: app.LinkAssociation}))(t)
	// Renaming a symmetric type's title renames both ends.
	if got := must(f.svc.ChangeLinkType(f.ctx, f.admin, pairs.ID, app.UpdateLinkType{Title: app.PatchOf("works with")}))(t); got.InverseTitle != "works with" {
		t.Errorf("inverse title %q, want works with", got.InverseTitle)
	}
	all := must(f.svc.LinkTypes(f.ctx, f.admin, ""))(t)
	blocks := all[0]

	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	b := f.task(f.admin, app.TaskCreate{Title: "b"})
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("mentors", a.Ref, b.Ref)))(t)
	if got := must(f.svc.ItemLinks(f.ctx, f.admin, "", "task", ref(b.Ref)))(t); len(got) != 1 || got[0].Label != "is mentored by" {
		t.Errorf("b's links %+v", got)
	}

	cases := []struct {
		name string
		call func() error
		code app.Code
	}{
		{"a key taken", func() error {
			return errOf(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "blocks", Title: "x", InverseTitle: "y", Category: app.LinkSequencing}))
		}, app.CodeConflict},
		{"symmetric with two titles", func() error {
			_, err := f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "s", Title: "x", InverseTitle: "y", IsSymmetric: true,
				Category: app.LinkAssociation})
			return err
		}, app.CodeValidation},
		{"an unknown category", func() error {
			return errOf(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "k", Title: "x", InverseTitle: "y", Category: "friendship"}))
		}, app.CodeValidation},
		{"a key that is none", func() error {
			return errOf(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "Bad", Title: "x", InverseTitle: "y", Category: app.LinkAssociation}))
		}, app.CodeValidation},
		{"no title", func() error {
			return errOf(f.svc.AddLinkType(f.ctx, f.admin, "", app.CreateLinkType{Key: "k", InverseTitle: "y", Category: app.LinkAssociation}))
		}, app.CodeValidation},
		{"a member adds", func() error {
			return errOf(f.svc.AddLinkType(f.ctx, member, "", app.CreateLinkType{Key: "k", Title: "x", InverseTitle: "y", Category: app.LinkAssociation}))
		}, app.CodeForbidden},
		{"a member changes", func() error {
			return errOf(f.svc.ChangeLinkType(f.ctx, member, mentors.ID, app.UpdateLinkType{Title: app.PatchOf("mine")}))
		}, app.CodeForbidden},
		{"blocks reworded", func() error {
			_, err := f.svc.ChangeLinkType(f.ctx, f.admin, blocks.ID, app.UpdateLinkType{Title: app.PatchOf("holds up"),
				InverseTitle: app.PatchOf("is held up by")})
			return err
		}, ""},
		{"blocks renamed", func() error {
			return errOf(f.svc.ChangeLinkType(f.ctx, f.admin, blocks.ID, app.UpdateLinkType{Key: app.PatchOf("stops")}))
		}, app.CodeValidation},
		{"a symmetric type given another inverse", func() error {
			return errOf(f.svc.ChangeLinkType(f.ctx, f.admin, pairs.ID, app.UpdateLinkType{InverseTitle: app.PatchOf("x")}))
		}, app.CodeValidation},
		{"renamed onto a key taken", func() error {
			return errOf(f.svc.ChangeLinkType(f.ctx, f.admin, pairs.ID, app.UpdateLinkType{Key: app.PatchOf("mentors")}))
		}, app.CodeConflict},
		{"no such id", func() error { return f.svc.RemoveLinkType(f.ctx, f.admin, "no-such-type") }, app.CodeNotFound},
		{"blocks removed", func() error { return f.svc.RemoveLinkType(f.ctx, f.admin, blocks.ID) }, app.CodeLinkTypeInUse},
		{"one in use removed", func() error { return f.svc.RemoveLinkType(f.ctx, f.admin, mentors.ID) }, app.CodeLinkTypeInUse},
		{"a member removes", func() error { return f.svc.RemoveLinkType(f.ctx, member, pairs.ID) }, app.CodeForbidden},
		{"one unused removed", func() error { return f.svc.RemoveLinkType(f.ctx, f.admin, pairs.ID) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantCode(t, c.call(), c.code) })
	}
	if got := keys(); len(got) != 8 || got[7] != "mentors" {
		t.Errorf("link types %v, want the defaults and mentors", got)
	}
	if got := must(f.svc.LinkTypes(f.ctx, member, ""))(t)[0]; got.Key != "blocks" || got.Title != "holds up" || got.InverseTitle != "is held up by" {
		t.Errorf("blocks after rewording: %+v", got)
	}
	_, err := f.svc.AddLinks(f.ctx, f.admin, "", link("pairs", a.Ref, b.Ref))
	wantCode(t, err, app.CodeValidation)
}

// TestVocabularyOtherWorkspace checks that an entry of a workspace the
// caller does not reach answers as one that does not exist.
func TestVocabularyOtherWorkspace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	must(f.svc.CreateWorkspace(f.ctx, f.admin, app.WorkspaceCreate{Slug: "other", Name: "Other", Timezone: "UTC"}))(t)
	outsider := f.person("olga", "")
	must(f.svc.CreateWorkspace(f.ctx, outsider, app.WorkspaceCreate{Slug: "olgas", Name: "Olga's", Timezone: "UTC"}))(t)
	st := must(f.svc.Statuses(f.ctx, f.admin, "other", "task"))(t)[0]
	lt := must(f.svc.LinkTypes(f.ctx, f.admin, "other"))(t)[1]

	_, err := f.svc.ChangeStatus(f.ctx, outsider, st.ID, app.UpdateStatus{Label: app.PatchOf("x")})
	wantCode(t, err, app.CodeNotFound)
	wantCode(t, f.svc.RemoveStatus(f.ctx, outsider, st.ID), app.CodeNotFound)
	_, err = f.svc.ChangeLinkType(f.ctx, outsider, lt.ID, app.UpdateLinkType{Title: app.PatchOf("x")})
	wantCode(t, err, app.CodeNotFound)
	wantCode(t, f.svc.RemoveLinkType(f.ctx, outsider, lt.ID), app.CodeNotFound)
	_, err = f.svc.Statuses(f.ctx, outsider, "other", "")
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.LinkTypes(f.ctx, outsider, "other")
	wantCode(t, err, app.CodeNotFound)
	// The admin reaches two workspaces and must name one.
	_, err = f.svc.LinkTypes(f.ctx, f.admin, "")
	wantCode(t, err, app.CodeWorkspaceRequired)
}
