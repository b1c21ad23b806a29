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
	"tend/web/notify"
	"tend/web/webtest"
)

// notifyEnv is a test instance that lets channels reach loopback, with a
// worker to run on its fixed clock.
func notifyEnv(t *testing.T) (*env, *notify.Worker) {
	allow := storetest.Loopback(t)
	e := newEnvWith(t, app.Options{Version: "test", Outbound: allow, PublicURL: "https://tend.example"})
	return e, notify.New(e.Svc, notify.Options{Outbound: allow})
}

func (e *env) sendDue(w *notify.Worker) int {
	e.T.Helper()
	n, err := w.RunOnce(context.Background())
	if err != nil {
		e.T.Fatal(err)
	}
	return n
}

// TestChannelRoutesRefuse: every refusal of the channel, notification and
// action routes, with its status and code.
func TestChannelRoutesRefuse(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	for _, body := range []map[string]any{
		{"type": "ntfy", "url": "http://127.0.0.1:8080/topic"},
		{"type": "ntfy", "url": "http://10.0.0.7/topic"},
		{"type": "ntfy", "url": "https://93.184.216.34/"},
		{"type": "ntfy"},
		{"type": "ntfy", "url": "ftp://93.184.216.34/topic"},
		{"type": "pager", "url": "https://93.184.216.34/topic"},
		{"type": "webpush", "endpoint": "https://93.184.216.34/push/1", "keys": map[string]any{"p256dh": "short", "auth": "x"}},
		{"type": "webpush", "keys": map[string]any{"p256dh": b64(65), "auth": b64(16)}},
	} {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/me/channels", e.Admin, body)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "topic": "x"})
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, "/v1/me/channels", "", nil)

	bot := e.Issue(e.Admin, map[string]any{"username": "admin-bot", "answers_to": "admin"})["token"].(string)
	for _, r := range []struct{ method, path string }{{http.MethodGet, "/v1/me/channels"}, {http.MethodGet, "/v1/me/notifications"},
		{http.MethodDelete, "/v1/me/channels/x"}, {http.MethodPost, "/v1/me/channels/x/test"}} {
		e.Problem(http.StatusForbidden, "forbidden", r.method, r.path, bot, nil)
	}
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/me/channels", bot, map[string]any{"type": "ntfy", "url": "https://93.184.216.34/t"})

	c := e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": "https://93.184.216.34/t", "token": "tk_secret"})
	if c["has_token"] != true || strings.Contains(fmt.Sprint(e.OK(http.StatusOK, http.MethodGet, "/v1/me/channels", e.Admin, nil)), "tk_secret") {
		t.Fatalf("channel %v shows or lost its token", c)
	}
	ann := e.Person("ann")
	path := "/v1/me/channels/" + c["id"].(string)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, path, ann, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, path+"/test", ann, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/me/notifications?limit=500", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/me/notifications?limit=0", e.Admin, nil)
	for i := 1; i < app.MaxChannels; i++ {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": fmt.Sprintf("https://93.184.216.34/t%d", i)})
	}
	e.Problem(http.StatusUnprocessableEntity, "over_limit", http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": "https://93.184.216.34/more"})
	e.OK(http.StatusNoContent, http.MethodDelete, path, e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, path, e.Admin, nil)

	for _, tok := range []string{"nope", "ntf_x.done.AAAA", "ntf_x.open.AAAA"} {
		e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/actions/"+tok, "", nil)
	}
	key := e.OK(http.StatusOK, http.MethodGet, "/v1/push/key", "", nil)["vapid_public_key"].(string)
	if len(key) != 87 || e.OK(http.StatusOK, http.MethodGet, "/v1/push/key", "", nil)["vapid_public_key"] != key {
		t.Errorf("push key %q: not a stable 65-byte point", key)
	}
}

// b64 is n bytes of base64url.
func b64(n int) string {
	return strings.Repeat("A", (n*8+5)/6)
}

// TestWebPushChannelOnce: the same subscription posted again answers its
// channel, 200, and only the push service's origin is ever shown.
func TestWebPushChannelOnce(t *testing.T) {
	t.Parallel()
	e := newCheckedEnv(t)
	sub := map[string]any{"type": "webpush", "endpoint": "https://93.184.216.34/push/secret-part", "expirationTime": nil,
		"keys": map[string]any{"p256dh": "B" + b64(65)[1:], "auth": b64(16)}, "name": "laptop"}
	first := e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, sub)
	again := e.OK(http.StatusOK, http.MethodPost, "/v1/me/channels", e.Admin, sub)
	if first["id"] != again["id"] || first["url"] != "https://93.184.216.34" {
		t.Fatalf("first %v, again %v", first, again)
	}
}

