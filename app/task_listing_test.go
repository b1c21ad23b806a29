package app_test

import (
	"slices"
	"testing"
	"time"

	"tend/app"
)

// TestTaskListing reads one seeded workspace through every filter family;
// the subtests only read, so they share the file.
func TestTaskListing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.projects(
		app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "ui", Parent: "web"}, app.ProjectCreate{Key: "api"},
		app.ProjectCreate{Key: "secret", Visibility: "private"},
	)
	alpha := f.task(f.admin, app.TaskCreate{Title: "alpha report", Project: "web", Tags: []string{"ops"}, Type: "bug",
		Importance: ptr(5), Assignee: "bob", DueAt: ptr(day("2026-03-05")), DueIsAllDay: true})
	beta := f.task(f.admin, app.TaskCreate{Title: "beta", Project: "ui", Status: "in_progress", DueAt: ptr(day("2026-03-03"))})
	gamma := f.task(f.admin, app.TaskCreate{Title: "gamma", Project: "api", Status: "done"})
	delta := f.task(f.admin, app.TaskCreate{Title: "delta", Tags: []string{"OPS", "home"}})
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(delta.Ref), app.TaskUpdate{SnoozedUntil: app.PatchOf(day("2026-03-10"))}))(t)
	blocked := f.task(f.admin, app.TaskCreate{Title: "epsilon waits", Description: "the report is late"})
	blocker := f.task(f.admin, app.TaskCreate{Title: "zeta"})
	must(f.svc.AddLinks(f.ctx, f.admin, "", app.LinkSet{Entity: "task", Refs: []string{ref(blocker.Ref)}, LinkType: "blocks",
		Others: []string{ref(blocked.Ref)}}))(t)
	must(f.svc.ClaimTask(f.ctx, bob, "", ref(blocker.Ref), ptr(240)))(t)
	child := f.task(f.admin, app.TaskCreate{Title: "alpha child", Parent: app.FlexRef(ref(alpha.Ref))})
	hidden := f.task(f.admin, app.TaskCreate{Title: "hidden report", Project: "secret"})
	f.clock.Advance(time.Hour)

	open := []int64{alpha.Ref, beta.Ref, delta.Ref, blocked.Ref, blocker.Ref, child.Ref, hidden.Ref}
	cases := []struct {
		name string
		a    app.Actor
		q    app.TaskListQuery
		want []int64
	}{
		{"open work by ref", f.admin, app.TaskListQuery{}, open},
		{"finished work too", f.admin, app.TaskListQuery{IncludeCompleted: ptr(true)},
			[]int64{alpha.Ref, beta.Ref, gamma.Ref, delta.Ref, blocked.Ref, blocker.Ref, child.Ref, hidden.Ref}},
		{"what another member may see", bob, app.TaskListQuery{}, []int64{alpha.Ref, beta.Ref, delta.Ref, blocked.Ref, blocker.Ref, child.Ref}},
		{"a project and everything under it", f.admin, app.TaskListQuery{Project: "web"}, []int64{alpha.Ref, beta.Ref, child.Ref}},
		{"a status", f.admin, app.TaskListQuery{Status: "in_progress"}, []int64{beta.Ref}},
		{"a finished status category", f.admin, app.TaskListQuery{StatusCategory: "done"}, []int64{gamma.Ref}},
		{"a tag, in any case", f.admin, app.TaskListQuery{Tag: "Ops"}, []int64{alpha.Ref, delta.Ref}},
		{"a tag nobody uses", f.admin, app.TaskListQuery{Tag: "nothing"}, []int64{}},
		{"a type", f.admin, app.TaskListQuery{Type: "bug"}, []int64{alpha.Ref}},
		{"assigned to me", bob, app.TaskListQuery{Assignee: "me"}, []int64{alpha.Ref}},
		{"claimed by", f.admin, app.TaskListQuery{ClaimedBy: "bob"}, []int64{blocker.Ref}},
		{"a parent", f.admin, app.TaskListQuery{Parent: ref(alpha.Ref)}, []int64{child.Ref}},
		{"deferred only", f.admin, app.TaskListQuery{Deferred: "only"}, []int64{delta.Ref}},
		{"deferred left out", f.admin, app.TaskListQuery{Deferred: "exclude"},
			[]int64{alpha.Ref, beta.Ref, blocked.Ref, blocker.Ref, child.Ref, hidden.Ref}},
		{"ready: not blocked, deferred or held by another", f.admin, app.TaskListQuery{Ready: true},
			[]int64{alpha.Ref, beta.Ref, child.Ref, hidden.Ref}},
		{"to act on", bob, app.TaskListQuery{ToActOn: true}, []int64{alpha.Ref, beta.Ref, delta.Ref, blocked.Ref, blocker.Ref, child.Ref}},
		{"to act on: assigned to the caller or nobody", f.admin, app.TaskListQuery{ToActOn: true},
			[]int64{beta.Ref, delta.Ref, blocked.Ref, blocker.Ref, child.Ref, hidden.Ref}},
		{"words, in the title or the description", f.admin, app.TaskListQuery{Q: "report", Order: "ref"},
			[]int64{alpha.Ref, blocked.Ref, hidden.Ref}},
		{"words another may not see", bob, app.TaskListQuery{Q: "report", Order: "ref"}, []int64{alpha.Ref, blocked.Ref}},
		{"due before, as a day", f.admin, app.TaskListQuery{DueBefore: "2026-03-04"}, []int64{beta.Ref}},
		{"ordered by due, undated last", f.admin, app.TaskListQuery{Order: "due_at", Project: "web"}, []int64{beta.Ref, alpha.Ref, child.Ref}},
		{"ordered by importance, descending", f.admin, app.TaskListQuery{Order: "-importance,ref", Project: "web"},
			[]int64{alpha.Ref, beta.Ref, child.Ref}},
		{"a field filter", f.admin, app.TaskListQuery{Filter: map[string]string{"importance.gte": "4"}}, []int64{alpha.Ref}},
		{"a field filter on what is unset", f.admin, app.TaskListQuery{Filter: map[string]string{"tag.is": "unset", "project": "web"}},
			[]int64{beta.Ref, child.Ref}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := must(f.svc.Tasks(f.ctx, c.a, c.q))(t)
			if !slices.Equal(refs(got.Items), c.want) {
				t.Errorf("got %v, want %v", refs(got.Items), c.want)
			}
		})
	}

	tool := app.Locator(func(key string) string { return "arguments.filter." + key })
	refused := []struct {
		name string
		q    app.TaskListQuery
		code app.Code
		loc  string
	}{
		{"an unknown project", app.TaskListQuery{Project: "nope"}, app.CodeValidation, "query.project"},
		{"a project hidden from the caller", app.TaskListQuery{Project: "secret"}, app.CodeValidation, "query.project"},
		{"an unknown status", app.TaskListQuery{Status: "nope"}, app.CodeValidation, "query.status"},
		{"an unknown status category", app.TaskListQuery{StatusCategory: "nope"}, app.CodeValidation, "query.status_category"},
		{"an unknown order", app.TaskListQuery{Order: "colour"}, app.CodeValidation, "query.order"},
		{"a negative limit", app.TaskListQuery{Limit: -1}, app.CodeValidation, "query.limit"},
		{"subtree without a parent", app.TaskListQuery{Subtree: true}, app.CodeValidation, "query.subtree"},
		{"deferred sometimes", app.TaskListQuery{Deferred: "sometimes"}, app.CodeValidation, "query.deferred"},
		{"an unknown field filter", app.TaskListQuery{Filter: map[string]string{"colour.gt": "red"}}, app.CodeValidation, "query.colour.gt"},
		{"a cursor that is not one", app.TaskListQuery{Cursor: "nonsense"}, app.CodeValidation, "query.cursor"},
		// A Locator names each parameter where its caller wrote it.
		{"an unknown project, located", app.TaskListQuery{Project: "nope", Loc: tool}, app.CodeValidation, "arguments.filter.project"},
		{"an unknown order, located", app.TaskListQuery{Order: "colour", Loc: tool}, app.CodeValidation, "arguments.filter.order"},
		{"an unknown field filter, located", app.TaskListQuery{Filter: map[string]string{"colour.gt": "red"}, Loc: tool},
			app.CodeValidation, "arguments.filter.colour.gt"},
		{"a time filter that is no time, located", app.TaskListQuery{Filter: map[string]string{"due_at.gte": "someday"}, Loc: tool},
			app.CodeValidation, "arguments.filter.due_at.gte"},
		{"a search term naming nothing, located", app.TaskListQuery{Q: "status:nope", Loc: tool}, app.CodeValidation, "arguments.filter.q"},
		{"an unknown assignee, located", app.TaskListQuery{Assignee: "nobody", Loc: tool}, app.CodeValidation, "arguments.filter.assignee"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := f.svc.Tasks(f.ctx, bob, c.q)
			wantRefusal(t, err, c.code, c.loc)
		})
	}

	t.Run("pages", func(t *testing.T) {
		t.Parallel()
		var got []int64
		q := app.TaskListQuery{Limit: 3, IncludeTotal: true}
		for pages := 0; ; pages++ {
			page := must(f.svc.Tasks(f.ctx, f.admin, q))(t)
			got = append(got, refs(page.Items)...)
			if *page.Page.Total != len(open) {
				t.Errorf("total %d, want %d", *page.Page.Total, len(open))
			}
			if !page.Page.HasMore {
				break
			}
			if pages > len(open) {
				t.Fatal("the pages do not end")
			}
			q.Cursor = page.Page.NextCursor
		}
		if !slices.Equal(got, open) {
			t.Errorf("paged %v, want %v", got, open)
		}
		first := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Limit: 1}))(t)
		_, err := f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Limit: 1, Tag: "ops", Cursor: first.Page.NextCursor})
		wantCode(t, err, app.CodeValidation)
		wantField(t, err, "query.cursor")
	})
	t.Run("grouped by status category", func(t *testing.T) {
		t.Parallel()
		got := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{GroupBy: "status_category", Project: "api"}))(t)
		var keys []string
		for _, g := range got.Groups {
			keys = append(keys, g.Key)
			if want := map[string][]int64{"done": {gamma.Ref}}[g.Key]; !slices.Equal(refs(g.Items), append([]int64{}, want...)) {
				t.Errorf("group %s: %v, want %v", g.Key, refs(g.Items), want)
			}
		}
		if !slices.Equal(keys, app.StatusCategories) {
			t.Errorf("groups %v, want %v", keys, app.StatusCategories)
		}
	})
}
