package app_test

import (
	"testing"

	"tend/app"
)

// comment adds a comment to the task at r as a.
func (f *fixture) comment(a app.Actor, r int64, body string) app.Comment {
	f.t.Helper()
	return must(f.svc.AddComment(f.ctx, a, "", "task", ref(r), app.CommentCreate{Body: body}))(f.t)
}

// wantComments fails the test unless the live comments on the task at r
// have the bodies want, in any order.
func (f *fixture) wantComments(r int64, want ...string) {
	f.t.Helper()
	got := []string{}
	for _, c := range must(f.svc.ItemComments(f.ctx, f.admin, "", "task", ref(r), app.CommentQuery{}))(f.t).Items {
		got = append(got, c.Body)
	}
	if !sameSet(got, want) {
		f.t.Errorf("comments %q, want %q", got, want)
	}
}

func TestCommentAdd(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	task := f.task(f.admin, app.TaskCreate{Title: "a"})
	spec := f.doc(f.admin, app.DocumentCreate{Title: "spec", Type: "spec"})

	c := f.comment(bob, task.Ref, "looks good")
	if c.Author != "bob" || c.Body != "looks good" || c.Version != 1 || c.EntityType != "task" || c.EntityID != task.ID {
		t.Errorf("comment %+v", c)
	}
	must(f.svc.AddComment(f.ctx, f.admin, "", "document", ref(spec.Ref), app.CommentCreate{Body: "on the spec"}))(t)
	must(f.svc.AddComment(f.ctx, f.admin, "", "project", "secret", app.CommentCreate{Body: "on the project"}))(t)

	// on addresses a comment to an item.
	type on struct {
		entity, item string
		in           app.CommentCreate
	}
	body := func(b string) app.CommentCreate { return app.CommentCreate{Body: b} }
	wantRefused(t, []refused[on]{
		{"an empty body", f.admin, on{"task", ref(task.Ref), body("  \n")}, app.CodeValidation, "body.body"},
		{"a parent", f.admin, on{"task", ref(task.Ref), app.CommentCreate{Body: "x", NamesParent: true}}, app.CodeValidation, "body.parent"},
		{"a viewer", viewer, on{"task", ref(task.Ref), body("x")}, app.CodeForbidden, ""},
		{"a task the caller cannot see", bob, on{"task", ref(hidden.Ref), body("x")}, app.CodeNotFound, ""},
		{"a project the caller cannot see", bob, on{"project", "secret", body("x")}, app.CodeNotFound, ""},
		{"no such task", f.admin, on{"task", "99999", body("x")}, app.CodeNotFound, ""},
	}, func(a app.Actor, in on) error {
		return errOf(f.svc.AddComment(f.ctx, a, "", in.entity, in.item, in.in))
	})
	f.wantComments(task.Ref, "looks good")
}

func TestCommentUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleMember)
	task := f.task(f.admin, app.TaskCreate{Title: "a"})
	c := f.comment(bob, task.Ref, "first words")

	got := must(f.svc.UpdateComment(f.ctx, bob, c.ID, app.CommentUpdate{Body: app.PatchOf("second words"), ExpectedVersion: ptr(1)}))(t)
	if got.Body != "second words" || got.Version != 2 {
		t.Errorf("updated %+v, want the new body at version 2", got)
	}
	// The same body again changes nothing.
	if got := must(f.svc.UpdateComment(f.ctx, bob, c.ID, app.CommentUpdate{Body: app.PatchOf("second words")}))(t); got.Version != 2 {
		t.Errorf("an unchanged body moved the version to %d", got.Version)
	}
	gone := f.comment(bob, task.Ref, "to withdraw")
	wantCode(t, f.svc.DeleteComment(f.ctx, bob, gone.ID), "")

	// change is a change to the comment with id.
	type change struct {
		id string
		in app.CommentUpdate
	}
	to := func(b string) app.CommentUpdate { return app.CommentUpdate{Body: app.PatchOf(b)} }
	wantRefused(t, []refused[change]{
		{"an empty body", bob, change{c.ID, to(" ")}, app.CodeValidation, "body.body"},
		{"a parent", bob, change{c.ID, app.CommentUpdate{NamesParent: true}}, app.CodeValidation, "body.parent"},
		{"another's comment", carol, change{c.ID, to("mine now")}, app.CodeNotCommentAuthor, ""},
		{"an administrator, not its author", f.admin, change{c.ID, to("x")}, app.CodeNotCommentAuthor, ""},
		{"a stale version", bob, change{c.ID, app.CommentUpdate{Body: app.PatchOf("x"), ExpectedVersion: ptr(1)}}, app.CodeVersionConflict, ""},
		{"a withdrawn comment", bob, change{gone.ID, to("x")}, app.CodeNotFound, ""},
		{"no such comment", bob, change{"no-such-comment", to("x")}, app.CodeNotFound, ""},
	}, func(a app.Actor, in change) error { return errOf(f.svc.UpdateComment(f.ctx, a, in.id, in.in)) })
	f.wantComments(task.Ref, "second words")
}

