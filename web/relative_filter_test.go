package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

// TestRelativeFilters: due_before/due_after take the filter vocabulary of
// docs/time.md, resolved in the reader's zone at the request's clock
// (Wednesday 2026-11-25 14:00 UTC, a reader in UTC).
func TestRelativeFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC))
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	for _, d := range []struct{ title, due string }{
		{"yesterday noon", "2026-11-24T12:00:00Z"}, {"this evening", "2026-11-25T18:00:00Z"},
		{"tomorrow morning", "2026-11-26T10:00:00Z"}, {"next tuesday", "2026-12-01T09:00:00Z"}, {"december", "2026-12-10T09:00:00Z"},
	} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": d.title, "project": "home", "due_at": d.due})
	}
	titles := func(query string) []string {
		out := []string{}
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?order=due_at&"+query, e.Admin, nil)) {
			out = append(out, it["title"].(string))
		}
		return out
	}
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"due_before=now", []string{"yesterday noon"}},
		{"due_before=tomorrow", []string{"yesterday noon", "this evening"}},
		{"due_after=today", []string{"this evening", "tomorrow morning", "next tuesday", "december"}},
		{"due_before=%2B2h", []string{"yesterday noon"}},
		{"due_before=%2B6h", []string{"yesterday noon", "this evening"}},
		{"due_after=next+week", []string{"next tuesday", "december"}},
		{"due_before=2026-12-05", []string{"yesterday noon", "this evening", "tomorrow morning", "next tuesday"}},
		{"due_after=-1d", []string{"yesterday noon", "this evening", "tomorrow morning", "next tuesday", "december"}},
		{"due_before=2+days+ago", []string{}},
		{"due_before=end+of+month", []string{"yesterday noon", "this evening", "tomorrow morning"}},
		{"due_after=now&due_before=%2B1w", []string{"this evening", "tomorrow morning", "next tuesday"}},
	} {
		if got := titles(c.filter); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.filter, got, c.want)
		}
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?due_after=%2B3m", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "instant_out_of_range", http.MethodGet, "/v1/tasks?due_after=-100y", e.Admin, nil)

	// A walk keeps the moment it began: "now" on the second page is the
	// first page's now, though the clock has moved a day on.
	first := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?order=due_at&due_after=now&limit=1", e.Admin, nil)
	cur := lstPage(first)["next_cursor"].(string)
	e.Clock.Advance(24 * time.Hour)
	second := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?order=due_at&due_after=now&limit=1&cursor="+url.QueryEscape(cur), e.Admin, nil)
	if got := lstItems(second)[0]["title"]; got != "tomorrow morning" {
		t.Errorf("second page of the walk: %v, want tomorrow morning", got)
	}
	if got := titles("due_after=now&limit=1"); !slices.Equal(got, []string{"next tuesday"}) {
		t.Errorf("a new walk at the moved clock: %q", got)
	}
}

// TestRelativeCreatedAt: the created_at bounds of /v1/changes and
// /v1/journal take the same words.
func TestRelativeCreatedAt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC))
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "old", "project": "home"})
	e.Clock.Advance(10 * 24 * time.Hour)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "new", "project": "home"})
	for _, c := range []struct {
		path string
		want int
	}{
		{"/v1/changes?created_at.gte=-7d", 1}, {"/v1/changes?created_at.gte=-30d", 2}, {"/v1/changes?created_at.lt=yesterday", 1},
		{"/v1/journal?created_at.gte=-7d", 1}, {"/v1/journal?created_at.lte=2+weeks+ago", 0}, {"/v1/journal?created_at.gt=today", 0},
	} {
		n := 0
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, c.path, e.Admin, nil)) {
			if it["action"] == "task.created" {
				n++
			}
		}
		if n != c.want {
			t.Errorf("%s: %d task.created, want %d", c.path, n, c.want)
		}
	}
}
