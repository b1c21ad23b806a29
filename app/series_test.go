package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// The clock starts on Monday 2 March 2026, 09:00 UTC.

func TestSeriesCreate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cases := []struct {
		name     string
		in       app.TaskCreate
		due      time.Time
		allDay   bool
		describe string
		code     app.Code
		loc      string
	}{
		{name: "a repeat starts on its first day", in: app.TaskCreate{Title: "Gym", Repeat: "every wednesday"},
			due: day("2026-03-04"), allDay: true, describe: "every Wednesday"},
		{name: "a due moves to the rule's first day at or after it",
			in:  app.TaskCreate{Title: "Rent", Repeat: "monthly on the 15th", DueAt: ptr(day("2026-04-02")), DueIsAllDay: true},
			due: day("2026-04-15"), allDay: true, describe: "every month on the 15th"},
		{name: "from the line", in: app.TaskCreate{Text: "Water the plants every other friday"},
			due: day("2026-03-06"), allDay: true, describe: "every other Friday"},
		{name: "at a time of day in the task's zone", in: app.TaskCreate{Title: "Standup", Repeat: "every weekday at 9:30", Timezone: "Europe/Berlin"},
			due: time.Date(2026, 3, 3, 8, 30, 0, 0, time.UTC), describe: "every weekday at 9:30"},
		{name: "a phrase that is no repeat", in: app.TaskCreate{Title: "x", Repeat: "sometimes"}, code: app.CodeRecurrence, loc: "body.repeat"},
		{name: "a repeat that ended before it began", in: app.TaskCreate{Title: "x", Repeat: "every day until jan 1 2026"},
			code: app.CodeRecurrence, loc: "body.repeat"},
		{name: "a due after the line's repeat has ended",
			in:   app.TaskCreate{Text: "Gym every day until mar 10 2026", DueAt: ptr(day("2026-03-20")), DueIsAllDay: true},
			code: app.CodeRecurrence, loc: "body.repeat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.CreateTask(f.ctx, f.admin, "", c.in)
			if wantRefusal(t, err, c.code, c.loc) {
				return
			}
			if got.DueAt == nil || !got.DueAt.Equal(c.due) || got.DueIsAllDay != c.allDay || got.SeriesID == "" || got.Occurrence != 1 {
				t.Errorf("due %v (all day %v), series %q #%d; want due %v (all day %v)", got.DueAt, got.DueIsAllDay,
					got.SeriesID, got.Occurrence, c.due, c.allDay)
			}
			if got.RecurrenceDescription != c.describe {
				t.Errorf("described %q, want %q", got.RecurrenceDescription, c.describe)
			}
		})
	}
}

func TestSeriesSkip(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	plain := f.task(f.admin, app.TaskCreate{Title: "once"})
	_, err := f.svc.SkipTask(f.ctx, f.admin, "", ref(plain.Ref))
	wantCode(t, err, app.CodeNotRepeating)

	first := f.task(f.admin, app.TaskCreate{Title: "Gym", Repeat: "every wednesday", Tags: []string{"health"}, Importance: ptr(4)})
	skipped := must(f.svc.SkipTask(f.ctx, f.admin, "", ref(first.Ref)))(t)
	if skipped.Status.Category != app.CategoryCancelled || skipped.CompletedAt == nil {
		t.Errorf("skipped: status %s", skipped.Status.Key)
	}
	list := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{}))(t)
	if len(list.Items) != 2 {
		t.Fatalf("open tasks %v, want the plain one and the next occurrence", refs(list.Items))
	}
	next := list.Items[1]
	if next.SeriesID != first.SeriesID || next.Occurrence != 2 || !next.DueAt.Equal(day("2026-03-11")) ||
		next.Title != "Gym" || !slices.Equal(next.Tags, []string{"health"}) || *next.Importance != 4 || next.Status.Key != "todo" {
		t.Errorf("next occurrence: %+v", next)
	}
	// Skipping the skipped one again brings nothing more.
	again := must(f.svc.SkipTask(f.ctx, f.admin, "", ref(first.Ref)))(t)
	if again.Version != skipped.Version {
		t.Errorf("a second skip moved the version from %d to %d", skipped.Version, again.Version)
	}
	if n := len(must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{}))(t).Items); n != 2 {
		t.Errorf("%d open tasks after a second skip, want 2", n)
	}
}

