package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	"tend/app"
	"tend/store"
)

// TestAgendaCacheMatchesAFreshRead changes tasks and links at random and,
// after each change, compares the agenda of the running service, whose open
// tasks are merged from the changes into its copy in memory, with that of a
// service newly opened on the same file, which reads them whole.
func TestAgendaCacheMatchesAFreshRead(t *testing.T) {
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	e.Person("carol")
	e.Join("carol", "member")
	ctx := context.Background()
	admin, err := e.Svc.Authenticate(ctx, e.Admin, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"home", "work"} {
		if _, err := e.Svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: p, Title: p}); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	day := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	dueIn := func() *time.Time {
		if rng.IntN(3) == 0 {
			return nil
		}
		d := day.Add(time.Duration(rng.IntN(20*24)-10*24) * time.Hour)
		return &d
	}
	var refs []string
	var links []app.LinkView
	add := func() {
		in := app.TaskCreate{Title: "t", Project: []string{"home", "work"}[rng.IntN(2)], DueAt: dueIn(),
			Assignee: []string{"", "carol"}[rng.IntN(2)], Status: []string{"", "in_progress"}[rng.IntN(2)]}
		task, err := e.Svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, strconv.FormatInt(task.Ref, 10))
	}
	for range 30 {
		add()
	}
	link := func() error {
		ls, err := e.Svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
			Target: app.FlexRef(refs[rng.IntN(len(refs))])}.Set("task", refs[rng.IntN(len(refs))]))
		links = append(links, ls...)
		return err
	}
	for range 40 {
		_ = link()
	}
	changes := []func() error{
		func() error { add(); return nil },
		func() error {
			u := app.TaskUpdate{DueAt: app.Patch[time.Time]{Set: true, Null: true}}
			if d := dueIn(); d != nil {
				u.DueAt = app.PatchOf(*d)
			}
			_, err := e.Svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			u := app.TaskUpdate{Assignee: app.PatchOf("carol")}
			if rng.IntN(2) == 0 {
				u.Assignee = app.Patch[string]{Set: true, Null: true}
			}
			_, err := e.Svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			u := app.TaskUpdate{SnoozedUntil: app.PatchOf(e.Clock.Now().Add(time.Duration(rng.IntN(48)) * time.Hour))}
			_, err := e.Svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			_, err := e.Svc.CompleteTask(ctx, admin, "", refs[rng.IntN(len(refs))], app.Completion{})
			return err
		},
		func() error {
			_, err := e.Svc.DeleteTask(ctx, admin, "", refs[rng.IntN(len(refs))])
			return err
		},
		func() error {
			u := app.TaskUpdate{Project: app.PatchOf([]string{"home", "work"}[rng.IntN(2)]), Importance: app.PatchOf(1 + rng.IntN(5))}
			_, err := e.Svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		link,
		func() error {
			if len(links) == 0 {
				return nil
			}
			i := rng.IntN(len(links))
			l := links[i]
			links = append(links[:i], links[i+1:]...)
			return e.Svc.RemoveLink(ctx, admin, "", "task", l.SourceID, l.ID)
		},
		func() error {
			_, err := e.Svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], app.TaskUpdate{Status: app.PatchOf("todo")})
			return err
		},
		func() error {
			_, err := e.Svc.RestoreTask(ctx, admin, "", refs[rng.IntN(len(refs))])
			return err
		},
		func() error { e.Clock.Advance(time.Duration(rng.IntN(12)) * time.Hour); return nil },
	}
	blocked := 0
	for i := range 300 {
		if err := changes[rng.IntN(len(changes))](); err != nil && app.CodeOf(err) != app.CodeConflict &&
			app.CodeOf(err) != app.CodeValidation && app.CodeOf(err) != app.CodeNotFound {
			t.Fatalf("change %d: %v", i, err)
		}
		got, err := e.Svc.Agenda(ctx, admin, app.AgendaQuery{Timezone: "Europe/Berlin"})
		if err != nil {
			t.Fatal(err)
		}
		if want := freshAgenda(t, e, admin); !reflect.DeepEqual(got, want) {
			t.Fatalf("after change %d the agenda differs from a fresh read:\n got %s\nwant %s", i, agendaRefs(got), agendaRefs(want))
		}
		if got.BlockedByOthersTotal > 0 {
			blocked++
		}
	}
	// The blockers are what a merge is most likely to get wrong: make sure
	// the changes kept some in play.
	if blocked < 100 {
		t.Fatalf("work was blocked by others after only %d of 300 changes", blocked)
	}
}

// freshAgenda is the agenda read by a service on its own connection to the
// file, with nothing in memory yet.
func freshAgenda(t *testing.T, e *env, a app.Actor) app.Agenda {
	t.Helper()
	db, err := store.Open(context.Background(), e.DB.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Now = e.Clock.Now
	ag, err := app.New(db, app.Options{Version: "test"}).Agenda(context.Background(), a, app.AgendaQuery{Timezone: "Europe/Berlin"})
	if err != nil {
		t.Fatal(err)
	}
	return ag
}

func agendaRefs(ag app.Agenda) string {
	refs := func(ts []app.Task) []int64 {
		out := []int64{}
		for _, t := range ts {
			out = append(out, t.Ref)
		}
		return out
	}
	return fmt.Sprintf("today %v overdue %v upcoming %v unscheduled %v in_progress %v waiting %v blocked %v totals %d/%d/%d/%d/%d/%d/%d",
		refs(ag.Today), refs(ag.Overdue), refs(ag.Upcoming), refs(ag.Unscheduled), refs(ag.InProgress), refs(ag.Waiting),
		refs(ag.BlockedByOthers), ag.UnscheduledTotal, ag.BlockedByOthersTotal, ag.DeferredTotal, ag.LaterTotal, ag.PassedTotal,
		ag.PausedTotal, ag.AssignedElsewhereTotal)
}
