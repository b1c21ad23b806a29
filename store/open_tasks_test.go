package store_test

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
	"tend/store/storetest"
)

// TestAgendaCacheMatchesAFreshRead changes tasks and links at random and,
// after each change, compares the agenda of the running service, whose open
// tasks are merged from the changes into its copy in memory, with that of a
// service on a second database opened on the same file, its caches emptied
// before each read as a newly opened one has them, which reads them whole.
func TestAgendaCacheMatchesAFreshRead(t *testing.T) {
	t.Parallel()
	db, clock := storetest.OpenClock(t)
	clock.Set(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	svc, admin, _ := storetest.Admin(t, db, app.Options{Version: "test"}, "test")
	ctx := context.Background()
	if _, err := svc.CreateUser(ctx, admin, app.UserCreate{Username: "carol"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddMember(ctx, admin, "default", app.Join{Username: "carol", Role: app.RoleMember}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"home", "work"} {
		if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: p, Title: p}); err != nil {
			t.Fatal(err)
		}
	}
	fresh, err := store.Open(ctx, db.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	fresh.Now = clock.Now
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
		task, err := svc.CreateTask(ctx, admin, "", in)
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, strconv.FormatInt(task.Ref, 10))
	}
	for range 30 {
		add()
	}
	link := func() error {
		ls, err := svc.AddLinks(ctx, admin, "", app.LinkRequest{LinkType: "blocks",
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
			_, err := svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			u := app.TaskUpdate{Assignee: app.PatchOf("carol")}
			if rng.IntN(2) == 0 {
				u.Assignee = app.Patch[string]{Set: true, Null: true}
			}
			_, err := svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			u := app.TaskUpdate{SnoozedUntil: app.PatchOf(clock.Now().Add(time.Duration(rng.IntN(48)) * time.Hour))}
			_, err := svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
			return err
		},
		func() error {
			_, err := svc.CompleteTask(ctx, admin, "", refs[rng.IntN(len(refs))], app.Completion{})
			return err
		},
		func() error {
			_, err := svc.DeleteTask(ctx, admin, "", refs[rng.IntN(len(refs))])
			return err
		},
		func() error {
			u := app.TaskUpdate{Project: app.PatchOf([]string{"home", "work"}[rng.IntN(2)]), Importance: app.PatchOf(1 + rng.IntN(5))}
			_, err := svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], u)
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
			return svc.RemoveLink(ctx, admin, "", "task", l.SourceID, l.ID)
		},
		func() error {
			_, err := svc.UpdateTask(ctx, admin, "", refs[rng.IntN(len(refs))], app.TaskUpdate{Status: app.PatchOf("todo")})
			return err
		},
		func() error {
			_, err := svc.RestoreTask(ctx, admin, "", refs[rng.IntN(len(refs))])
			return err
		},
		func() error { clock.Advance(time.Duration(rng.IntN(12)) * time.Hour); return nil },
	}
	// 300 changes; under -short (the README's everyday command) 100, the
	// full run left to CI.
	rounds := 300
	if testing.Short() {
		rounds = 100
	}
	blocked := 0
	for i := range rounds {
		if err := changes[rng.IntN(len(changes))](); err != nil && app.CodeOf(err) != app.CodeConflict &&
			app.CodeOf(err) != app.CodeValidation && app.CodeOf(err) != app.CodeNotFound {
			t.Fatalf("change %d: %v", i, err)
		}
		got, err := svc.Agenda(ctx, admin, app.AgendaQuery{Timezone: "Europe/Berlin"})
		if err != nil {
			t.Fatal(err)
		}
		if want := freshAgenda(t, fresh, admin); !reflect.DeepEqual(got, want) {
			t.Fatalf("after change %d the agenda differs from a fresh read:\n got %s\nwant %s", i, agendaRefs(got), agendaRefs(want))
		}
		if got.BlockedByOthersTotal > 0 {
			blocked++
		}
	}
	// The blockers are what a merge is most likely to get wrong: make sure
	// the changes kept some in play.
	if blocked < rounds/3 {
		t.Fatalf("work was blocked by others after only %d of %d changes", blocked, rounds)
	}
}

// freshAgenda is the agenda read by a new service on db, its caches emptied
// first: with nothing in memory, it reads the open tasks whole.
func freshAgenda(t *testing.T, db *store.DB, a app.Actor) app.Agenda {
	t.Helper()
	db.ForgetCaches()
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
