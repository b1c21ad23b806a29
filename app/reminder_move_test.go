package app_test

import (
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// TestReminderSettingsMove checks that a change of a person's reminder
// time or timezone moves the firings it changes, in the same write: an
// all-day due's, and, on a change of zone, those of a task read in theirs,
// while a task in a zone of its own and another person's stay.
func TestReminderSettingsMove(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	must(f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{Timezone: app.PatchOf("Europe/Berlin")}))(t)
	day := time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC)
	timed := time.Date(2026, 3, 10, 17, 0, 0, 0, time.UTC)
	allDay := f.task(bob, app.TaskCreate{Title: "rent", DueAt: &day, DueIsAllDay: true, Reminders: before("0m", "1d")})
	inZone := f.task(bob, app.TaskCreate{Title: "call", DueAt: &timed, Timezone: "Europe/Berlin", Reminders: before("30m")})
	admins := f.task(f.admin, app.TaskCreate{Title: "admin's", DueAt: &day, DueIsAllDay: true, Reminders: before("0m")})

	must(f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{ReminderTime: app.PatchOf("07:00")}))(t)
	wantFires(t, f.fires(allDay.Ref), map[string]string{"before:0m": "2026-03-10T06:00:00Z", "before:1d": "2026-03-09T06:00:00Z"})

	must(f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{Timezone: app.PatchOf("America/New_York")}))(t)
	wantFires(t, f.fires(allDay.Ref), map[string]string{"before:0m": "2026-03-10T11:00:00Z", "before:1d": "2026-03-09T11:00:00Z"})
	wantFires(t, f.fires(inZone.Ref), map[string]string{"before:30m": "2026-03-10T16:30:00Z"})
	wantFires(t, f.fires(admins.Ref), map[string]string{"before:0m": "2026-03-10T09:00:00Z"})

	// A firing already past stays past; the others move.
	f.clock.Set(time.Date(2026, 3, 9, 13, 0, 0, 0, time.UTC))
	must(f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{ReminderTime: app.PatchOf("08:00")}))(t)
	wantFires(t, f.fires(allDay.Ref), map[string]string{"before:0m": "2026-03-10T12:00:00Z", "before:1d": ""})
}

// BenchmarkReminderSettingsMove measures a change of reminder time for a
// person with 5,000 dated tasks, each with a pending reminder: the write
// that moves every one of them.
func BenchmarkReminderSettingsMove(b *testing.B) {
	svc, admin := benchInstance(b)
	ctx := b.Context()
	for i := range 5000 {
		due := storetest.Epoch.AddDate(0, 0, 1+i%300).Truncate(24 * time.Hour)
		if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "dated", DueAt: &due, DueIsAllDay: true,
			Reminders: []app.Reminder{{Before: "0m"}}}); err != nil {
			b.Fatal(err)
		}
	}
	times := []string{"07:00", "08:00"}
	n := 0
	for b.Loop() {
		if _, err := svc.UpdateUser(ctx, admin, admin.User.Username, app.UserUpdate{ReminderTime: app.PatchOf(times[n%2])}); err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// TestReadReminder checks the words the task page's add control takes.
func TestReadReminder(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	due := time.Date(2026, 3, 10, 17, 0, 0, 0, time.UTC)
	tk := f.task(f.admin, app.TaskCreate{Title: "dentist", DueAt: &due, Timezone: "Europe/Berlin"})
	for text, want := range map[string]string{"30m": "before:30m", "1h before": "before:1h", "remind 2d": "before:2d",
		"at 8:00": "at:2026-03-10T07:00:00Z", "tomorrow 7pm": "at:2026-03-03T18:00:00Z"} {
		r, err := f.svc.ReadReminder(f.ctx, f.admin, "", ref(tk.Ref), text)
		if err != nil || r.Key() != want {
			t.Errorf("%q: %v %v, want %s", text, r.Key(), err, want)
		}
	}
	_, err := f.svc.ReadReminder(f.ctx, f.admin, "", ref(tk.Ref), "whenever")
	wantRefusal(t, err, app.CodeValidation, "body.reminders")
}
