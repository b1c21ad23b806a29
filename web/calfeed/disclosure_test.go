package calfeed_test

import (
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"tend/store/storetest"
	"tend/web/webtest"
)

// TestCalendarDisclosure: a feed shows what its owner may see at the
// moment of the fetch, inside the feed's narrowing, and nothing else.
func TestCalendarDisclosure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	for _, p := range []map[string]any{{"key": "sec", "visibility": "private"}, {"key": "ops"}, {"key": "sub", "parent": "ops"}, {"key": "other"}} {
		p["title"] = p["key"]
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, p)
	}
	due := storetest.Epoch.Add(72 * time.Hour).Format(time.RFC3339)
	titles := map[string]string{}
	add := func(title, project, typ string) {
		task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": title, "project": project,
			"type": typ, "due_at": due, "assignee": "pat"})
		titles[task["id"].(string)+"@tend"] = title
	}
	add("secret plan", "sec", "task")
	add("ops bug", "ops", "bug")
	add("sub bug", "sub", "bug")
	add("ops chore", "ops", "chore")
	add("other bug", "other", "bug")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "someone else's", "project": "ops", "due_at": due})

	seen := func(url string, headers map[string]string) (webtest.FeedResponse, []string) {
		f := e.FetchFeed(url, headers)
		if f.Status != http.StatusOK {
			return f, nil
		}
		var got []string
		for uid := range events(t, f.Cal) {
			got = append(got, titles[uid])
		}
		sort.Strings(got)
		return f, got
	}
	want := func(name string, got []string, titles ...string) {
		t.Helper()
		sort.Strings(titles)
		if strings.Join(got, "|") != strings.Join(titles, "|") {
			t.Errorf("%s: feed holds %q, want %q", name, got, titles)
		}
	}
	mine, _ := e.Calendar(pat, map[string]any{"audience": "me"})
	_, got := seen(mine, nil)
	want("me", got, "ops bug", "sub bug", "ops chore", "other bug")
	ws, _ := e.Calendar(pat, map[string]any{"audience": "workspace"})
	_, got = seen(ws, nil)
	if len(got) != 5 {
		t.Errorf("workspace feed: %q, want everything pat sees (5 tasks)", got)
	}
	for _, g := range got {
		if g == "secret plan" {
			t.Errorf("a task in a private project pat cannot see appears in pat's feed")
		}
	}
	narrow, _ := e.Calendar(pat, map[string]any{"audience": "workspace", "project": "ops", "item_types": []string{"bug"}})
	f, got := seen(narrow, nil)
	want("ops bugs", got, "ops bug", "sub bug")
	if strings.Contains(string(f.Body), "secret plan") || strings.Contains(string(f.Body), "other bug") {
		t.Errorf("narrowed feed leaks:\n%s", f.Body)
	}

	// Sight lost after the feed was made: the task leaves, and the old
	// ETag is not answered 304.
	etag := f.Header.Get("ETag")
	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/sub", e.Admin, map[string]any{"visibility": "private"})
	f, got = seen(narrow, map[string]string{"If-None-Match": etag})
	if f.Status != http.StatusOK {
		t.Fatalf("after a change of sight the feed must be sent again, got %d", f.Status)
	}
	want("ops bugs after sub went private", got, "ops bug")

	// The feed's own project out of sight: the feed holds nothing.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/ops", e.Admin, map[string]any{"visibility": "private"})
	_, got = seen(narrow, nil)
	want("ops out of sight", got)

	// Leaving the workspace: the feed answers like one that does not exist.
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/workspaces/default/members/pat", e.Admin, nil)
	webtest.AssertProblem(t, e.FetchFeed(mine, nil).Response, http.StatusNotFound, "not_found")
}
