package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// keepFix is an instance with an ntfy channel and a task due an hour after
// the epoch that reminds 30 minutes before.
func keepFix(t *testing.T) (*env, func() int, *webtest.Ntfy, map[string]any) {
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/t"})
	task := e.CreateTask(e.Admin, map[string]any{"title": "Renew passport", "due_at": storetest.Epoch.Add(time.Hour).Format(time.RFC3339),
		"reminders": []any{map[string]any{"before": "30m"}}})
	return e, func() int { return e.sendDue(w) }, ntfy, task
}

// TestReminderKeptByWrites: a write to a task keeps a firing already due
// but not yet sent and a snooze, while the task stays remindable; one
// that finishes the task withdraws them, and nothing is sent.
func TestReminderKeptByWrites(t *testing.T) {
	t.Parallel()
	// A due firing (tend was down, or the worker had not reached it) and
	// a snooze each survive a title edit and go out once, as edited.
	for _, snooze := range []bool{false, true} {
		t.Run(fmt.Sprintf("edit keeps snooze=%v", snooze), func(t *testing.T) {
			t.Parallel()
			e, send, ntfy, task := keepFix(t)
			if snooze {
				snoozeFirst(e, send, ntfy)
			} else {
				e.Clock.Advance(30 * time.Minute)
			}
			e.OK(http.StatusOK, http.MethodPatch, fmt.Sprintf("/v1/tasks/%v", task["ref"]), e.Admin, map[string]any{"title": "Renew the passport"})
			if snooze {
				e.Clock.Advance(time.Hour)
			}
			if n := send(); n != 1 {
				t.Fatalf("sent %d, want 1", n)
			}
			e.Clock.Advance(2 * time.Hour)
			if n := send(); n != 0 {
				t.Fatalf("sent %d more, want none", n)
			}
			if got := ntfy.Messages(); got[len(got)-1].Title != "Renew the passport" {
				t.Fatalf("published %+v", got)
			}
		})
	}
	t.Run("snooze dies with completion", func(t *testing.T) {
		t.Parallel()
		e, send, ntfy, task := keepFix(t)
		snoozeFirst(e, send, ntfy)
		e.OK(http.StatusOK, http.MethodPost, fmt.Sprintf("/v1/tasks/%v/complete", task["ref"]), e.Admin, nil)
		e.Clock.Advance(2 * time.Hour)
		// What goes out is the clear of the first message, nothing new.
		if n := send(); n != 1 || len(ntfy.Messages()) != 1 || len(ntfy.Cleared()) != 1 {
			t.Fatalf("sent %d after completion; published %d in all, cleared %v", n, len(ntfy.Messages()), ntfy.Cleared())
		}
	})
	t.Run("due fire dies with completion", func(t *testing.T) {
		t.Parallel()
		e, send, ntfy, task := keepFix(t)
		e.Clock.Advance(40 * time.Minute)
		e.OK(http.StatusOK, http.MethodPatch, fmt.Sprintf("/v1/tasks/%v", task["ref"]), e.Admin, map[string]any{"status": "done"})
		if n := send(); n != 0 || len(ntfy.Messages()) != 0 {
			t.Fatalf("sent %d for a finished task", n)
		}
	})
	// A firing no write withdrew (queued straight into the outbox here)
	// is still not sent once its task is finished.
	t.Run("worker skips a finished task", func(t *testing.T) {
		t.Parallel()
		e, send, ntfy, task := keepFix(t)
		e.OK(http.StatusOK, http.MethodPost, fmt.Sprintf("/v1/tasks/%v/complete", task["ref"]), e.Admin, nil)
		err := e.DB.Update(context.Background(), func(tx app.Tx) error {
			return tx.InsertReminderFire(context.Background(), app.ReminderFire{TaskID: task["id"].(string), UserID: e.adminActor().User.ID,
				Reminder: "before:30m", FireAt: storetest.Epoch.Add(30 * time.Minute)}, storetest.Epoch)
		})
		if err != nil {
			t.Fatal(err)
		}
		e.Clock.Advance(time.Hour)
		if n := send(); n != 0 || len(ntfy.Messages()) != 0 {
			t.Fatalf("sent %d for a finished task", n)
		}
	})
}

// snoozeFirst lets keepFix's reminder go out and follows its Snooze link.
func snoozeFirst(e *env, send func() int, ntfy *webtest.Ntfy) {
	e.T.Helper()
	e.Clock.Advance(30 * time.Minute)
	send()
	got := ntfy.Messages()
	if len(got) == 0 || len(got[len(got)-1].Actions) != 2 {
		e.T.Fatalf("published %+v", got)
	}
	link := strings.TrimPrefix(got[len(got)-1].Actions[1].URL, "https://tend.example")
	if r := e.OK(http.StatusOK, http.MethodPost, link, "", nil); r["action"] != "snooze" {
		e.T.Fatalf("snoozed %v", r)
	}
}
