package app_test

import (
	"slices"
	"testing"

	"tend/app"
)

// actions lists the actions of a page of events, in order.
func actions[E any](es []E, action func(E) string) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, action(e))
	}
	return out
}

func journalAction(e app.JournalEntry) string { return e.Action }

func TestJournal(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	carol := f.person("carol", app.RoleMember)
	f.secretTask()
	task := f.task(bob, app.TaskCreate{Title: "bob's"})
	f.comment(carol, task.Ref, "carol says hi")
	f.doc(bob, app.DocumentCreate{Title: "a note", Type: "note"})

	newest := must(f.svc.Journal(f.ctx, bob, app.FeedQuery{Limit: 2, IncludeTotal: true}))(t)
	if got := actions(newest.Items, journalAction); !slices.Equal(got, []string{"document.created", "comment.created"}) {
		t.Errorf("newest first %v", got)
	}
	if said := newest.Items[1]; said.Actor != "carol" || said.Said == nil || *said.Said != "carol says hi" {
		t.Errorf("the comment's entry: actor %q, said %v", said.Actor, said.Said)
	}
	if !newest.Page.HasMore || newest.Page.Total == nil || *newest.Page.Total < 3 {
		t.Errorf("page %+v, want more and a total", newest.Page)
	}
	// The next page goes on where the first stopped; the hidden task is in none.
	rest := must(f.svc.Journal(f.ctx, bob, app.FeedQuery{Limit: 100, Cursor: newest.Page.NextCursor}))(t)
	all := append(newest.Items, rest.Items...)
	for _, e := range all {
		if e.ItemTitle == "hidden" {
			t.Errorf("bob reads %s of the hidden task", e.Action)
		}
	}
	if got := actions(all, journalAction); got[2] != "task.created" {
		t.Errorf("after the first page %v, want bob's task created next", got)
	}
	oldest := must(f.svc.Journal(f.ctx, bob, app.FeedQuery{Oldest: true, Actor: "carol"}))(t)
	if got := actions(oldest.Items, journalAction); !slices.Equal(got, []string{"comment.created"}) {
		t.Errorf("carol's, oldest first: %v", got)
	}

	wantRefused(t, []refused[app.FeedQuery]{
		{"a negative limit", bob, app.FeedQuery{Limit: -1}, app.CodeValidation, "query.limit"},
		{"another query's cursor", bob, app.FeedQuery{Oldest: true, Cursor: newest.Page.NextCursor}, app.CodeValidation, "query.cursor"},
		{"a workspace the caller is not in", bob, app.FeedQuery{Workspace: "nowhere"}, app.CodeNotFound, ""},
	}, func(a app.Actor, q app.FeedQuery) error {
		_, err := f.svc.Journal(f.ctx, a, q)
		return err
	})
}

func TestDocumentEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	hiddenTask := f.secretTask()
	doc := f.doc(f.admin, app.DocumentCreate{Title: "the spec", Type: "spec"})
	hidden := f.doc(f.admin, app.DocumentCreate{Title: "hidden", Type: "spec", Project: "secret"})
	must(f.svc.AddComment(f.ctx, bob, "", "document", ref(doc.Ref), app.CommentCreate{Body: "reviewed"}))(t)
	task := f.task(f.admin, app.TaskCreate{Title: "a task"})
	for _, r := range []int64{task.Ref, hiddenTask.Ref} {
		must(f.svc.AddLinks(f.ctx, f.admin, "", app.LinkSet{Entity: "document", Refs: []string{ref(doc.Ref)}, LinkType: "documents",
			Others: []string{ref(r)}, OtherType: "task"}))(t)
	}

	eventAction := func(e app.Event) string { return e.Action }
	got := must(f.svc.DocumentEvents(f.ctx, bob, "", ref(doc.Ref), app.EventQuery{Oldest: true, Named: true}))(t)
	// The link to the hidden task is left out of bob's history.
	if want := []string{"document.created", "comment.created", "link.created"}; !slices.Equal(actions(got.Items, eventAction), want) {
		t.Errorf("history %v, want %v", actions(got.Items, eventAction), want)
	}
	if got.Actors[bob.User.ID] != "bob" {
		t.Errorf("actors %v, want bob named", got.Actors)
	}
	if first := must(f.svc.DocumentEvents(f.ctx, bob, "", ref(doc.Ref), app.EventQuery{Oldest: true, Limit: 1}))(t); !first.Page.HasMore ||
		!slices.Equal(actions(first.Items, eventAction), []string{"document.created"}) {
		t.Errorf("oldest first, one a page: %v, more %v", actions(first.Items, eventAction), first.Page.HasMore)
	}
	graphRefused(t, f, bob, hidden.Ref, func(a app.Actor, item string) error {
		_, err := f.svc.DocumentEvents(f.ctx, a, "", item, app.EventQuery{})
		return err
	})
	_, err := f.svc.DocumentEvents(f.ctx, bob, "", ref(doc.Ref), app.EventQuery{Limit: -1})
	wantRefusal(t, err, app.CodeValidation, "query.limit")
}
