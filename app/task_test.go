package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

func TestTaskCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	f.person("stranger", "")
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "api"})
	parent := f.task(f.admin, app.TaskCreate{Title: "Parent", Project: "web"})

	ok := []struct {
		name  string
		in    app.TaskCreate
		check func(t *testing.T, got app.Task)
	}{
		{"defaults", app.TaskCreate{Title: "  Plain  "}, func(t *testing.T, got app.Task) {
			if got.Title != "Plain" || got.Type.Key != "task" || got.Status.Key != "todo" || got.ProjectKey != "inbox" ||
				got.Version != 1 || got.CompletedAt != nil || !got.CreatedAt.Equal(storetest.Epoch) {
				t.Errorf("got %+v", got)
			}
		}},
		{"structured fields", app.TaskCreate{Title: "Fix it", Project: "web", Type: "bug", Status: "in_progress",
			Tags: []string{"#ops", "Ops", "ui"}, Assignee: "bob", Importance: ptr(5), Urgency: ptr(1), EstimateMinutes: ptr(90)},
			func(t *testing.T, got app.Task) {
				if got.ProjectKey != "web" || got.Type.Key != "bug" || got.Status.Key != "in_progress" || got.Assignee != "bob" ||
					*got.Importance != 5 || *got.Urgency != 1 || *got.EstimateMinutes != 90 {
					t.Errorf("got %+v", got)
				}
				if want := []string{"ops", "ui"}; !slices.Equal(got.Tags, want) {
					t.Errorf("tags %v, want %v", got.Tags, want)
				}
			}},
		{"a finished status completes it", app.TaskCreate{Title: "Old", Status: "done"}, func(t *testing.T, got app.Task) {
			if !got.IsComplete() || got.CompletedAt == nil {
				t.Errorf("got %+v", got)
			}
		}},
		{"the line's markers", app.TaskCreate{Text: "Call the bank tomorrow !4/3 ~30m #finance +api"}, func(t *testing.T, got app.Task) {
			wantDue := day("2026-03-03")
			if got.Title != "Call the bank" || got.ProjectKey != "api" || *got.Importance != 4 || *got.Urgency != 3 ||
				*got.EstimateMinutes != 30 || got.DueAt == nil || !got.DueAt.Equal(wantDue) || !got.DueIsAllDay {
				t.Errorf("got %+v", got)
			}
			if want := []string{"finance"}; !slices.Equal(got.Tags, want) {
				t.Errorf("tags %v, want %v", got.Tags, want)
			}
		}},
		{"structured fields win over the line", app.TaskCreate{Text: "Call the bank +api", Title: "Own title", Project: "web"},
			func(t *testing.T, got app.Task) {
				if got.Title != "Own title" || got.ProjectKey != "web" {
					t.Errorf("got %q in %s", got.Title, got.ProjectKey)
				}
			}},
		{"a subtask lands in its parent's project", app.TaskCreate{Title: "Child", Parent: app.FlexRef(ref(parent.Ref))},
			func(t *testing.T, got app.Task) {
				if got.ProjectKey != "web" || got.ParentID != parent.ID {
					t.Errorf("got project %s parent %s", got.ProjectKey, got.ParentID)
				}
			}},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.CreateTask(f.ctx, f.admin, "", c.in)
			wantCode(t, err, "")
			c.check(t, got)
			read := must(f.svc.TaskGet(f.ctx, f.admin, "", got.ID))(t)
			if read.Ref != got.Ref || read.Title != got.Title || read.ProjectKey != got.ProjectKey || !slices.Equal(read.Tags, got.Tags) {
				t.Errorf("read back %+v, created %+v", read, got)
			}
		})
	}

	refused := []struct {
		name string
		in   app.TaskCreate
		code app.Code
		loc  string
	}{
		{"no title", app.TaskCreate{Title: "  "}, app.CodeValidation, "body.title"},
		{"title too long", app.TaskCreate{Title: strings.Repeat("x", 501)}, app.CodeValidation, "body.title"},
		{"importance out of range", app.TaskCreate{Title: "x", Importance: ptr(6)}, app.CodeValidation, "body.importance"},
		{"importance 0", app.TaskCreate{Title: "x", Importance: ptr(0)}, app.CodeValidation, "body.importance"},
		{"urgency out of range", app.TaskCreate{Title: "x", Urgency: ptr(9)}, app.CodeValidation, "body.urgency"},
		{"negative estimate", app.TaskCreate{Title: "x", EstimateMinutes: ptr(-1)}, app.CodeValidation, "body.estimate_minutes"},
		{"unknown timezone", app.TaskCreate{Title: "x", Timezone: "Mars/Base"}, app.CodeValidation, "body.timezone"},
		{"bad tag", app.TaskCreate{Title: "x", Tags: []string{"-no"}}, app.CodeValidation, "body.tags"},
		{"unknown project", app.TaskCreate{Title: "x", Project: "nope"}, app.CodeValidation, "body.project"},
		{"unknown parent", app.TaskCreate{Title: "x", Parent: "9999"}, app.CodeValidation, "body.parent"},
		{"parent in another project", app.TaskCreate{Title: "x", Parent: app.FlexRef(ref(parent.Ref)), Project: "api"},
			app.CodeValidation, "body.project"},
		{"unknown type", app.TaskCreate{Title: "x", Type: "note"}, app.CodeValidation, "body.type"},
		{"unknown status", app.TaskCreate{Title: "x", Status: "current"}, app.CodeValidation, "body.status"},
		{"assignee outside the workspace", app.TaskCreate{Title: "x", Assignee: "stranger"}, app.CodeValidation, "body.assignee"},
		{"assignee unknown", app.TaskCreate{Title: "x", Assignee: "nobody"}, app.CodeValidation, "body.assignee"},
		{"repeat that does not parse", app.TaskCreate{Title: "x", Repeat: "every fortnightly moon"}, app.CodeRecurrence, "body.repeat"},
		{"a line of markers only", app.TaskCreate{Text: "tomorrow #x"}, app.CodeValidation, "body.text"},
		{"due beyond the years stored", app.TaskCreate{Title: "x", DueAt: ptr(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC))},
			app.CodeInstantOutOfRange, "body.due_at"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateTask(f.ctx, f.admin, "", c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}
}