// TestNtfyReminderAndActions: a reminder coming due on the fixed clock is
// published to ntfy in its documented JSON; Done completes the task once
// and answers 410 the second time; Snooze queues the reminder again in an
// hour; a link past its day answers 410.
func TestNtfyReminderAndActions(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "tk_abc")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/reminders", "token": "tk_abc"})
	due := storetest.Epoch.Add(time.Hour)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Renew passport", "due_at": due.Format(time.RFC3339), "reminders": []any{map[string]any{"before": "30m"}}})
	if n := e.sendDue(w); n != 0 {
		t.Fatalf("sent %d before the reminder's time", n)
	}
	e.Clock.Advance(30 * time.Minute)
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d, want 1", n)
	}
	got := ntfy.Messages()
	m := got[0]
	if m.Topic != "reminders" || m.Title != "Renew passport" || m.Message != "Due today 10:00" || len(m.Actions) != 2 ||
		m.Click != fmt.Sprintf("https://tend.example/tasks/%v?workspace_id=%v", task["ref"], task["workspace_id"]) {
		t.Fatalf("published %+v", m)
	}
	done := strings.TrimPrefix(m.Actions[0].URL, "https://tend.example")
	snooze := strings.TrimPrefix(m.Actions[1].URL, "https://tend.example")
	page := e.Do(http.MethodGet, done, "", nil)
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), `<form method="post">`) || e.IsComplete(int(task["ref"].(float64))) {
		t.Fatalf("GET of the link: %d %s", page.Status, page.Body)
	}
	e.OK(http.StatusOK, http.MethodPost, done, "", nil)
	if !e.IsComplete(int(task["ref"].(float64))) {
		t.Fatal("Done did not complete the task")
	}
	e.Problem(http.StatusGone, "action_used", http.MethodPost, done, "", nil)
	forged := done[:len(done)-2] + "AA"
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, forged, "", nil)

	e.CreateTask(e.Admin, map[string]any{"title": "Water plants", "due_at": storetest.Epoch.Add(2 * time.Hour).Format(time.RFC3339),
		"reminders": []any{map[string]any{"before": "0m"}}})
	e.Clock.Advance(90 * time.Minute)
	e.sendDue(w)
	got = ntfy.Messages()
	if len(got) != 2 || got[1].Title != "Water plants" {
		t.Fatalf("published %+v", got)
	}
	snoozed := e.OK(http.StatusOK, http.MethodPost, strings.TrimPrefix(got[1].Actions[1].URL, "https://tend.example"), "", nil)
	if snoozed["action"] != "snooze" || snoozed["until"] != storetest.Epoch.Add(3*time.Hour).Format(time.RFC3339) {
		t.Fatalf("snoozed %v", snoozed)
	}
	e.Clock.Advance(time.Hour)
	e.sendDue(w)
	if got = ntfy.Messages(); len(got) != 3 || got[2].Title != "Water plants" {
		t.Fatalf("after the snooze, published %+v", got)
	}
	e.Clock.Advance(25 * time.Hour)
	e.Problem(http.StatusGone, "action_expired", http.MethodPost, strings.TrimPrefix(got[2].Actions[0].URL, "https://tend.example"), "", nil)
	// A notification's links are spent together: Done used the first's.
	e.Problem(http.StatusGone, "action_used", http.MethodPost, snooze, "", nil)
}

// TestNtfyClearOnFinish: finishing a task clears its ntfy reminders sent
// within a day from every device, once; an older reminder is left alone;
// an ntfy before 2.16 answers the clear 404, which fails that clear with
// the reason and leaves the channel healthy.
func TestNtfyClearOnFinish(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "tk_abc")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/phone", "token": "tk_abc"})
	remindIn := func(title string, in time.Duration) map[string]any {
		return e.CreateTask(e.Admin, map[string]any{"title": title, "reminders": []any{
			map[string]any{"at": e.Clock.Now().Add(in).Format(time.RFC3339)}}})
	}
	finish := func(task map[string]any) {
		e.OK(http.StatusOK, http.MethodPost, fmt.Sprintf("/v1/tasks/%v/complete", task["ref"]), e.Admin, nil)
	}
	old := remindIn("Call the bank", time.Minute)
	task := remindIn("Renew passport", 25*time.Hour+time.Minute)
	e.Clock.Advance(time.Minute)
	e.sendDue(w)
	e.Clock.Advance(25 * time.Hour)
	e.sendDue(w)
	sent := ntfy.Messages()
	if len(sent) != 2 {
		t.Fatalf("published %+v", sent)
	}
	finish(old)
	finish(task)
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d, want the one clear", n)
	}
	if got := ntfy.Cleared(); len(got) != 1 || got[0] != "phone/"+sent[1].SequenceID {
		t.Fatalf("cleared %v, want phone/%s alone", got, sent[1].SequenceID)
	}
	e.OK(http.StatusOK, http.MethodPatch, fmt.Sprintf("/v1/tasks/%v", task["ref"]), e.Admin, map[string]any{"status": "todo"})
	finish(task)
	if n := e.sendDue(w); n != 0 {
		t.Fatalf("a second finish sent %d", n)
	}
	ns := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/notifications", e.Admin, nil))
	if ns[0]["kind"] != "clear" || ns[0]["state"] != "sent" || ns[0]["title"] != "Renew passport" {
		t.Fatalf("notifications %v", ns)
	}

	ntfy.Old()
	third := remindIn("Water plants", time.Minute)
	e.Clock.Advance(time.Minute)
	e.sendDue(w)
	finish(third)
	e.sendDue(w)
	ns = lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/notifications", e.Admin, nil))
	if ns[0]["kind"] != "clear" || ns[0]["state"] != "failed" || !strings.Contains(fmt.Sprint(ns[0]["last_error"]), "ntfy 2.16") {
		t.Fatalf("the clear an old ntfy refused: %v", ns[0])
	}
	chans := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/channels", e.Admin, nil))
	if chans[0]["failing_since"] != nil {
		t.Fatalf("the channel is marked failing: %v", chans[0])
	}
}

