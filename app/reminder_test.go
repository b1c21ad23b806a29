package app_test

import (
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// fires is each of a task's reminders' fire_at as a read gives it, by
// the reminder's key, "" for none.
func (f *fixture) fires(r int64) map[string]string {
	f.t.Helper()
	t := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(r)))(f.t)
	return fireMap(t)
}

func fireMap(t app.Task) map[string]string {
	out := map[string]string{}
	for _, r := range t.Reminders {
		out[r.Key()] = ""
		if r.FireAt != nil {
			out[r.Key()] = r.FireAt.UTC().Format(time.RFC3339)
		}
	}
	return out
}

func wantFires(t *testing.T, got map[string]string, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("fires %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("fires %v, want %v", got, want)
		}
	}
}

func before(s ...string) []app.Reminder {
	out := []app.Reminder{}
	for _, b := range s {
		out = append(out, app.Reminder{Before: b})
	}
	return out
}

// TestReminderFireAt checks when each kind of reminder fires, that the
// answer to the create is what a read gives, and that a reminder reads
// null once its time has passed.
func TestReminderFireAt(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	due := storetest.Epoch.Add(26 * time.Hour) // Tuesday 11:00 UTC
	at := storetest.Epoch.Add(2 * time.Hour)
	tk := f.task(f.admin, app.TaskCreate{Title: "call", DueAt: &due,
		Reminders: []app.Reminder{{Before: "30m"}, {Before: "1d"}, {At: &at}, {Before: "0m"}}})
	want := map[string]string{"before:30m": "2026-03-03T10:30:00Z", "before:1d": "2026-03-02T11:00:00Z",
		"at:" + at.Format(time.RFC3339): "2026-03-02T11:00:00Z", "before:0m": "2026-03-03T11:00:00Z"}
	wantFires(t, fireMap(tk), want)
	wantFires(t, f.fires(tk.Ref), want)

	f.clock.Advance(3 * time.Hour)
	want["before:1d"], want["at:"+at.Format(time.RFC3339)] = "", ""
	wantFires(t, f.fires(tk.Ref), want)

	// Without a due, a reminder before it is kept and fires nowhere.
	plain := f.task(f.admin, app.TaskCreate{Title: "someday", Reminders: before("1h")})
	wantFires(t, fireMap(plain), map[string]string{"before:1h": ""})
	later := storetest.Epoch.Add(48 * time.Hour)
	got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(plain.Ref), app.TaskUpdate{DueAt: app.PatchOf(later)}))(t)
	wantFires(t, fireMap(got), map[string]string{"before:1h": "2026-03-04T08:00:00Z"})
}

// TestReminderAllDay checks that an all-day due reminds at the person's
// reminder time in their zone, across a change of clocks, and that the
// person's settings are theirs alone to change.
func TestReminderAllDay(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	must(f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{Timezone: app.PatchOf("Europe/Berlin"),
		ReminderTime: app.PatchOf("07:30")}))(t)
	_, err := f.svc.UpdateUser(f.ctx, f.admin, "bob", app.UserUpdate{ReminderTime: app.PatchOf("08:00")})
	wantCode(t, err, app.CodeForbidden)
	_, err = f.svc.UpdateUser(f.ctx, bob, "bob", app.UserUpdate{ReminderTime: app.PatchOf("25:00")})
	wantRefusal(t, err, app.CodeValidation, "body.reminder_time")

	// Berlin moves to summer time in the night to Sunday 29 March 2026.
	due := time.Date(2026, 3, 30, 0, 0, 0, 0, time.UTC)
	tk := f.task(bob, app.TaskCreate{Title: "taxes", DueAt: &due, DueIsAllDay: true, Timezone: "Europe/Berlin",
		Reminders: before("0m", "1d", "2d", "1h")})
	wantFires(t, fireMap(tk), map[string]string{
		"before:0m": "2026-03-30T05:30:00Z", // 07:30 CEST
		"before:1d": "2026-03-29T05:30:00Z", // 07:30 CEST, the day the clocks change
		"before:2d": "2026-03-28T06:30:00Z", // 07:30 CET
		"before:1h": "2026-03-30T04:30:00Z",
	})

	// Assigned to somebody else, the reminders fire at their time.
	must(f.svc.UpdateTask(f.ctx, bob, "", ref(tk.Ref), app.TaskUpdate{Assignee: app.PatchOf("admin")}))(t)
	wantFires(t, f.fires(tk.Ref), map[string]string{"before:0m": "2026-03-30T09:00:00Z", "before:1d": "2026-03-29T09:00:00Z",
		"before:2d": "2026-03-28T09:00:00Z", "before:1h": "2026-03-30T08:00:00Z"})
}