func TestTaskRefs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	d := f.doc(f.admin, app.DocumentCreate{Title: "d"})
	b := f.task(f.admin, app.TaskCreate{Title: "b"})
	// Tasks and documents share one counter per workspace.
	if got, want := []int64{a.Ref, d.Ref, b.Ref}, []int64{a.Ref, a.Ref + 1, a.Ref + 2}; !slices.Equal(got, want) {
		t.Errorf("refs %v, want %v", got, want)
	}
	for _, idOrRef := range []string{ref(b.Ref), b.ID} {
		got := must(f.svc.TaskGet(f.ctx, f.admin, "", idOrRef))(t)
		if got.ID != b.ID {
			t.Errorf("TaskGet(%s) = %s, want %s", idOrRef, got.ID, b.ID)
		}
	}
	// A document's ref names no task.
	_, err := f.svc.TaskGet(f.ctx, f.admin, "", ref(d.Ref))
	wantCode(t, err, app.CodeNotFound)
}

// TestTaskDisclosure checks that a task in a project the caller may not
// see answers every call exactly as a task that does not exist.
func TestTaskDisclosure(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	hidden := f.secretTask()
	seen := f.task(f.admin, app.TaskCreate{Title: "seen"})
	trashed := f.task(f.admin, app.TaskCreate{Title: "trashed"})
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(trashed.Ref)))(t)

	calls := map[string]func(a app.Actor, idOrRef string) error{
		"get": func(a app.Actor, r string) error { return errOf(f.svc.TaskGet(f.ctx, a, "", r)) },
		"update": func(a app.Actor, r string) error {
			return errOf(f.svc.UpdateTask(f.ctx, a, "", r, app.TaskUpdate{Title: app.PatchOf("x")}))
		},
		"claim":   func(a app.Actor, r string) error { return errOf(f.svc.ClaimTask(f.ctx, a, "", r, nil)) },
		"release": func(a app.Actor, r string) error { return errOf(f.svc.ReleaseTask(f.ctx, a, "", r)) },
		"move": func(a app.Actor, r string) error {
			return errOf(f.svc.MoveTask(f.ctx, a, "", r, app.TaskMove{Parent: app.Patch[app.FlexRef]{Set: true, Null: true}}))
		},
		"delete":        func(a app.Actor, r string) error { return errOf(f.svc.DeleteTask(f.ctx, a, "", r)) },
		"links":         func(a app.Actor, r string) error { return errOf(f.svc.ItemLinks(f.ctx, a, "", "task", r)) },
		"verifications": func(a app.Actor, r string) error { return errOf(f.svc.Verifications(f.ctx, a, "", r)) },
		"events":        func(a app.Actor, r string) error { return errOf(f.svc.TaskEvents(f.ctx, a, "", r, app.EventQuery{})) },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			for _, r := range []string{ref(hidden.Ref), hidden.ID, "99999", ref(trashed.Ref)} {
				wantCode(t, call(bob, r), app.CodeNotFound)
			}
		})
	}
	t.Run("listing", func(t *testing.T) {
		got := must(f.svc.Tasks(f.ctx, bob, app.TaskListQuery{IncludeTotal: true}))(t)
		if want := []int64{seen.Ref}; !slices.Equal(refs(got.Items), want) || *got.Page.Total != 1 {
			t.Errorf("bob lists %v (total %d), want %v", refs(got.Items), *got.Page.Total, want)
		}
	})
	t.Run("the owner sees it", func(t *testing.T) {
		must(f.svc.TaskGet(f.ctx, f.admin, "", ref(hidden.Ref)))(t)
	})
	t.Run("a reference to it in a body", func(t *testing.T) {
		_, err := f.svc.CreateTask(f.ctx, bob, "", app.TaskCreate{Title: "x", Parent: app.FlexRef(ref(hidden.Ref))})
		wantCode(t, err, app.CodeValidation)
		_, err = f.svc.CreateTask(f.ctx, bob, "", app.TaskCreate{Title: "x", Project: "secret"})
		wantCode(t, err, app.CodeValidation)
	})
}

func TestTaskUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	f.person("stranger", "")
	viewer := f.person("vera", app.RoleViewer)

	t.Run("fields", func(t *testing.T) {
		tk := f.task(f.admin, app.TaskCreate{Title: "Before", Tags: []string{"a"}})
		f.clock.Advance(time.Minute)
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{
			Title: app.PatchOf("After"), Importance: app.PatchOf(2), Tags: app.PatchOf([]string{"b", "#c"}),
			Assignee: app.PatchOf("bob"), DueAt: app.PatchOf(day("2026-04-01"))}))(t)
		if got.Title != "After" || *got.Importance != 2 || got.Assignee != "bob" || !got.DueAt.Equal(day("2026-04-01")) ||
			got.Version != 2 || !got.UpdatedAt.Equal(storetest.Epoch.Add(time.Minute)) {
			t.Errorf("got %+v", got)
		}
		if want := []string{"b", "c"}; !slices.Equal(got.Tags, want) {
			t.Errorf("tags %v, want %v", got.Tags, want)
		}
		// null clears; omitted stays.
		got = must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{
			Importance: app.Patch[int]{Set: true, Null: true}, Tags: app.Patch[[]string]{Set: true, Null: true}}))(t)
		if got.Importance != nil || len(got.Tags) != 0 || got.Title != "After" || got.Version != 3 {
			t.Errorf("after clearing: %+v", got)
		}
	})
	t.Run("nothing changed keeps the version", func(t *testing.T) {
		tk := f.task(f.admin, app.TaskCreate{Title: "Same"})
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("Same")}))(t)
		if got.Version != 1 {
			t.Errorf("version %d, want 1", got.Version)
		}
	})
	t.Run("status moves completed_at", func(t *testing.T) {
		tk := f.task(f.admin, app.TaskCreate{Title: "Work"})
		done := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Status: app.PatchOf("done")}))(t)
		if !done.IsComplete() || done.CompletedAt == nil {
			t.Errorf("done: %+v", done)
		}
		open := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Status: app.PatchOf("todo")}))(t)
		if open.IsComplete() || open.CompletedAt != nil {
			t.Errorf("reopened: %+v", open)
		}
	})
	t.Run("expected_version", func(t *testing.T) {
		tk := f.task(f.admin, app.TaskCreate{Title: "V"})
		must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("V2"), ExpectedVersion: ptr(1)}))(t)
		_, err := f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("V3"), ExpectedVersion: ptr(1)})
		wantCode(t, err, app.CodeVersionConflict)
		if got := must(f.svc.TaskGet(f.ctx, f.admin, "", tk.ID))(t); got.Title != "V2" {
			t.Errorf("a refused write changed the title to %q", got.Title)
		}
	})
	t.Run("phrases", func(t *testing.T) {
		tk := f.task(f.admin, app.TaskCreate{Title: "P"})
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{
			Until: app.PatchOf("friday"), Plan: app.PatchOf("tomorrow"), Defer: app.PatchOf("wednesday")}))(t)
		if !got.DueAt.Equal(day("2026-03-06")) || !got.StartsAt.Equal(day("2026-03-03")) || !got.SnoozedUntil.Equal(day("2026-03-04")) ||
			!got.DueIsAllDay || !got.StartsIsAllDay || !got.SnoozedIsAllDay {
			t.Errorf("got due %v starts %v snoozed %v", got.DueAt, got.StartsAt, got.SnoozedUntil)
		}
		got = must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Defer: app.PatchOf("")}))(t)
		if got.SnoozedUntil != nil {
			t.Errorf("defer \"\" left snoozed_until %v", got.SnoozedUntil)
		}
	})

	tk := f.task(f.admin, app.TaskCreate{Title: "Target"})
	cases := []refused[app.TaskUpdate]{
		{"title cleared", f.admin, app.TaskUpdate{Title: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.title"},
		{"status cleared", f.admin, app.TaskUpdate{Status: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.status"},
		{"urgency out of range", f.admin, app.TaskUpdate{Urgency: app.PatchOf(0)}, app.CodeValidation, "body.urgency"},
		{"phrase and instant for one field", f.admin, app.TaskUpdate{Until: app.PatchOf("friday"), DueAt: app.PatchOf(day("2026-04-01"))},
			app.CodeValidation, "body.until"},
		{"phrase that does not parse", f.admin, app.TaskUpdate{Defer: app.PatchOf("when pigs fly")}, app.CodeValidation, "body.defer"},
		{"applies_to unknown", f.admin, app.TaskUpdate{AppliesTo: app.PatchOf("all")}, app.CodeValidation, "body.applies_to"},
		{"applies_to on a task that does not repeat", f.admin, app.TaskUpdate{Title: app.PatchOf("y"), AppliesTo: app.PatchOf(app.AppliesThisOne)},
			app.CodeAppliesToNotRepeating, ""},
		{"unknown status", f.admin, app.TaskUpdate{Status: app.PatchOf("nope")}, app.CodeValidation, "body.status"},
		{"title blank", f.admin, app.TaskUpdate{Title: app.PatchOf(" ")}, app.CodeValidation, "body.title"},
		{"type cleared", f.admin, app.TaskUpdate{Type: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.type"},
		{"unknown type", f.admin, app.TaskUpdate{Type: app.PatchOf("epic")}, app.CodeValidation, "body.type"},
		{"importance out of range", f.admin, app.TaskUpdate{Importance: app.PatchOf(7)}, app.CodeValidation, "body.importance"},
		{"assignee outside the workspace", f.admin, app.TaskUpdate{Assignee: app.PatchOf("stranger")}, app.CodeValidation, "body.assignee"},
		{"a viewer", viewer, app.TaskUpdate{Title: app.PatchOf("y")}, app.CodeForbidden, ""},
	}
	wantRefused(t, cases, func(a app.Actor, in app.TaskUpdate) error {
		return errOf(f.svc.UpdateTask(f.ctx, a, "", ref(tk.Ref), in))
	})
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", tk.ID))(t); got.Title != "Target" || got.Version != 1 {
		t.Errorf("refused updates changed the task: %+v", got)
	}
}

func TestTaskMove(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.projects(app.ProjectCreate{Key: "web"}, app.ProjectCreate{Key: "api"})
	top := f.task(f.admin, app.TaskCreate{Title: "top", Project: "web"})
	mid := f.task(f.admin, app.TaskCreate{Title: "mid", Parent: app.FlexRef(ref(top.Ref))})
	leaf := f.task(f.admin, app.TaskCreate{Title: "leaf", Parent: app.FlexRef(ref(mid.Ref))})
	other := f.task(f.admin, app.TaskCreate{Title: "other", Project: "api"})
	parentOf := func(r string) app.Patch[app.FlexRef] { return app.PatchOf(app.FlexRef(r)) }

	refused := []struct {
		name string
		task int64
		in   app.TaskMove
		code app.Code
		loc  string
	}{
		{"nothing to do", top.Ref, app.TaskMove{}, app.CodeValidation, "body.parent"},
		{"under itself", top.Ref, app.TaskMove{Parent: parentOf(ref(top.Ref))}, app.CodeCycle, "body.parent"},
		{"under its grandchild", top.Ref, app.TaskMove{Parent: parentOf(ref(leaf.Ref))}, app.CodeCycle, "body.parent"},
		{"under no such task", top.Ref, app.TaskMove{Parent: parentOf("99999")}, app.CodeValidation, "body.parent"},
		{"into no project", top.Ref, app.TaskMove{Project: app.Patch[string]{Set: true, Null: true}}, app.CodeValidation, "body.project"},
		{"into no such project", top.Ref, app.TaskMove{Project: app.PatchOf("nowhere")}, app.CodeValidation, "body.project"},
		{"under a parent in another project than named", leaf.Ref,
			app.TaskMove{Parent: parentOf(ref(other.Ref)), Project: app.PatchOf("web")}, app.CodeValidation, "body.project"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.MoveTask(f.ctx, f.admin, "", ref(c.task), c.in)
			wantRefusal(t, err, c.code, c.loc)
		})
	}

	t.Run("refiling takes the subtree along", func(t *testing.T) {
		got := must(f.svc.MoveTask(f.ctx, f.admin, "", ref(top.Ref), app.TaskMove{Project: app.PatchOf("api")}))(t)
		if got.ProjectKey != "api" || got.Version != 2 {
			t.Errorf("moved: %+v", got)
		}
		for _, r := range []int64{mid.Ref, leaf.Ref} {
			if sub := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(r)))(t); sub.ProjectKey != "api" {
				t.Errorf("#%d stayed in %s", r, sub.ProjectKey)
			}
		}
	})
	t.Run("re-parenting joins the new parent's project", func(t *testing.T) {
		got := must(f.svc.MoveTask(f.ctx, f.admin, "", ref(leaf.Ref), app.TaskMove{Parent: parentOf(ref(other.Ref))}))(t)
		if got.ParentID != other.ID || got.ProjectKey != "api" {
			t.Errorf("got parent %s in %s", got.ParentID, got.ProjectKey)
		}
		top := must(f.svc.MoveTask(f.ctx, f.admin, "", ref(leaf.Ref), app.TaskMove{Parent: app.Patch[app.FlexRef]{Set: true, Null: true}}))(t)
		if top.ParentID != "" {
			t.Errorf("parent null left parent %s", top.ParentID)
		}
	})
}

func TestTaskTrash(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	parent := f.task(f.admin, app.TaskCreate{Title: "parent"})
	child := f.task(f.admin, app.TaskCreate{Title: "child", Parent: app.FlexRef(ref(parent.Ref))})
	alone := f.task(f.admin, app.TaskCreate{Title: "trashed on its own", Parent: app.FlexRef(ref(parent.Ref))})
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(alone.Ref)))(t)

	_, err := f.svc.DeleteTask(f.ctx, viewer, "", ref(parent.Ref))
	wantCode(t, err, app.CodeForbidden)

	f.clock.Advance(time.Minute)
	got := must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(parent.Ref)))(t)
	if got.DeletedAt == nil || !got.DeletedAt.Equal(storetest.Epoch.Add(time.Minute)) {
		t.Errorf("deleted_at %v", got.DeletedAt)
	}
	for _, r := range []int64{parent.Ref, child.Ref} {
		_, err := f.svc.TaskGet(f.ctx, f.admin, "", ref(r))
		wantCode(t, err, app.CodeNotFound)
	}
	trash := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Deleted: true}))(t)
	if got, want := refs(trash.Items), []int64{parent.Ref, child.Ref, alone.Ref}; !sameSet(got, want) {
		t.Errorf("trash %v, want %v", got, want)
	}
	live := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{}))(t)
	if len(live.Items) != 0 {
		t.Errorf("live listing holds %v", refs(live.Items))
	}

	_, err = f.svc.RestoreTask(f.ctx, viewer, "", ref(parent.Ref))
	wantCode(t, err, app.CodeForbidden)
	f.clock.Advance(time.Minute)
	restored := must(f.svc.RestoreTask(f.ctx, f.admin, "", ref(parent.Ref)))(t)
	if restored.DeletedAt != nil {
		t.Errorf("restored task keeps deleted_at %v", restored.DeletedAt)
	}
	// What was trashed with it comes back with it; what was trashed
	// before stays in the trash.
	must(f.svc.TaskGet(f.ctx, f.admin, "", ref(child.Ref)))(t)
	_, err = f.svc.TaskGet(f.ctx, f.admin, "", ref(alone.Ref))
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.RestoreTask(f.ctx, f.admin, "", ref(parent.Ref))
	wantCode(t, err, app.CodeNotFound) // nothing in the trash by that ref

	events := must(f.svc.TaskEvents(f.ctx, f.admin, "", ref(parent.Ref), app.EventQuery{}))(t)
	var actions []string
	for _, e := range events.Items {
		actions = append(actions, e.Action)
	}
	if want := []string{"task.restored", "task.deleted", "task.created"}; !slices.Equal(actions, want) {
		t.Errorf("history %v, want %v", actions, want)
	}
}

