package app_test

import (
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

func TestTaskComplete(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	viewer := f.person("vera", app.RoleViewer)
	tk := f.task(f.admin, app.TaskCreate{Title: "Ship"})

	_, err := f.complete(viewer, ref(tk.Ref))
	wantCode(t, err, app.CodeForbidden)
	_, err = f.complete(f.admin, "99999")
	wantCode(t, err, app.CodeNotFound)

	f.clock.Advance(time.Hour)
	done := must(f.complete(f.admin, ref(tk.Ref)))(t)
	if done.Status.Key != "done" || !done.IsComplete() || !done.CompletedAt.Equal(storetest.Epoch.Add(time.Hour)) || done.Version != 2 {
		t.Errorf("completed: status %s at %v, version %d", done.Status.Key, done.CompletedAt, done.Version)
	}
	again := must(f.complete(f.admin, ref(tk.Ref)))(t)
	if again.Version != done.Version || !again.CompletedAt.Equal(*done.CompletedAt) {
		t.Errorf("completing twice changed the task: version %d, completed %v", again.Version, again.CompletedAt)
	}
}

// TestTaskCompleteRepeat checks that completing an occurrence brings
// exactly one next occurrence, scheduled by the rule.
func TestTaskCompleteRepeat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		repeat string
		after  time.Duration // the clock moves this far before completing
		dues   []time.Time   // of the occurrences after the first, in order
	}{
		{"on the rule's days", "every wednesday", 0, []time.Time{day("2026-03-11"), day("2026-03-18")}},
		{"from completion", "3 days after done", 48 * time.Hour, []time.Time{day("2026-03-07"), day("2026-03-09")}},
		{"a series that ends", "every day for 2 times", 0, []time.Time{day("2026-03-03")}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			cur := f.task(f.admin, app.TaskCreate{Title: c.name, Repeat: c.repeat})
			var dues []time.Time
			for range 2 {
				f.clock.Advance(c.after)
				first := must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(cur.Ref), app.Completion{}))(t)
				if again := must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(cur.Ref), app.Completion{}))(t); again.Next != nil {
					t.Fatalf("a second completion of #%d answered a next occurrence #%d", cur.Ref, again.Next.Ref)
				}
				open := must(f.svc.Tasks(f.ctx, f.admin, app.TaskListQuery{}))(t).Items
				if len(open) == 0 {
					if first.Next != nil {
						t.Fatalf("the series ended, yet completing #%d answered #%d", cur.Ref, first.Next.Ref)
					}
					break
				}
				if len(open) != 1 {
					t.Fatalf("after completing #%d: open %v, want one next occurrence", cur.Ref, refs(open))
				}
				if first.Next == nil || first.Next.Ref != open[0].Ref || first.Next.Status.Key == "" || first.Next.IsComplete() {
					t.Fatalf("completing #%d answered next %+v, want the open #%d", cur.Ref, first.Next, open[0].Ref)
				}
				cur = open[0]
				dues = append(dues, *cur.DueAt)
			}
			if len(dues) != len(c.dues) {
				t.Fatalf("dues %v, want %v", dues, c.dues)
			}
			for i := range dues {
				if !dues[i].Equal(c.dues[i]) {
					t.Errorf("dues %v, want %v", dues, c.dues)
				}
			}
		})
	}
}

// complete completes a task without a verification and returns it as the
// completion left it.
func (f *fixture) complete(a app.Actor, ref string) (app.Task, error) {
	c, err := f.svc.CompleteTask(f.ctx, a, "", ref, app.Completion{})
	return c.Task, err
}

// TestTaskCompleteWithVerification checks that a verification sent with a
// completion is stored with it, and that a refused verification completes
// nothing.
func TestTaskCompleteWithVerification(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tk := f.task(f.admin, app.TaskCreate{Title: "Verify"})
	yes, sum := true, "go test green"
	long := strings.Repeat("x", 2001)

	_, err := f.svc.CompleteTask(f.ctx, f.admin, "", ref(tk.Ref), app.Completion{Verification: &app.RecordVerification{Passed: &yes, Summary: &long}})
	wantRefusal(t, err, app.CodeValidation, "body.verification.summary")
	if got := must(f.svc.TaskGet(f.ctx, f.admin, "", ref(tk.Ref)))(t); got.IsComplete() {
		t.Fatalf("a refused verification completed #%d", tk.Ref)
	}

	c := must(f.svc.CompleteTask(f.ctx, f.admin, "", ref(tk.Ref), app.Completion{Verification: &app.RecordVerification{Passed: &yes, Summary: &sum}}))(t)
	if !c.Task.IsComplete() || c.Verification == nil || !c.Verification.Passed || c.Verification.Summary != sum {
		t.Fatalf("completed %v with verification %+v", c.Task.IsComplete(), c.Verification)
	}
	vs := must(f.svc.Verifications(f.ctx, f.admin, "", ref(tk.Ref)))(t)
	if len(vs) != 1 || vs[0].ID != c.Verification.ID {
		t.Errorf("verifications stored: %+v, want the one recorded with the completion", vs)
	}
}