// TestReminderWithdrawn checks that finishing, deferring and trashing a
// task withdraw its reminders, that restoring it brings the future ones
// back and that moving the due moves them.
func TestReminderWithdrawn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	due := storetest.Epoch.Add(72 * time.Hour)
	mk := func(title string) app.Task {
		return f.task(f.admin, app.TaskCreate{Title: title, DueAt: &due, Reminders: before("1h")})
	}
	pending := map[string]string{"before:1h": "2026-03-05T08:00:00Z"}
	none := map[string]string{"before:1h": ""}

	done := mk("done")
	must(f.complete(f.admin, ref(done.Ref)))(t)
	wantFires(t, f.fires(done.Ref), none)
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(done.Ref), app.TaskUpdate{Status: app.PatchOf("todo")}))(t)
	wantFires(t, f.fires(done.Ref), pending)

	cancelled := mk("cancelled")
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(cancelled.Ref), app.TaskUpdate{Status: app.PatchOf("cancelled")}))(t)
	wantFires(t, f.fires(cancelled.Ref), none)

	deferred := mk("deferred")
	got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(deferred.Ref), app.TaskUpdate{SnoozedUntil: app.PatchOf(due)}))(t)
	wantFires(t, fireMap(got), none)

	trashed := mk("trashed")
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(trashed.Ref)))(t)
	back := must(f.svc.RestoreTask(f.ctx, f.admin, "", ref(trashed.Ref)))(t)
	wantFires(t, fireMap(back), pending)

	// A subtask trashed and restored with its parent.
	parent := f.task(f.admin, app.TaskCreate{Title: "parent"})
	child := f.task(f.admin, app.TaskCreate{Title: "child", Parent: app.FlexRef(ref(parent.Ref)), DueAt: &due, Reminders: before("1h")})
	must(f.svc.DeleteTask(f.ctx, f.admin, "", ref(parent.Ref)))(t)
	must(f.svc.RestoreTask(f.ctx, f.admin, "", ref(parent.Ref)))(t)
	wantFires(t, f.fires(child.Ref), pending)

	moved := mk("moved")
	later := due.Add(24 * time.Hour)
	got = must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(moved.Ref), app.TaskUpdate{DueAt: app.PatchOf(later)}))(t)
	wantFires(t, fireMap(got), map[string]string{"before:1h": "2026-03-06T08:00:00Z"})
	got = must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(moved.Ref), app.TaskUpdate{Reminders: app.Patch[[]app.Reminder]{Set: true, Null: true}}))(t)
	if len(got.Reminders) != 0 {
		t.Fatalf("cleared reminders read %v", got.Reminders)
	}
}

// TestReminderRepeat checks that a repeating task's reminders follow each
// occurrence, and that skipping one withdraws its own.
func TestReminderRepeat(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.task(f.admin, app.TaskCreate{Title: "standup", Text: "standup every day at 10:00", Reminders: before("15m")})
	wantFires(t, fireMap(tk), map[string]string{"before:15m": "2026-03-02T09:45:00Z"})
	c := must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(tk.Ref), app.Completion{}))(t)
	wantFires(t, f.fires(tk.Ref), map[string]string{"before:15m": ""})
	wantFires(t, f.fires(c.Next.Ref), map[string]string{"before:15m": "2026-03-03T09:45:00Z"})
	must(f.svc.SkipTask(f.ctx, f.admin, "", ref(c.Next.Ref)))(t)
	wantFires(t, f.fires(c.Next.Ref), map[string]string{"before:15m": ""})
	wantFires(t, f.fires(c.Next.Ref+1), map[string]string{"before:15m": "2026-03-04T09:45:00Z"})
}

