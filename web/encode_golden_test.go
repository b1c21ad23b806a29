package web_test

import (
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"
)

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// goldenItems is golden for a response holding ids: each distinct id becomes
// a numbered stand-in in order of first appearance, so the file is the same
// on every run. Timestamps are already fixed by the test clock.
func goldenItems(t *testing.T, name string, body []byte) {
	t.Helper()
	goldenJSON(t, name, numbered(body, uuidRe, "00000000-0000-0000-0000-%012d"))
}

// TestItemEncodingGolden pins, byte for byte, the responses written by the
// hand encoder (a full task, a page of tasks) and the item shapes beside it
// (a compact listing, a document, a link's far end). A new item field shows
// up here as a golden diff; go test ./web -run TestItemEncodingGolden -update
// rewrites the files.
func TestItemEncodingGolden(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "ops", "title": "Ops <&> \"quoted\""})
	parent := e.CreateTask(e.Admin, map[string]any{"title": "Parent", "project": "ops"})
	e.Clock.Advance(time.Minute)
	full := e.CreateTask(e.Admin, map[string]any{"title": "Fix the \u2028 \"login\" <bug>", "parent": parent["ref"],
		"description": "it breaks\ttoday", "tags": []string{"urgent", "backend"}, "importance": 5, "urgency": 4,
		"estimate_minutes": 90, "due_at": "2030-01-02T03:04:05+01:00", "starts_at": "2029-12-30T00:00:00Z", "assignee": "admin"})
	e.Clock.Advance(time.Minute)
	e.OK(http.StatusOK, http.MethodPost, tskPath(full, "claim")+"?minutes=30", e.Admin, nil)
	e.OK(http.StatusCreated, http.MethodPost, tskPath(parent, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": full["ref"]})
	doc := e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Runbook", "body": "# Steps\n\nsee #1",
		"project": "ops", "tags": []string{"howto"}})

	for _, c := range []struct{ name, path string }{
		{"item_task_full.json", tskPath(full)},
		{"item_task_page.json", "/v1/tasks?project=ops&include=links"},
		{"item_task_compact.json", "/v1/tasks?project=ops&format=compact"},
		{"item_document.json", fmt.Sprintf("/v1/documents/%v", doc["ref"])},
		{"item_link_end.json", tskPath(parent, "links")},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.sub(t).Do(http.MethodGet, c.path, e.Admin, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("%s: status %d\n%s", c.path, r.Status, r.Body)
			}
			goldenItems(t, c.name, r.Body)
		})
	}
}