func TestCommentDelete(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleMember)
	hidden := f.secretTask()
	task := f.task(f.admin, app.TaskCreate{Title: "a"})
	mine := f.comment(bob, task.Ref, "bob's")
	carols := f.comment(carol, task.Ref, "carol's")
	secret := f.comment(f.admin, hidden.Ref, "in the secret project")
	kept := f.comment(bob, task.Ref, "kept")

	wantRefused(t, []refused[string]{
		{"a viewer, not its author", viewer, kept.ID, app.CodeForbidden, ""},
		{"on a task the caller cannot see", bob, secret.ID, app.CodeNotFound, ""},
		{"no such comment", bob, "no-such-comment", app.CodeNotFound, ""},
		// Its author may, and so may anybody able to change the task.
		{"its author", bob, mine.ID, "", ""},
		{"a member, not its author", bob, carols.ID, "", ""},
		{"one withdrawn already", bob, mine.ID, app.CodeNotFound, ""},
	}, func(a app.Actor, id string) error { return f.svc.DeleteComment(f.ctx, a, id) })
	f.wantComments(task.Ref, "kept")
}

func TestCommentWithdrawByWords(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleMember)
	hidden := f.secretTask()
	task := f.task(f.admin, app.TaskCreate{Title: "a"})
	f.comment(bob, task.Ref, "The build is green")
	f.comment(bob, task.Ref, "The build is red")
	f.comment(carol, task.Ref, "Carol thinks the deploy is late")

	got := must(f.svc.WithdrawCommentByWords(f.ctx, bob, "", "task", ref(task.Ref), "BUILD green"))(t)
	if got.Body != "The build is green" || got.DeletedAt == nil {
		t.Errorf("withdrew %+v, want the green one, deleted", got)
	}

	f.comment(bob, task.Ref, "The build is red again")
	// words names a comment on the task at item by words from it.
	type words struct{ item, words string }
	wantRefused(t, []refused[words]{
		{"no words", bob, words{ref(task.Ref), " "}, app.CodeValidation, "body.body"},
		{"words in none of the caller's comments", bob, words{ref(task.Ref), "deploy"}, app.CodeNotFound, ""},
		{"words in a comment withdrawn already", bob, words{ref(task.Ref), "green"}, app.CodeNotFound, ""},
		{"words in several", bob, words{ref(task.Ref), "red"}, app.CodeAmbiguous, ""},
		{"a task the caller cannot see", bob, words{ref(hidden.Ref), "red"}, app.CodeNotFound, ""},
	}, func(a app.Actor, in words) error {
		return errOf(f.svc.WithdrawCommentByWords(f.ctx, a, "", "task", in.item, in.words))
	})
	t.Run("the ambiguity quotes each match", func(t *testing.T) {
		_, err := f.svc.WithdrawCommentByWords(f.ctx, bob, "", "task", ref(task.Ref), "red")
		if m, _ := app.AsError(err).Extra["matches"].([]string); len(m) != 2 {
			t.Errorf("matches %v, want the two red ones", app.AsError(err).Extra["matches"])
		}
	})
	want := []string{"The build is red", "Carol thinks the deploy is late", "The build is red again"}
	f.wantComments(task.Ref, want...)
}
