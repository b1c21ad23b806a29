package app_test

import (
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// waitFixture is a fixture whose waits on the change feed end only when
// the test sends on ends, and whose credentials may each hold two.
func waitFixture(t *testing.T) (*fixture, chan time.Time) {
	ends := make(chan time.Time)
	f := newFixtureWith(t, app.Options{Version: "test", Limits: app.Limits{WaitersPerCredential: 2},
		Timer: func(time.Duration) (<-chan time.Time, func()) { return ends, func() {} }})
	return f, ends
}

// waitFor reads the change feed from since with a wait of secs, in the
// background: the answer arrives on the channel returned once the call
// is waiting.
func (f *fixture) waitFor(a app.Actor, since int64, secs int) <-chan app.FeedPage {
	f.t.Helper()
	before := f.svc.IdleWaits()
	return storetest.Waiting(func() app.FeedPage {
		page, err := f.svc.Changes(f.ctx, a, app.FeedQuery{Since: &since, WaitSeconds: &secs})
		if err != nil {
			f.t.Error(err)
		}
		return page
	}, func() bool { return f.svc.IdleWaits() > before })
}

// seen lists the page's events' actions.
func seen(p app.FeedPage) []string {
	return actions(p.Items, func(e app.Event) string { return e.Action })
}

func TestChangesWait(t *testing.T) {
	t.Parallel()
	f, ends := waitFixture(t)
	bob := f.person("bob", app.RoleMember)
	newest := must(f.svc.NewestChange(f.ctx, f.admin, ""))(t)
	thirty := 30

	t.Run("an event there already answers at once", func(t *testing.T) {
		page := must(f.svc.Changes(f.ctx, f.admin, app.FeedQuery{Since: &newest, WaitSeconds: &thirty}))(t)
		if len(page.Items) != 1 || page.Items[0].Seq != newest {
			t.Errorf("got %v, want the event at %d", seen(page), newest)
		}
	})

	t.Run("a commit wakes the waiter", func(t *testing.T) {
		got := f.on(t).waitFor(f.admin, newest+1, 30)
		task := f.task(f.admin, app.TaskCreate{Title: "woken"})
		page := <-got
		if len(page.Items) != 1 || page.Items[0].Action != "task.created" || page.Items[0].EntityID != task.ID {
			t.Errorf("woken with %v, want the task's creation", seen(page))
		}
		newest = page.Items[0].Seq
	})

	t.Run("a commit the waiter may not see leaves it waiting", func(t *testing.T) {
		got := f.on(t).waitFor(bob, newest+1, 30)
		hidden := f.secretTask()
		ends <- time.Time{}
		if page := <-got; len(page.Items) != 0 {
			t.Errorf("bob saw %v of a private project's work", seen(page))
		}
		newest = must(f.svc.NewestChange(f.ctx, f.admin, ""))(t)
		if hidden.Ref == 0 {
			t.Fatal("no hidden task")
		}
	})

	t.Run("the wait runs out with an empty page", func(t *testing.T) {
		got := f.on(t).waitFor(f.admin, newest+1, 1)
		ends <- time.Time{}
		if page := <-got; len(page.Items) != 0 || page.Page.HasMore {
			t.Errorf("an expired wait answered %v", seen(page))
		}
	})

	t.Run("refusals", func(t *testing.T) {
		since := newest + 1
		// Two waits of one credential are open: a third is refused, and
		// another credential still waits.
		first, second := f.on(t).waitFor(f.admin, since, 60), f.on(t).waitFor(f.admin, since, 60)
		wantRefused(t, []refused[app.FeedQuery]{
			{"a wait without since", f.admin, app.FeedQuery{WaitSeconds: ptr(30)}, app.CodeValidation, "query.wait"},
			{"a wait of 0 s", f.admin, app.FeedQuery{Since: &since, WaitSeconds: ptr(0)}, app.CodeValidation, "query.wait"},
			{"a wait over 60 s", f.admin, app.FeedQuery{Since: &since, WaitSeconds: ptr(61)}, app.CodeValidation, "query.wait"},
			{"a third wait of one credential", f.admin, app.FeedQuery{Since: &since, WaitSeconds: ptr(60)}, app.CodeTooManyWaiters, ""},
		}, func(a app.Actor, q app.FeedQuery) error {
			_, err := f.svc.Changes(f.ctx, a, q)
			return err
		})
		third := f.on(t).waitFor(bob, since, 60)
		for range 3 {
			ends <- time.Time{}
		}
		<-first
		<-second
		<-third
		if n := f.svc.Waiting(); n != 0 {
			t.Errorf("%d waits still counted after all answered", n)
		}
	})
}

// TestChangesWaitShared is one write waking several waiters: those asking
// the same as the same caller share one read and one rendering of it, and
// callers whose sight differs, even two credentials of one account, each
// get their own, so the hidden stays hidden.
func TestChangesWaitShared(t *testing.T) {
	t.Parallel()
	f, ends := waitFixture(t)
	f.project(f.admin, app.ProjectCreate{Key: "open"})
	f.project(f.admin, app.ProjectCreate{Key: "secret", Visibility: "private"})
	narrowed := f.login(f.issue(app.TokenCreate{Title: "open only", ProjectScope: app.PatchOf([]string{"open"})}))
	bob := f.person("bob", app.RoleMember)
	since := must(f.svc.NewestChange(f.ctx, f.admin, ""))(t) + 1

	first, second := f.waitFor(f.admin, since, 60), f.waitFor(f.admin, since, 60)
	other, outsider := f.waitFor(narrowed, since, 60), f.waitFor(bob, since, 60)
	task := f.task(f.admin, app.TaskCreate{Title: "hidden", Project: "secret"})
	renders := 0
	render := func() ([]byte, error) { renders++; return []byte("page"), nil }
	for _, got := range []<-chan app.FeedPage{first, second} {
		p := <-got
		if len(p.Items) != 1 || p.Items[0].EntityID != task.ID {
			t.Errorf("the administrator was woken with %v, want the task's creation", seen(p))
		}
		if b, err := p.Rendered("as JSON", render); string(b) != "page" || err != nil {
			t.Errorf("Rendered answered %q, %v", b, err)
		}
	}
	if renders != 1 {
		t.Errorf("the administrator's two waits rendered their page %d times, want once", renders)
	}
	ends <- time.Time{}
	ends <- time.Time{}
	for who, got := range map[string]<-chan app.FeedPage{"a credential narrowed to another project": other, "bob": outsider} {
		if p := <-got; len(p.Items) != 0 {
			t.Errorf("%s saw %v of a private project's work", who, seen(p))
		}
	}
	if n := f.svc.Waiting(); n != 0 {
		t.Errorf("%d waits still counted after all answered", n)
	}
}
