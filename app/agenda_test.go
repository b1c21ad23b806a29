package app_test

import (
	"maps"
	"testing"
	"time"

	"tend/app"
)

// placed maps each listed task's ref to the list that holds it.
func placed(a app.Agenda) map[int64]string {
	out := map[int64]string{}
	for name, list := range map[string][]app.Task{"today": a.Today, "overdue": a.Overdue, "upcoming": a.Upcoming,
		"unscheduled": a.Unscheduled, "in_progress": a.InProgress, "waiting": a.Waiting, "occasions": a.Occasions,
		"blocked_by_others": a.BlockedByOthers} {
		for _, t := range list {
			out[t.Ref] = name
		}
	}
	return out
}

// TestAgenda places one task for each rule of docs/agenda.md on the
// reader's day, Monday 2 March 2026 in UTC.
func TestAgenda(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	f.projects(app.ProjectCreate{Key: "paused", Status: "on_hold"}, app.ProjectCreate{Key: "secret", Visibility: "private"})
	due := func(s string) *time.Time { return ptr(day(s)) }
	task := func(a app.Actor, in app.TaskCreate) int64 {
		if in.DueAt != nil {
			in.DueIsAllDay = true
		}
		return f.task(a, in).Ref
	}

	today := task(f.admin, app.TaskCreate{Title: "today", DueAt: due("2026-03-02")})
	overdue := task(f.admin, app.TaskCreate{Title: "overdue", DueAt: due("2026-02-27")})
	upcoming := task(f.admin, app.TaskCreate{Title: "upcoming", DueAt: due("2026-03-09")})
	task(f.admin, app.TaskCreate{Title: "later", DueAt: due("2026-03-10")})
	low := task(f.admin, app.TaskCreate{Title: "unscheduled, low", Importance: ptr(1)})
	high := task(f.admin, app.TaskCreate{Title: "unscheduled, high", Importance: ptr(5)})
	working := task(f.admin, app.TaskCreate{Title: "in progress", Status: "in_progress", DueAt: due("2026-02-01")})
	deferred := task(f.admin, app.TaskCreate{Title: "deferred", DueAt: due("2026-03-02")})
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(deferred), app.TaskUpdate{Defer: app.PatchOf("friday")}))(t)
	task(f.admin, app.TaskCreate{Title: "paused", Project: "paused", DueAt: due("2026-03-02")})
	task(f.admin, app.TaskCreate{Title: "hidden", Project: "secret", DueAt: due("2026-03-02")})
	task(f.admin, app.TaskCreate{Title: "done", Status: "done", DueAt: due("2026-03-02")})
	task(f.admin, app.TaskCreate{Title: "the admin's", Assignee: "admin"})
	waiting := task(bob, app.TaskCreate{Title: "asked of the admin", Assignee: "admin"})
	blocked := task(f.admin, app.TaskCreate{Title: "blocked by the admin's", DueAt: due("2026-03-02")})
	blocker := task(f.admin, app.TaskCreate{Title: "the admin's blocker", Assignee: "admin"})
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", blocker, blocked)))(t)
	ownBlocked := task(f.admin, app.TaskCreate{Title: "blocked by bob's own", DueAt: due("2026-03-02")})
	ownBlocker := task(f.admin, app.TaskCreate{Title: "bob's blocker", Assignee: "bob", DueAt: due("2026-03-03")})
	must(f.svc.AddLinks(f.ctx, f.admin, "", link("blocks", ownBlocker, ownBlocked)))(t)
	party := task(f.admin, app.TaskCreate{Title: "party", Type: "event", DueAt: due("2026-03-02")})
	task(f.admin, app.TaskCreate{Title: "last week's party", Type: "event", DueAt: due("2026-02-23")})
	claimed := task(f.admin, app.TaskCreate{Title: "claimed by the admin"})
	must(f.svc.ClaimTask(f.ctx, f.admin, "", ref(claimed), nil))(t)

	got := must(f.svc.Agenda(f.ctx, bob, app.AgendaQuery{}))(t)
	if got.Date != "2026-03-02" || got.Timezone != "UTC" {
		t.Errorf("the day is %s in %s", got.Date, got.Timezone)
	}
	want := map[int64]string{today: "today", overdue: "overdue", upcoming: "upcoming", low: "unscheduled", high: "unscheduled",
		working: "in_progress", waiting: "waiting", blocked: "blocked_by_others", ownBlocked: "today", ownBlocker: "upcoming",
		party: "occasions"}
	if p := placed(got); !maps.Equal(p, want) {
		t.Errorf("placed %v, want %v", p, want)
	}
	if first := got.Unscheduled[0].Ref; first != high {
		t.Errorf("unscheduled starts with #%d, want the most important #%d", first, high)
	}
	if !got.Today[1].Blocked {
		t.Errorf("a task blocked by the reader's own work stays in the day, shown blocked")
	}
	totals := map[string]int{"unscheduled": got.UnscheduledTotal, "blocked_by_others": got.BlockedByOthersTotal, "deferred": got.DeferredTotal,
		"later": got.LaterTotal, "passed": got.PassedTotal, "paused": got.PausedTotal, "assigned_elsewhere": got.AssignedElsewhereTotal}
	wantTotals := map[string]int{"unscheduled": 2, "blocked_by_others": 1, "deferred": 1, "later": 1, "passed": 1, "paused": 1,
		"assigned_elsewhere": 4} // the admin's, the one asked of the admin, the blocker and the claimed one
	if !maps.Equal(totals, wantTotals) {
		t.Errorf("totals %v, want %v", totals, wantTotals)
	}

	t.Run("deferral runs out on the clock", func(t *testing.T) {
		f.clock.Advance(5 * 24 * time.Hour) // Saturday
		later := must(f.svc.Agenda(f.ctx, bob, app.AgendaQuery{}))(t)
		if where := placed(later)[deferred]; where != "overdue" {
			t.Errorf("the deferred task is in %q on saturday, want overdue", where)
		}
	})
}