// TestReminderDefaults checks that a new dated task takes its creator's
// default reminders unless it names its own, and an undated one none.
func TestReminderDefaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	must(f.svc.UpdateUser(f.ctx, f.admin, "admin", app.UserUpdate{DefaultReminders: app.PatchOf(before("10m"))}))(t)
	f.admin = f.login(adminSecret)
	due := storetest.Epoch.Add(5 * time.Hour)
	if got := f.task(f.admin, app.TaskCreate{Title: "dated", DueAt: &due}); len(got.Reminders) != 1 || got.Reminders[0].Before != "10m" {
		t.Errorf("a dated task took %v", got.Reminders)
	}
	if got := f.task(f.admin, app.TaskCreate{Title: "own", DueAt: &due, Reminders: []app.Reminder{}}); len(got.Reminders) != 0 {
		t.Errorf("a task naming no reminders took %v", got.Reminders)
	}
	if got := f.task(f.admin, app.TaskCreate{Title: "undated"}); len(got.Reminders) != 0 {
		t.Errorf("an undated task took %v", got.Reminders)
	}
	_, err := f.svc.UpdateUser(f.ctx, f.admin, "admin", app.UserUpdate{DefaultReminders: app.PatchOf([]app.Reminder{{At: &due}})})
	wantRefusal(t, err, app.CodeValidation, "body.default_reminders.0.at")
}

// TestReminderRefusals checks each refusal of a list of reminders.
func TestReminderRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	far := time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)
	now := storetest.Epoch
	eleven := before("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "10m", "11m")
	cases := []struct {
		name string
		rs   []app.Reminder
		code app.Code
		loc  string
	}{
		{"a unit it does not know", before("30s"), app.CodeValidation, "body.reminders.0.before"},
		{"no number", before("h"), app.CodeValidation, "body.reminders.0.before"},
		{"too far ahead", before("61d"), app.CodeValidation, "body.reminders.0.before"},
		{"neither", []app.Reminder{{}}, app.CodeValidation, "body.reminders.0"},
		{"both", []app.Reminder{{Before: "1h", At: &now}}, app.CodeValidation, "body.reminders.0"},
		{"the same twice", before("1h", "60m", "1h"), app.CodeValidation, "body.reminders.2"},
		{"an instant out of range", []app.Reminder{{At: &far}}, app.CodeInstantOutOfRange, "body.reminders.0.at"},
		{"too many", eleven, app.CodeOverLimit, "body.reminders"},
	}
	tk := f.task(f.admin, app.TaskCreate{Title: "x"})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.svc.CreateTask(f.ctx, f.admin, "", app.TaskCreate{Title: "x", Reminders: c.rs})
			wantRefusal(t, err, c.code, c.loc)
			_, err = f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Reminders: app.PatchOf(c.rs)})
			wantRefusal(t, err, c.code, c.loc)
		})
	}
}

// TestReminderFromLine checks that a captured line's reminders reach the
// task and its preview.
func TestReminderFromLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	in := app.TaskCreate{Text: "Call the bank tomorrow 11:00 remind 30m before remind at 8:00"}
	p := must(f.svc.PreviewTask(f.ctx, f.admin, "", in))(t)
	tk := f.task(f.admin, in)
	want := map[string]string{"before:30m": "2026-03-03T10:30:00Z", "at:2026-03-03T08:00:00Z": "2026-03-03T08:00:00Z"}
	wantFires(t, fireMap(tk), want)
	if len(p.Task.Reminders) != 2 || p.Task.Reminders[0].Before != "30m" {
		t.Errorf("the preview read %v", p.Task.Reminders)
	}
}
