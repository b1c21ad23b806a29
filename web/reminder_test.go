package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestReminderRoutes checks that POST and PATCH carry a task's reminders,
// each read back with fire_at, that the change feed shows the change, that
// the person's settings travel through PATCH /v1/users/{self} and GET
// /v1/me, and each refusal's status and code.
func TestReminderRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	e.DB.Now = func() time.Time { return now }
	due := now.Add(26 * time.Hour).Format(time.RFC3339)
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "call", "due_at": due,
		"reminders": []map[string]any{{"before": "30m"}, {"at": "2026-03-02T12:00:00Z"}}})
	want := `[{"before":"30m","fire_at":"2026-03-03T10:30:00Z"},{"at":"2026-03-02T12:00:00Z","fire_at":"2026-03-02T12:00:00Z"}]`
	if got := jsonOf(t, task["reminders"]); got != want {
		t.Errorf("created reminders %s, want %s", got, want)
	}
	// A record read is written back as it is: fire_at is ignored.
	path := tskPath(task)
	got := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"reminders": task["reminders"]})
	if got["version"].(float64) != task["version"].(float64) {
		t.Errorf("writing the same reminders back made version %v", got["version"])
	}
	got = e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"reminders": []map[string]any{{"before": "1h"}}})
	if s := jsonOf(t, got["reminders"]); s != `[{"before":"1h","fire_at":"2026-03-03T10:00:00Z"}]` {
		t.Errorf("patched reminders %s", s)
	}
	evs := e.tskEvents(e.Admin, task, "")
	if last := evs[0]; !strings.Contains(jsonOf(t, last["changes"]), `"reminders"`) {
		t.Errorf("the newest event %s does not show the reminders' change", jsonOf(t, last))
	}

	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, path, e.Admin,
		map[string]any{"reminders": []map[string]any{{"before": "30s"}}})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin,
		map[string]any{"title": "x", "reminders": []map[string]any{{"before": "1h", "at": due}}})
	many := []map[string]any{}
	for i := range 11 {
		many = append(many, map[string]any{"before": strings.Repeat("1", i+1) + "m"})
	}
	e.Problem(http.StatusUnprocessableEntity, "over_limit", http.MethodPatch, path, e.Admin, map[string]any{"reminders": many})

	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/admin", e.Admin, map[string]any{"reminder_time": "07:15",
		"default_reminders": []map[string]any{{"before": "10m"}}})
	me := e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)["user"].(map[string]any)
	if me["reminder_time"] != "07:15" || jsonOf(t, me["default_reminders"]) != `[{"before":"10m","fire_at":null}]` {
		t.Errorf("GET /v1/me says %s", jsonOf(t, me))
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, "/v1/users/admin", e.Admin,
		map[string]any{"reminder_time": "7 o'clock"})
	e.account(map[string]any{"username": "bob"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPatch, "/v1/users/bob", e.Admin, map[string]any{"reminder_time": "08:00"})
}

// jsonOf is v as compact JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