// sameSet reports whether a and b hold the same values, in any order.
func sameSet[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[T]int{}
	for _, x := range a {
		n[x]++
	}
	for _, x := range b {
		n[x]--
	}
	for _, c := range n {
		if c != 0 {
			return false
		}
	}
	return true
}

// TestItemGetByRef: refs start at 1, so "0" names no task or document;
// it once read as no ref at all and answered the first one.
func TestItemGetByRef(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	task := f.task(f.admin, app.TaskCreate{Title: "a"})
	doc := f.doc(f.admin, app.DocumentCreate{Title: "d", Type: "note"})
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", task.ID))(t); got.Ref != task.Ref {
		t.Errorf("by id: #%d, want #%d", got.Ref, task.Ref)
	}
	if got := must(f.svc.DocumentGet(f.ctx, f.admin, "", ref(doc.Ref)))(t); got.ID != doc.ID {
		t.Errorf("by ref: %s, want %s", got.ID, doc.ID)
	}
	for _, r := range []string{"0", "-1", ref(doc.Ref)} {
		_, err := f.svc.TaskGet(f.ctx, f.admin, "", r)
		wantCode(t, err, app.CodeNotFound)
	}
	for _, r := range []string{"0", ref(task.Ref)} {
		_, err := f.svc.DocumentGet(f.ctx, f.admin, "", r)
		wantCode(t, err, app.CodeNotFound)
	}
}
