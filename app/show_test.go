package app_test

import (
	"strings"
	"testing"

	"tend/app"
)

func TestAddVerification(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	bob := f.person("bob", app.RoleMember)
	task := f.task(f.admin, app.TaskCreate{Title: "ship it"})
	yes, no := true, false

	v := must(f.svc.AddVerification(f.ctx, bob, "", ref(task.Ref), app.RecordVerification{Passed: &yes, Summary: ptr("tests pass"), CommitSHA: ptr("abc123")}))(t)
	if !v.Passed || v.Summary != "tests pass" || v.CommitSHA != "abc123" || v.Actor != "bob" || !v.RanAt.Equal(f.clock.Now()) {
		t.Errorf("verification %+v", v)
	}
	must(f.svc.AddVerification(f.ctx, bob, "", ref(task.Ref), app.RecordVerification{Passed: &no}))(t)

	wantRefused(t, []refused[app.RecordVerification]{
		{"no passed", bob, app.RecordVerification{Summary: ptr("x")}, app.CodeValidation, "body.passed"},
		{"a summary over its limit", bob, app.RecordVerification{Passed: &yes, Summary: ptr(strings.Repeat("x", 100_000))}, app.CodeValidation, "body.summary"},
		{"a viewer", viewer, app.RecordVerification{Passed: &yes}, app.CodeForbidden, ""},
	}, func(a app.Actor, in app.RecordVerification) error {
		return errOf(f.svc.AddVerification(f.ctx, a, "", ref(task.Ref), in))
	})
	_, err := f.svc.AddVerification(f.ctx, bob, "", "99999", app.RecordVerification{Passed: &yes})
	wantCode(t, err, app.CodeNotFound)
	if vs := must(f.svc.Verifications(f.ctx, f.admin, "", ref(task.Ref)))(t); len(vs) != 2 || vs[1].ID != v.ID {
		t.Errorf("%d verifications, want the two recorded, newest first", len(vs))
	}
}

func TestShowItem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	task := f.task(f.admin, app.TaskCreate{Title: "the task"})
	f.task(f.admin, app.TaskCreate{Title: "a subtask", Parent: app.FlexRef(ref(task.Ref))})
	next := f.task(f.admin, app.TaskCreate{Title: "after it"})
	spec := f.doc(f.admin, app.DocumentCreate{Title: "the spec", Type: "spec", Status: "current"})
	f.documents(spec.Ref, task.Ref)
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", task.Ref, next.Ref, hidden.Ref)))(t)
	f.comment(bob, task.Ref, "on it")
	yes := true
	must(f.svc.AddVerification(f.ctx, bob, "", ref(task.Ref), app.RecordVerification{Passed: &yes}))(t)

	plain := must(f.svc.ShowItem(f.ctx, bob, "", ref(task.Ref), app.ShowQuery{}))(t)
	if plain.Kind != "task" || plain.Task.Ref != task.Ref || len(plain.Subtasks) != 1 || plain.Task.SubTasksDone() || plain.CommentsTotal != 1 ||
		plain.VerificationsTotal != 1 || len(plain.Governing) != 1 || plain.History != nil || plain.Tree != nil {
		t.Errorf("show: kind %s, %d subtasks, %d comments, %d verifications, %d governing, history %v, tree %v", plain.Kind,
			len(plain.Subtasks), plain.CommentsTotal, plain.VerificationsTotal, len(plain.Governing), plain.History, plain.Tree)
	}
	// The link to the hidden task is left out of bob's links.
	if got := linkLabels(plain.Links); len(got) != 2 || got["outgoing blocks"] != next.Ref {
		t.Errorf("bob reads the links %v", got)
	}

	full := must(f.svc.ShowItem(f.ctx, bob, "", ref(task.Ref), app.ShowQuery{History: true, Named: true, Tree: true}))(t)
	if len(full.History) == 0 || full.Actors[bob.User.ID] != "bob" || len(full.Tree) != 1 || full.Tree[0].Item.Ref() != next.Ref {
		t.Errorf("with history and tree: %d events, actors %v, tree %+v", len(full.History), full.Actors, full.Tree)
	}
	if doc := must(f.svc.ShowItem(f.ctx, bob, "", ref(spec.Ref), app.ShowQuery{}))(t); doc.Kind != "document" || doc.Document.Ref != spec.Ref {
		t.Errorf("the spec shows as a %s, #%d", doc.Kind, doc.Document.Ref)
	}
	graphRefused(t, f, bob, hidden.Ref, func(a app.Actor, item string) error {
		return errOf(f.svc.ShowItem(f.ctx, a, "", item, app.ShowQuery{}))
	})
}
