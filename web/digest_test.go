package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// TestDigestSetting: digest_time is off by default, set and read back on
// the account, turned off with null; a bad time and someone else's are
// refused.
func TestDigestSetting(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	me := func() map[string]any {
		return e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)["user"].(map[string]any)
	}
	if got := me()["digest_time"]; got != nil {
		t.Fatalf("digest_time by default %v, want null", got)
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"digest_time": "07:30"})
	if got := me()["digest_time"]; got != "07:30" {
		t.Fatalf("digest_time %v, want 07:30", got)
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"digest_time": nil})
	if got := me()["digest_time"]; got != nil {
		t.Fatalf("digest_time %v after null, want null", got)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"digest_time": "25:00"})
	e.account(map[string]any{"username": "bob"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"digest_time": "08:00"})
}

// TestDigestOncePerDay: the digest comes at 07:30 in the person's zone,
// once that day and again the next; it is off until set.
func TestDigestOncePerDay(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/d"})
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	now := e.Clock.Now().In(ny)
	e.CreateTask(e.Admin, map[string]any{"title": "Pay rent", "due_at": now.AddDate(0, 0, -1).Format(time.RFC3339)})
	e.CreateTask(e.Admin, map[string]any{"title": "Call the plumber", "due_at": time.Date(now.Year(), now.Month(), now.Day(), 15, 0, 0, 0, ny).Format(time.RFC3339)})
	e.CreateTask(e.Admin, map[string]any{"title": "Someday"})

	e.Clock.Advance(24 * time.Hour)
	if n := e.sendDue(w); n != 0 {
		t.Fatalf("sent %d with the digest off", n)
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"digest_time": "07:30", "timezone": "America/New_York"})
	now = e.Clock.Now().In(ny)
	at := time.Date(now.Year(), now.Month(), now.Day(), 7, 30, 0, 0, ny)
	if !at.After(now) {
		t.Fatalf("the test starts at %v, after 07:30 in New York", now)
	}
	e.Clock.Set(at.Add(-time.Minute))
	if n := e.sendDue(w); n != 0 {
		t.Fatalf("sent %d before 07:30", n)
	}
	e.Clock.Set(at)
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d at 07:30, want the digest", n)
	}
	m := ntfy.Messages()[0]
	if m.Title != "Today: 2 overdue" || !strings.HasPrefix(m.Message, "Pay rent; Call the plumber") {
		t.Fatalf("digest %+v", m)
	}
	e.Clock.Advance(12 * time.Hour)
	if n := e.sendDue(w); n != 0 {
		t.Fatalf("sent %d more the same day", n)
	}
	e.Clock.Set(at.AddDate(0, 0, 1))
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d the next day at 07:30, want the digest", n)
	}
}

// TestDigestNothingDue: a person with nothing overdue, due or in progress
// gets no digest.
func TestDigestNothingDue(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/d"})
	e.CreateTask(e.Admin, map[string]any{"title": "Someday"})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"digest_time": "07:30"})
	e.Clock.Advance(48 * time.Hour)
	if n := e.sendDue(w); n != 0 || len(ntfy.Messages()) != 0 {
		t.Fatalf("sent %d with nothing due", n)
	}
}
