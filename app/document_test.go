package app_test

import (
	"slices"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

func TestDocumentCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	parent := f.doc(f.admin, app.DocumentCreate{Title: "Handbook", Project: "web"})
	tk := f.task(f.admin, app.TaskCreate{Title: "a task"})

	got := must(f.svc.CreateDocument(f.ctx, f.admin, "", app.DocumentCreate{Title: "Decision", Body: ptr("We chose SQLite."),
		Type: "decision", Tags: []string{"arch"}, Parent: app.FlexRef(ref(parent.Ref))}))(t)
	if got.Type.Key != "decision" || got.Status.Key != "current" || !got.InForce() || got.ProjectKey != "web" ||
		got.ParentID != parent.ID || got.Body != "We chose SQLite." || !slices.Equal(got.Tags, []string{"arch"}) || got.Version != 1 {
		t.Errorf("got %+v", got)
	}
	if got.Revisions == nil || got.Revisions.Count != 0 || !got.Revisions.LastAt.Equal(storetest.Epoch) {
		t.Errorf("revisions %+v, want none as of its creation", got.Revisions)
	}
	if plain := f.doc(f.admin, app.DocumentCreate{Title: "Note"}); plain.Type.Key != "note" || plain.ProjectKey != "inbox" {
		t.Errorf("defaults: type %s in %s", plain.Type.Key, plain.ProjectKey)
	}

	due := app.DocumentCreate{Title: "x", TaskFields: []string{"due_at"}}
	assignee := app.DocumentCreate{Title: "x", TaskFields: []string{"assignee"}}
	cases := []refused[app.DocumentCreate]{
		{"no title", f.admin, app.DocumentCreate{}, app.CodeValidation, "body.title"},
		{"a due, which documents have not", f.admin, due, app.CodeValidation, "body.due_at"},
		{"an assignee, which documents have not", f.admin, assignee, app.CodeValidation, "body.assignee"},
		{"a task type", f.admin, app.DocumentCreate{Title: "x", Type: "bug"}, app.CodeValidation, "body.type"},
		{"a task status", f.admin, app.DocumentCreate{Title: "x", Status: "todo"}, app.CodeValidation, "body.status"},
		{"a task as parent", f.admin, app.DocumentCreate{Title: "x", Parent: app.FlexRef(ref(tk.Ref))}, app.CodeValidation, "body.parent"},
		{"a blank title", f.admin, app.DocumentCreate{Title: " "}, app.CodeValidation, "body.title"},
		{"an estimate, which documents have not", f.admin, app.DocumentCreate{Title: "x", TaskFields: []string{"estimate_minutes"}},
			app.CodeValidation, "body.estimate_minutes"},
		{"an unknown project", f.admin, app.DocumentCreate{Title: "x", Project: "nope"}, app.CodeValidation, "body.project"},
		{"no such parent", f.admin, app.DocumentCreate{Title: "x", Parent: "9999"}, app.CodeValidation, "body.parent"},
		{"a tag with a space", f.admin, app.DocumentCreate{Title: "x", Tags: []string{"no spaces"}}, app.CodeValidation, "body.tags"},
		{"a viewer", viewer, app.DocumentCreate{Title: "x"}, app.CodeForbidden, ""},
	}
	wantRefused(t, cases, func(a app.Actor, in app.DocumentCreate) error { return errOf(f.svc.CreateDocument(f.ctx, a, "", in)) })
}

func TestDocumentUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	d := f.doc(f.admin, app.DocumentCreate{Title: "Spec", Type: "spec", Status: "draft"})
	r := ref(d.Ref)

	// A first draft onto an empty body is no revision; replacing it is.
	f.clock.Advance(time.Minute)
	got := must(f.svc.UpdateDocument(f.ctx, f.admin, "", r, app.DocumentUpdate{Body: app.PatchOf("v1")}))(t)
	if got.Revisions.Count != 0 || got.Version != 2 {
		t.Errorf("first draft: %d revisions, version %d", got.Revisions.Count, got.Version)
	}
	f.clock.Advance(time.Minute)
	got = must(f.svc.UpdateDocument(f.ctx, bob, "", r, app.DocumentUpdate{Body: app.PatchOf("v2"), Status: app.PatchOf("current"),
		ExpectedVersion: ptr(2)}))(t)
	if got.Revisions.Count != 1 || got.Revisions.LastBy != "bob" || !got.Revisions.LastAt.Equal(storetest.Epoch.Add(2*time.Minute)) ||
		!got.InForce() || got.Body != "v2" {
		t.Errorf("revised: %+v, in force %v", got.Revisions, got.InForce())
	}
	// Renaming is no revision either.
	got = must(f.svc.UpdateDocument(f.ctx, f.admin, "", r, app.DocumentUpdate{Title: app.PatchOf("Spec 2")}))(t)
	if got.Revisions.Count != 1 || got.Title != "Spec 2" {
		t.Errorf("renamed: %d revisions, title %q", got.Revisions.Count, got.Title)
	}

	cases := []struct {
		name string
		in   app.DocumentUpdate
		code app.Code
		loc  string
	}{
		{"a stale version", app.DocumentUpdate{Body: app.PatchOf("v3"), ExpectedVersion: ptr(2)}, app.CodeVersionConflict, ""},
		{"the title cleared", app.DocumentUpdate{Title: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.title"},
		{"the project cleared", app.DocumentUpdate{Project: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.project"},
		{"an unknown status", app.DocumentUpdate{Status: app.PatchOf("done")}, app.CodeValidation, "body.status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.UpdateDocument(f.ctx, f.admin, "", r, c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}
}

func TestDocumentMoveAndTrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	top := f.doc(f.admin, app.DocumentCreate{Title: "top"})
	mid := f.doc(f.admin, app.DocumentCreate{Title: "mid", Parent: app.FlexRef(ref(top.Ref))})
	leaf := f.doc(f.admin, app.DocumentCreate{Title: "leaf", Parent: app.FlexRef(ref(mid.Ref))})
	other := f.doc(f.admin, app.DocumentCreate{Title: "other", Project: "web"})
	under := func(r int64) app.DocumentMove { return app.DocumentMove{Parent: app.PatchOf(app.FlexRef(ref(r)))} }

	_, err := f.svc.MoveDocument(f.ctx, f.admin, "", ref(top.Ref), under(leaf.Ref))
	wantCode(t, err, app.CodeCycle)
	_, err = f.svc.MoveDocument(f.ctx, f.admin, "", ref(top.Ref), app.DocumentMove{})
	wantCode(t, err, app.CodeValidation)

	// Nesting under a document in another project takes the subtree there.
	got := must(f.svc.MoveDocument(f.ctx, f.admin, "", ref(mid.Ref), under(other.Ref)))(t)
	if got.ParentID != other.ID || got.ProjectKey != "web" {
		t.Errorf("moved: parent %s in %s", got.ParentID, got.ProjectKey)
	}
	if l := must(f.svc.DocumentGet(f.ctx, f.admin, "", ref(leaf.Ref)))(t); l.ProjectKey != "web" {
		t.Errorf("the sub-document stayed in %s", l.ProjectKey)
	}

	f.clock.Advance(time.Minute)
	must(f.svc.DeleteDocument(f.ctx, f.admin, "", ref(other.Ref)))(t)
	for _, d := range []app.Document{other, mid, leaf} {
		_, err := f.svc.DocumentGet(f.ctx, f.admin, "", ref(d.Ref))
		wantCode(t, err, app.CodeNotFound)
	}
	trash := must(f.svc.Documents(f.ctx, f.admin, app.DocumentListQuery{Deleted: true}))(t)
	if len(trash.Items) != 3 {
		t.Errorf("trash holds %d documents, want 3", len(trash.Items))
	}
	f.clock.Advance(time.Minute)
	must(f.svc.RestoreDocument(f.ctx, f.admin, "", ref(other.Ref)))(t)
	must(f.svc.DocumentGet(f.ctx, f.admin, "", ref(leaf.Ref)))(t)
	_, err = f.svc.RestoreDocument(f.ctx, f.admin, "", ref(other.Ref))
	wantCode(t, err, app.CodeNotFound)
}

func TestDocumentDisclosure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	hidden := f.doc(f.admin, app.DocumentCreate{Title: "hidden", Project: "secret"})
	seen := f.doc(f.admin, app.DocumentCreate{Title: "seen"})

	for _, r := range []string{ref(hidden.Ref), hidden.ID} {
		_, err := f.svc.DocumentGet(f.ctx, bob, "", r)
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.UpdateDocument(f.ctx, bob, "", r, app.DocumentUpdate{Title: app.PatchOf("x")})
		wantCode(t, err, app.CodeNotFound)
		_, err = f.svc.DeleteDocument(f.ctx, bob, "", r)
		wantCode(t, err, app.CodeNotFound)
	}
	list := must(f.svc.Documents(f.ctx, bob, app.DocumentListQuery{}))(t)
	if len(list.Items) != 1 || list.Items[0].ID != seen.ID {
		t.Errorf("bob lists %d documents, want only %q", len(list.Items), seen.Title)
	}
	_, err := f.svc.CreateDocument(f.ctx, bob, "", app.DocumentCreate{Title: "x", Parent: app.FlexRef(ref(hidden.Ref))})
	wantCode(t, err, app.CodeValidation)
}
