package app_test

import (
	"testing"

	"tend/app"
)

func TestSearchItems(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.secretTask()
	f.task(f.admin, app.TaskCreate{Title: "pay the invoice", Project: "secret"})
	open := f.task(f.admin, app.TaskCreate{Title: "send the invoice"})
	done := f.task(f.admin, app.TaskCreate{Title: "file the invoice"})
	must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(done.Ref), app.Completion{}))(t)
	f.task(f.admin, app.TaskCreate{Title: "water the plants"})
	decision := f.doc(f.admin, app.DocumentCreate{Title: "invoices go out monthly", Type: "decision", Body: ptr("every invoice on the 1st")})

	// Open and finished alike, what the caller may read, tasks and documents.
	got := must(f.svc.SearchItems(f.ctx, bob, app.ItemSearchQuery{Q: "invoice"}))(t)
	if !sameSet(refs(got.Tasks), []int64{open.Ref, done.Ref}) || len(got.Documents) != 1 || got.Documents[0].Ref != decision.Ref {
		t.Errorf("bob finds tasks %v and %d documents", refs(got.Tasks), len(got.Documents))
	}
	if page := must(f.svc.SearchItems(f.ctx, bob, app.ItemSearchQuery{Q: "invoice", Limit: 1}))(t); len(page.Tasks) != 1 || !page.TasksMore {
		t.Errorf("one a page: %d tasks, more %v", len(page.Tasks), page.TasksMore)
	}
	// A term only documents know narrows the search to documents.
	if docs := must(f.svc.SearchItems(f.ctx, bob, app.ItemSearchQuery{Q: "invoice type:decision"}))(t); len(docs.Tasks) != 0 || len(docs.Documents) != 1 {
		t.Errorf("type:decision found %d tasks and %d documents", len(docs.Tasks), len(docs.Documents))
	}

	wantRefused(t, []refused[app.ItemSearchQuery]{
		{"no words", bob, app.ItemSearchQuery{}, app.CodeValidation, "arguments.q"},
		{"a negative limit", bob, app.ItemSearchQuery{Q: "invoice", Limit: -1}, app.CodeValidation, "query.limit"},
		{"a term neither kind knows", bob, app.ItemSearchQuery{Q: "type:nonsense"}, app.CodeValidation, ""},
		{"a project the caller cannot see", bob, app.ItemSearchQuery{Q: "invoice", Project: "secret"}, app.CodeValidation, ""},
		{"a workspace the caller is not in", bob, app.ItemSearchQuery{Q: "invoice", Workspace: "nowhere"}, app.CodeNotFound, ""},
	}, func(a app.Actor, q app.ItemSearchQuery) error {
		_, err := f.svc.SearchItems(f.ctx, a, q)
		return err
	})
}
