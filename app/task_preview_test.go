package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestTaskPreview previews each input, then creates it: the preview says
// what the create makes, field by field, and stores nothing.
func TestTaskPreview(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.person("bob", app.RoleMember)
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	f.task(f.admin, app.TaskCreate{Title: "Tagged", Tags: []string{"Finance"}})
	for _, in := range []app.TaskCreate{
		{Text: "Call the bank tomorrow 9am !4 #finance every month"},
		{Text: "Weekly review every friday at 16:00 +web ~1h"},
		{Text: "Dentist next tuesday at 3pm #health #new-tag"},
		{Text: "Water the plants every! 3 days", Assignee: "bob", Type: "chore"},
		{Text: "Fix login bug !4/5 #bug +web by friday", Title: "Own title", Status: "in_progress"},
		{Title: "Structured", Repeat: "every other friday", Tags: []string{"ops"}, Importance: ptr(2)},
		{Title: "Planned", StartsAt: ptr(day("2026-03-05")), StartsIsAllDay: true},
	} {
		t.Run(in.Text+in.Title, func(t *testing.T) {
			tags := must(f.svc.Tags(f.ctx, f.admin, "", 100, "", false))(t)
			p := must(f.svc.PreviewTask(f.ctx, f.admin, "", in))(t)
			if after := must(f.svc.Tags(f.ctx, f.admin, "", 100, "", false))(t); len(after.Items) != len(tags.Items) {
				t.Errorf("the preview made %d tags", len(after.Items)-len(tags.Items))
			}
			got := must(f.svc.CreateTask(f.ctx, f.admin, "", in))(t)
			w := p.Task
			if w.Title != got.Title || w.ProjectKey != got.ProjectKey || w.ProjectPath != got.ProjectPath || !slices.Equal(w.Tags, got.Tags) ||
				!eqPtr(w.Importance, got.Importance) || !eqPtr(w.Urgency, got.Urgency) || !eqPtr(w.EstimateMinutes, got.EstimateMinutes) ||
				!eqTime(w.DueAt, got.DueAt) || w.DueIsAllDay != got.DueIsAllDay || !eqTime(w.StartsAt, got.StartsAt) ||
				w.StartsIsAllDay != got.StartsIsAllDay || w.RepeatRule != got.RepeatRule || w.RecurrenceDescription != got.RecurrenceDescription ||
				w.Timezone != got.Timezone || w.Type.Key != got.Type.Key || w.Status.Key != got.Status.Key || w.Assignee != got.Assignee {
				t.Errorf("preview %+v\n created %+v", w, got)
			}
			if w.ID != "" || w.Ref != 0 {
				t.Errorf("the preview has id %q ref %d", w.ID, w.Ref)
			}
			if (got.RepeatRule != "") != (len(p.Occurrences) == app.PreviewOccurrences) || len(p.Occurrences) > 0 && !p.Occurrences[0].Equal(*got.DueAt) {
				t.Errorf("occurrences %v for due %v, repeat %q", p.Occurrences, got.DueAt, got.RepeatRule)
			}
			if p.FromCompletion != strings.Contains(got.RepeatRule, "X-TEND-FROM-COMPLETION:TRUE") || p.FromCompletion != strings.Contains(in.Text, "every!") {
				t.Errorf("from completion %v for the rule %q", p.FromCompletion, got.RepeatRule)
			}
			if in.Text != "" && len(p.Spans) == 0 {
				t.Errorf("no spans for %q", in.Text)
			}
		})
	}
	p := must(f.svc.PreviewTask(f.ctx, f.admin, "", app.TaskCreate{Text: "Pay #FINANCE and #brand-new"}))(t)
	if want := []string{"brand-new", "Finance"}; !slices.Equal(p.Task.Tags, want) {
		t.Errorf("tags %v, want the stored spelling of one and the new as written: %v", p.Task.Tags, want)
	}
}

// TestTaskPreviewRefusals: what CreateTask refuses, PreviewTask refuses
// with the same code and location.
func TestTaskPreviewRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	f.person("stranger", "")
	for _, c := range []struct {
		name string
		who  app.Actor
		in   app.TaskCreate
	}{
		{"a line of markers only", f.admin, app.TaskCreate{Text: "tomorrow #x !4"}},
		{"an empty line", f.admin, app.TaskCreate{Text: "   "}},
		{"an unknown project", f.admin, app.TaskCreate{Text: "Ship it +nope"}},
		{"a repeat ending before it starts", f.admin, app.TaskCreate{Text: "Gym every day until dec 1 on dec 5"}},
		{"a title too long", f.admin, app.TaskCreate{Text: strings.Repeat("word ", 120) + "tomorrow"}},
		{"a bad repeat field", f.admin, app.TaskCreate{Text: "Call mum", Repeat: "every fortnightly moon"}},
		{"an unknown type", f.admin, app.TaskCreate{Text: "Call mum", Type: "note"}},
		{"an assignee outside", f.admin, app.TaskCreate{Text: "Call mum", Assignee: "stranger"}},
		{"an unknown workspace", f.admin, app.TaskCreate{Text: "Call mum"}},
		{"a viewer", viewer, app.TaskCreate{Text: "Call mum tomorrow"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := ""
			if c.name == "an unknown workspace" {
				ws = "nowhere"
			}
			_, perr := f.svc.PreviewTask(f.ctx, c.who, ws, c.in)
			_, cerr := f.svc.CreateTask(f.ctx, c.who, ws, c.in)
			if cerr == nil || perr == nil {
				t.Fatalf("create refused: %v; preview refused: %v", cerr, perr)
			}
			pe, ce := app.AsError(perr), app.AsError(cerr)
			if pe.Code != ce.Code || pe.Detail != ce.Detail || !slices.EqualFunc(pe.Fields, ce.Fields, func(a, b app.FieldError) bool {
				return slices.Equal(a.Loc, b.Loc) && a.Msg == b.Msg
			}) {
				t.Errorf("preview refused %+v\n create refused %+v", pe, ce)
			}
		})
	}
}

func eqPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func eqTime(a, b *time.Time) bool { return a == nil && b == nil || a != nil && b != nil && a.Equal(*b) }