// TestAgendaDay checks the day and zone an agenda is asked for: timed dues
// compare as instants, all-day dues by their own date.
func TestAgendaDay(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	timed := f.task(f.admin, app.TaskCreate{Title: "timed", DueAt: ptr(time.Date(2026, 3, 3, 11, 15, 0, 0, time.UTC))}).Ref
	allDay := f.task(f.admin, app.TaskCreate{Title: "all day in Auckland", DueAt: ptr(day("2026-03-04")), DueIsAllDay: true,
		Timezone: "Pacific/Auckland"}).Ref
	cases := []struct {
		name  string
		q     app.AgendaQuery
		where map[int64]string
		code  app.Code
		loc   string
	}{
		{"a day in UTC", app.AgendaQuery{Date: "2026-03-03"}, map[int64]string{timed: "today", allDay: "upcoming"}, "", ""},
		{"the same day in Auckland", app.AgendaQuery{Date: "2026-03-03", Timezone: "Pacific/Auckland"},
			map[int64]string{timed: "upcoming", allDay: "upcoming"}, "", ""},
		{"the all-day date, wherever asked", app.AgendaQuery{Date: "2026-03-04", Timezone: "America/Los_Angeles"},
			map[int64]string{timed: "overdue", allDay: "today"}, "", ""},
		{"a date that is not one", app.AgendaQuery{Date: "2026-02-30"}, nil, app.CodeValidation, "query.date"},
		{"an unknown zone", app.AgendaQuery{Timezone: "Atlantis/Capital"}, nil, app.CodeValidation, "query.timezone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.Agenda(f.ctx, f.admin, c.q)
			if wantRefusal(t, err, c.code, c.loc) {
				return
			}
			if p := placed(got); !maps.Equal(p, c.where) {
				t.Errorf("placed %v, want %v", p, c.where)
			}
		})
	}
}
