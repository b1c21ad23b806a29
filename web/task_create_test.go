package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestTaskCreateAnswersAsRead: a create answers with the task built from
// what the write already knows, not read back. This shows the answer is
// byte for byte what GET answers for the same task right after, across
// every field a create can set: the project path, the parent's ref, the
// type and status with their labels and categories, completion, tags in
// the order a read sorts them (existing tags keep their stored case), an
// assignee that is an agent answering to someone, the times as stored and
// the priority score over each branch of its formula. The clock is fixed,
// so the score's age term is the same for both.
func TestTaskCreateAnswersAsRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)
	e.DB.Now = func() time.Time { return now }
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "qa", "title": "QA"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "sub", "title": "Sub", "parent": "qa"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/users", e.Admin, map[string]any{"username": "bot", "is_service_account": true, "answers_to": "admin"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces/default/members", e.Admin, map[string]any{"username": "bot", "role": "member"})
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339Nano) }
	day := 24 * time.Hour

	var parent int64
	for _, c := range []struct {
		name string
		body map[string]any
	}{
		{"inbox defaults", map[string]any{"title": "  plain  "}},
		{"everything", map[string]any{"title": "Everything", "description": "see #1", "project": "sub", "type": "bug",
			"status": "in_progress", "tags": []string{"Zeta", "alpha", "éa", "Éz", "beta", "9lives"}, "assignee": "me",
			"importance": 5, "urgency": 1, "due_at": at(3 * day), "due_is_all_day": true, "starts_at": at(day),
			"estimate_minutes": 30, "timezone": "Europe/Paris"}},
		{"existing tags keep their case", map[string]any{"title": "Tags again", "project": "qa", "tags": []string{"ZETA", "Alpha", "new"}}},
		{"finished, long overdue", map[string]any{"title": "Done", "project": "qa", "status": "done", "due_at": at(-30 * day)}},
		{"cancelled, due within the window", map[string]any{"title": "Dropped", "project": "qa", "status": "cancelled",
			"importance": 3, "urgency": 4, "due_at": at(10*day + 7*time.Hour)}},
		{"due far ahead, sub-millisecond times", map[string]any{"title": "Later", "project": "qa", "due_at": at(100*day + 123456789),
			"starts_at": at(2*day + 999999)}},
		{"assigned to an agent", map[string]any{"title": "For the bot", "project": "qa", "assignee": "bot", "urgency": 2}},
		{"subtask", map[string]any{"title": "Child", "parent": "PARENT", "type": "chore"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.body["parent"] == "PARENT" {
				c.body["parent"] = strconv.FormatInt(parent, 10)
			}
			created := e.Do(http.MethodPost, "/v1/tasks", e.Admin, c.body)
			if created.Status != http.StatusCreated {
				t.Fatalf("create: %d %s", created.Status, created.Body)
			}
			var task struct {
				Ref int64 `json:"ref"`
			}
			if err := json.Unmarshal(created.Body, &task); err != nil {
				t.Fatal(err)
			}
			if parent == 0 {
				parent = task.Ref
			}
			read := e.Do(http.MethodGet, "/v1/tasks/"+strconv.FormatInt(task.Ref, 10), e.Admin, nil)
			if read.Status != http.StatusOK {
				t.Fatalf("read: %d %s", read.Status, read.Body)
			}
			if !bytes.Equal(created.Body, read.Body) {
				t.Errorf("the create answered\n%s\nbut a read answers\n%s", created.Body, read.Body)
			}
		})
	}
}
