package pages_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// TestPageBulk: without the script, the Tasks list's boxes belong to its
// bar's form, and one change reaches every task ticked, all or nothing; a
// task changed since the list was shown refuses the whole change.
func TestPageBulk(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	var picks []string
	for _, title := range []string{"Renew the domain", "Rotate the keys", "Update the wiki"} {
		task := p.CreateTask(p.Admin, map[string]any{"title": title})
		picks = append(picks, number(task["ref"])+"@"+fmt.Sprint(task["version"]))
	}
	contains(t, "the Tasks list", p.get(t, "/tasks", http.StatusOK), `<form id="bulk"`, `action="/bulk"`,
		`<input type="checkbox" class="pick" name="ref" value="`+picks[0]+`" form="bulk"`)
	contains(t, "Today", p.get(t, "/", http.StatusOK), `<form id="bulk"`, `class="picking"`)
	if to := p.seeOther(t, "/bulk", url.Values{"action": {"tag"}, "value": {"q4 ops"}, "ref": picks, "back": {"/tasks"}}); to != "/tasks?notice=bulk" {
		t.Fatalf("the change went to %q", to)
	}
	for i := range picks {
		if tags := fmt.Sprint(p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+fmt.Sprint(i+1), p.Admin, nil)["tags"]); tags != "[ops q4]" {
			t.Errorf("#%d tags %s", i+1, tags)
		}
	}
	// The boxes were ticked at the versions before the tags.
	if to := p.seeOther(t, "/bulk", url.Values{"action": {"complete"}, "ref": picks, "back": {"/tasks"}}); to != "/tasks?notice=conflict_bulk" {
		t.Fatalf("a stale selection went to %q", to)
	}
	if p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/1", p.Admin, nil)["is_complete"] != false {
		t.Fatal("a stale selection completed a task")
	}
	for _, c := range []struct {
		form   url.Values
		status int
	}{
		{url.Values{"action": {"archive"}, "ref": {"1"}}, http.StatusUnprocessableEntity},
		{url.Values{"action": {"complete"}}, http.StatusUnprocessableEntity},
		{url.Values{"action": {"complete"}, "ref": {"1", "99"}}, http.StatusNotFound},
	} {
		if r := p.post(t, "/bulk", c.form); r.Status != c.status {
			t.Errorf("%v: %d, want %d", c.form, r.Status, c.status)
		}
	}
	if to := p.seeOther(t, "/bulk", url.Values{"action": {"delete"}, "ref": {"1", "2"}, "back": {"/tasks"}}); to != "/tasks?trashed=1&trashed=2" {
		t.Fatalf("the delete went to %q", to)
	}
	// The list offers Undo, one form that restores both.
	contains(t, "the list after the delete", p.get(t, "/tasks?trashed=1&trashed=2", http.StatusOK), "Moved 2 tasks to the",
		`<input type="hidden" name="action" value="restore"><input type="hidden" name="ref" value="1"><input type="hidden" name="ref" value="2">`)
	if to := p.seeOther(t, "/bulk", url.Values{"action": {"restore"}, "ref": {"1", "2"}, "back": {"/tasks"}}); to != "/tasks?notice=restored_bulk" {
		t.Fatalf("the undo went to %q", to)
	}
	for _, ref := range []string{"1", "2"} {
		p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
	}
	if r := p.post(t, "/bulk", url.Values{"action": {"restore"}, "ref": {"1"}}); r.Status != http.StatusNotFound {
		t.Errorf("restoring a task not in the trash: %d", r.Status)
	}
}