func TestSeriesUpdate(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	series := func(t *testing.T, title string) app.Task {
		return f.on(t).task(f.admin, app.TaskCreate{Title: title, Repeat: "every day"})
	}
	nextOf := func(t *testing.T, tk app.Task) app.Task {
		must(f.svc.SkipTask(f.ctx, f.admin, "", ref(tk.Ref)))(t)
		all := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{Limit: 500}))(t)
		for _, x := range all.Items {
			if x.SeriesID == tk.SeriesID && x.Occurrence == tk.Occurrence+1 {
				return x
			}
		}
		t.Fatalf("no occurrence after #%d", tk.Ref)
		return app.Task{}
	}

	t.Run("a series field needs applies_to", func(t *testing.T) {
		tk := series(t, "a")
		_, err := f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("b")})
		wantCode(t, err, app.CodeAppliesToRequired)
		wantField(t, err, "body.applies_to")
		// Status, deferral and plan belong to one occurrence.
		must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Status: app.PatchOf("in_progress"),
			Defer: app.PatchOf("tomorrow")}))(t)
	})
	t.Run("this_one keeps the series' value for the next", func(t *testing.T) {
		tk := series(t, "walk")
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("walk far"),
			AppliesTo: app.PatchOf(app.AppliesThisOne)}))(t)
		if got.Title != "walk far" {
			t.Errorf("title %q", got.Title)
		}
		if next := nextOf(t, got); next.Title != "walk" {
			t.Errorf("next title %q, want the series' walk", next.Title)
		}
	})
	t.Run("from_now_on changes the next too", func(t *testing.T) {
		tk := series(t, "run")
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Title: app.PatchOf("run fast"),
			AppliesTo: app.PatchOf(app.AppliesFromNowOn)}))(t)
		if next := nextOf(t, got); next.Title != "run fast" {
			t.Errorf("next title %q, want run fast", next.Title)
		}
	})
	t.Run("a new repeat", func(t *testing.T) {
		tk := series(t, "swap")
		got := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Repeat: app.PatchOf("every friday")}))(t)
		if got.RecurrenceDescription != "every Friday" || !got.DueAt.Equal(day("2026-03-06")) {
			t.Errorf("repeat %q due %v", got.RecurrenceDescription, got.DueAt)
		}
		stopped := must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Repeat: app.PatchOf("")}))(t)
		if stopped.RepeatRule != "" || stopped.RecurrenceDescription != "" {
			t.Errorf("stopped: rule %q", stopped.RepeatRule)
		}
		_, err := f.svc.SkipTask(f.ctx, f.admin, "", ref(tk.Ref))
		wantCode(t, err, app.CodeNotRepeating)
	})
	t.Run("a repeat that does not parse", func(t *testing.T) {
		tk := series(t, "bad")
		_, err := f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Repeat: app.PatchOf("every blue moon")})
		wantCode(t, err, app.CodeRecurrence)
		wantField(t, err, "body.repeat")
	})
	t.Run("a due after the repeat has ended", func(t *testing.T) {
		tk := f.on(t).task(f.admin, app.TaskCreate{Title: "ends", Repeat: "every day until mar 10 2026"})
		_, err := f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{DueAt: app.PatchOf(day("2026-03-20")),
			AppliesTo: app.PatchOf(app.AppliesFromNowOn)})
		wantCode(t, err, app.CodeRecurrence)
		wantField(t, err, "body.due_at")
	})
	t.Run("a repeat for this one only", func(t *testing.T) {
		tk := series(t, "this")
		_, err := f.svc.UpdateTask(f.ctx, f.admin, "", ref(tk.Ref), app.TaskUpdate{Repeat: app.PatchOf("every friday"),
			AppliesTo: app.PatchOf(app.AppliesThisOne)})
		wantCode(t, err, app.CodeValidation)
		wantField(t, err, "body.applies_to")
	})
}

func TestSeriesOccurrences(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.task(f.admin, app.TaskCreate{Title: "Gym", Repeat: "every wednesday"})
	plain := f.task(f.admin, app.TaskCreate{Title: "once"})
	cases := []struct {
		name string
		ref  int64
		q    app.OccurrencesQuery
		want []time.Time
		more bool
		code app.Code
	}{
		{"a limit", tk.Ref, app.OccurrencesQuery{Limit: 3}, []time.Time{day("2026-03-04"), day("2026-03-11"), day("2026-03-18")}, true, ""},
		{"until a day, counted to its end", tk.Ref, app.OccurrencesQuery{Until: "2026-03-11"},
			[]time.Time{day("2026-03-04"), day("2026-03-11")}, false, ""},
		{"a limit too high", tk.Ref, app.OccurrencesQuery{Limit: app.MaxOccurrences + 1}, nil, false, app.CodeValidation},
		{"an until that does not parse", tk.Ref, app.OccurrencesQuery{Until: "whenever"}, nil, false, app.CodeValidation},
		{"a task that does not repeat", plain.Ref, app.OccurrencesQuery{}, nil, false, app.CodeNotRepeating},
		{"no such task", 99999, app.OccurrencesQuery{}, nil, false, app.CodeNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.TaskOccurrences(f.ctx, f.admin, "", ref(c.ref), c.q)
			if wantRefusal(t, err, c.code, "") {
				return
			}
			if !slices.EqualFunc(got.Occurrences, c.want, time.Time.Equal) || got.HasMore != c.more || got.Description != "every Wednesday" {
				t.Errorf("got %v (more %v, %q), want %v (more %v)", got.Occurrences, got.HasMore, got.Description, c.want, c.more)
			}
		})
	}
}

func TestSeriesParse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	cases := []struct {
		name  string
		in    app.RecurrenceParse
		rule  string
		first time.Time
		code  app.Code
		loc   string
	}{
		{"a phrase", app.RecurrenceParse{Text: "every other friday"}, "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", day("2026-03-06"), "", ""},
		{"from a day", app.RecurrenceParse{Text: "every day", From: ptr(day("2026-05-01"))}, "FREQ=DAILY", day("2026-05-01"), "", ""},
		{"empty", app.RecurrenceParse{}, "", time.Time{}, app.CodeValidation, "body.text"},
		{"no repeat", app.RecurrenceParse{Text: "tomorrow"}, "", time.Time{}, app.CodeRecurrence, "body.text"},
		{"an unknown zone", app.RecurrenceParse{Text: "daily", Timezone: "Nowhere"}, "", time.Time{}, app.CodeValidation, "body.timezone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := f.svc.ParseRecurrence(f.ctx, f.admin, c.in)
			if wantRefusal(t, err, c.code, c.loc) {
				return
			}
			if !strings.Contains(got.Rule, c.rule) || len(got.Occurrences) != app.DefaultOccurrences || !got.Occurrences[0].Equal(c.first) {
				t.Errorf("rule %q, first of %d %v; want %q from %v", got.Rule, len(got.Occurrences), got.Occurrences, c.rule, c.first)
			}
		})
	}
}
