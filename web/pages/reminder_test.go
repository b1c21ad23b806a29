package pages_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"tend/store/storetest"
)

// TestPageTaskReminders: the task page shows a task's reminders and their
// next firing, and its edit form replaces and clears them.
func TestPageTaskReminders(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	due := storetest.Epoch.AddDate(0, 0, 3).Format(time.RFC3339)
	task := p.CreateTask(p.Admin, map[string]any{"title": "Dentist", "due_at": due, "reminders": []map[string]any{{"before": "30m"}}})
	ref := number(task["ref"])
	path := "/tasks/" + ref
	page := p.get(t, path, http.StatusOK)
	contains(t, "the task page", page, `id="reminders"`, `30 min before — fires `, `name="reminders" value="30m"`, `id="reminder-add"`)

	p.seeOther(t, path, url.Values{"expected_version": {number(task["version"])}, "reminders": {"1h, 1d"}, "was.reminders": {"30m"}})
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["reminders"].([]any)
	if len(got) != 2 || got[0].(map[string]any)["before"] != "1h" || got[1].(map[string]any)["before"] != "1d" {
		t.Errorf("the form saved %v", got)
	}
	p.seeOther(t, path, url.Values{"reminders": {""}, "was.reminders": {"1h, 1d"}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["reminders"].([]any); len(got) != 0 {
		t.Errorf("clearing the field left %v", got)
	}
}

// TestPageTaskReminderList: the task page's list adds a reminder from its
// select or in the line's words, removes one with its button, all through
// the edit route, and refuses words that say no reminder.
func TestPageTaskReminderList(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	due := storetest.Epoch.AddDate(0, 0, 3).Format(time.RFC3339)
	task := p.CreateTask(p.Admin, map[string]any{"title": "Dentist", "due_at": due})
	ref := number(task["ref"])
	path := "/tasks/" + ref
	p.seeOther(t, path, url.Values{"reminders": {""}, "was.reminders": {""}, "remind_add": {"15m"}, "remind_custom": {""}})
	p.seeOther(t, path, url.Values{"reminders": {"15m"}, "was.reminders": {"15m"}, "remind_add": {"custom"}, "remind_custom": {"at 8:00"}})
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["reminders"].([]any)
	if len(got) != 2 || got[0].(map[string]any)["before"] != "15m" || got[1].(map[string]any)["at"] != "2026-03-05T08:00:00Z" {
		t.Fatalf("the list added %v", got)
	}
	page := p.get(t, path, http.StatusOK)
	contains(t, "the task page", page, `15 min before — fires `, `at <span class="nw">Thu 5 Mar 2026</span>`, `>Remove<span class="skip-label">`)
	p.seeOther(t, path, url.Values{"reminders": {"2026-03-05T08:00:00Z"}, "was.reminders": {"15m, 2026-03-05T08:00:00Z"}})
	got = p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["reminders"].([]any)
	if len(got) != 1 || got[0].(map[string]any)["at"] != "2026-03-05T08:00:00Z" {
		t.Fatalf("the remove button left %v", got)
	}
	if res := p.post(t, path, url.Values{"reminders": {""}, "remind_add": {"custom"}, "remind_custom": {"whenever"}}); res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("words that say no reminder: %d", res.Status)
	}
}

// TestPageAccountReminders: the Account page shows and saves the person's
// reminder time and default reminders.
func TestPageAccountReminders(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	page := p.get(t, "/account", http.StatusOK)
	contains(t, "the account page", page, `name="reminder_time" type="time" value="09:00"`, `name="default_reminders" value=""`)
	p.seeOther(t, "/account", url.Values{"display_name": {""}, "timezone": {""}, "reminder_time": {"07:45"}, "default_reminders": {"1h, 1d"}})
	me := p.OK(http.StatusOK, http.MethodGet, "/v1/me", p.Admin, nil)["user"].(map[string]any)
	if me["reminder_time"] != "07:45" || len(me["default_reminders"].([]any)) != 2 {
		t.Errorf("the form saved %v and %v", me["reminder_time"], me["default_reminders"])
	}
	contains(t, "the account page", p.get(t, "/account", http.StatusOK), `value="07:45"`, `value="1h, 1d"`)
}