// TestLateRemindersCoalesce: six reminders that fell due while nothing ran
// go out as one late notification listing them.
func TestLateRemindersCoalesce(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/t"})
	for i := range 6 {
		e.CreateTask(e.Admin, map[string]any{"title": fmt.Sprintf("chore %d", i), "reminders": []any{
			map[string]any{"at": storetest.Epoch.Add(time.Duration(i+1) * time.Minute).Format(time.RFC3339)}}})
	}
	e.Clock.Advance(3 * time.Hour)
	if n := e.sendDue(w); n != 1 {
		t.Fatalf("sent %d, want one late notification", n)
	}
	m := ntfy.Messages()[0]
	if !strings.HasPrefix(m.Title, "6 reminders") || !strings.Contains(m.Message, "chore 0") || !strings.Contains(m.Message, "and 1 more") ||
		len(m.Actions) != 0 {
		t.Fatalf("published %+v", m)
	}
	ns := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/notifications", e.Admin, nil))
	if len(ns) != 1 || ns[0]["kind"] != "late" || ns[0]["late"] != true || ns[0]["state"] != "sent" {
		t.Fatalf("notifications %v", ns)
	}
}

// TestNotifyRetriesThenFails: a receiver that keeps failing is tried
// again after 30 s, 2 min, 10 min and 1 h, then the notification is
// failed with the reason, shown on the channel and the notification.
func TestNotifyRetriesThenFails(t *testing.T) {
	t.Parallel()
	e, w := notifyEnv(t)
	ntfy := webtest.NewNtfy(t, "")
	ntfy.Answer(http.StatusServiceUnavailable)
	c := e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin, map[string]any{"type": "ntfy", "url": ntfy.URL + "/t"})
	e.OK(http.StatusAccepted, http.MethodPost, "/v1/me/channels/"+c["id"].(string)+"/test", e.Admin, nil)
	e.sendDue(w)
	for _, d := range app.NotifyRetries {
		e.Clock.Advance(d - time.Second)
		if n := e.sendDue(w); n != 0 {
			t.Fatalf("retried %d before %s", n, d)
		}
		e.Clock.Advance(time.Second)
		if n := e.sendDue(w); n != 1 {
			t.Fatalf("retried %d after %s", n, d)
		}
	}
	e.Clock.Advance(24 * time.Hour)
	if n := e.sendDue(w); n != 0 || len(ntfy.Messages()) != 5 {
		t.Fatalf("sent %d more; %d in all", n, len(ntfy.Messages()))
	}
	ns := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/notifications", e.Admin, nil))
	if len(ns) != 1 || ns[0]["state"] != "failed" || ns[0]["attempts"] != float64(5) || ns[0]["last_error"] != "the receiver answered HTTP 503" {
		t.Fatalf("notifications %v", ns)
	}
	ch := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/channels", e.Admin, nil))[0]
	if ch["failing_since"] == nil || ch["last_error"] != "the receiver answered HTTP 503" || ch["last_ok_at"] != nil {
		t.Fatalf("channel %v", ch)
	}
	ntfy.Answer(http.StatusOK)
	e.OK(http.StatusAccepted, http.MethodPost, "/v1/me/channels/"+c["id"].(string)+"/test", e.Admin, nil)
	e.sendDue(w)
	ch = lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/me/channels", e.Admin, nil))[0]
	if ch["failing_since"] != nil || ch["last_ok_at"] == nil {
		t.Fatalf("channel after a success %v", ch)
	}
}
