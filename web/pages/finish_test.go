package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPageLinkFits: the link form's default type (sent empty) makes the
// link that fits the two ends: a document documents a task, from either
// side; two tasks, or two documents, relate. Never blocks.
func TestPageLinkFits(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	task := number(p.CreateTask(p.Admin, map[string]any{"title": "Renew the passport"})["ref"])
	other := number(p.CreateTask(p.Admin, map[string]any{"title": "Book the photos"})["ref"])
	doc := number(p.OK(http.StatusCreated, http.MethodPost, "/v1/documents", p.Admin, map[string]any{"title": "Passport rules", "type": "note"})["ref"])
	contains(t, "the task page", p.get(t, "/tasks/"+task, http.StatusOK), `<option value="">fits what you pick</option>`)
	for _, c := range []struct{ from, to, want string }{
		{"/tasks/" + task, doc, "is documented by"},
		{"/documents/" + doc, other, "documents"},
		{"/tasks/" + task, other, "relates to"},
	} {
		p.seeOther(t, c.from+"/links", url.Values{"link_type": {""}, "target": {"#" + c.to}})
		page := p.get(t, c.from, http.StatusOK)
		contains(t, c.from+"'s links", page, `<span class="muted">`+c.want+`</span> <a href="/items/`+c.to+`">`)
		if strings.Contains(page, `<span class="muted">blocks</span>`) {
			t.Fatalf("%s: a link made by default blocks", c.from)
		}
	}
}

// TestPageFeedHint: the feed page says why a feed of "my work" is empty
// while the dated tasks are assigned to nobody, and offers the
// workspace's; it says nothing once one of them is the person's, or when
// nothing is dated.
func TestPageFeedHint(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	if strings.Contains(p.get(t, "/account", http.StatusOK), `id="feed-hint"`) {
		t.Fatal("the hint shows with nothing dated")
	}
	ref := number(p.CreateTask(p.Admin, map[string]any{"text": "Renew the passport friday"})["ref"])
	contains(t, "the feed page", p.get(t, "/account", http.StatusOK), `id="feed-hint"`, "assigned to nobody",
		`<input type="hidden" name="audience" value="workspace">`, `<option value="workspace" selected>`)
	p.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, p.Admin, map[string]any{"assignee": "admin"})
	if strings.Contains(p.get(t, "/account", http.StatusOK), `id="feed-hint"`) {
		t.Fatal("the hint shows once the dated task is mine")
	}
}
