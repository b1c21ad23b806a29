package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestPageTrash walks the trash without the script: delete a task with a
// subtask from its row's menu (the count said before it happens), the
// list's toast with Undo, delete it again from its page, the Trash page
// with Restore, Delete forever for an administrator only, and a finished
// task's Reopen.
func TestPageTrash(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	bob := p.Member("bob", "member")
	bobSession := p.SignIn(p.MintLink(bob, map[string]any{})).Value
	parent := number(p.CreateTask(p.Admin, map[string]any{"title": "Paint the shed"})["ref"])
	p.CreateTask(p.Admin, map[string]any{"title": "Buy paint", "parent": parent})
	doc := number(p.OK(http.StatusCreated, http.MethodPost, "/v1/documents", p.Admin, map[string]any{"title": "Colour notes", "body": "green"})["ref"])

	contains(t, "the Tasks list's row menu", p.get(t, "/tasks", http.StatusOK),
		`action="/tasks/`+parent+`/delete"`, `data-confirm="Delete this task and its 1 subtask?"`, "Delete with its 1 subtask")
	to := p.seeOther(t, "/tasks/"+parent+"/delete", url.Values{"back": {"/tasks"}, "subtasks": {"1"}})
	if to != "/tasks?along=1&trashed="+parent {
		t.Fatalf("the delete went to %q", to)
	}
	list := p.get(t, to, http.StatusOK)
	contains(t, "the toast after a delete", list, "Moved #"+parent+" to the", "with its 1 subtask.", `action="/trash/`+parent+`/restore"`)
	if strings.Contains(list, "Paint the shed") {
		t.Fatalf("the deleted task is still listed:\n%s", list)
	}
	if to := p.seeOther(t, "/trash/"+parent+"/restore", url.Values{"kind": {"task"}, "back": {"/tasks"}}); to != "/tasks" {
		t.Fatalf("Undo went to %q", to)
	}
	contains(t, "the list after Undo", p.get(t, "/tasks", http.StatusOK), "Paint the shed", "Buy paint")

	contains(t, "the task page", p.get(t, "/tasks/"+parent, http.StatusOK), `id="delete-form"`, "Delete this task and its 1 subtask?")
	if to := p.seeOther(t, "/tasks/"+parent+"/delete", url.Values{"back": {"/projects/inbox"}, "subtasks": {"1"}}); !strings.HasPrefix(to, "/projects/inbox?") {
		t.Fatalf("the task page's delete went to %q", to)
	}
	p.Clock.Advance(time.Minute)
	p.OK(http.StatusOK, http.MethodDelete, "/v1/documents/"+doc, p.Admin, nil)

	page := p.get(t, "/trash", http.StatusOK)
	contains(t, "the Trash page", page, `aria-current="page">Trash`, "Paint the shed", "Buy paint", "Colour notes",
		`action="/trash/`+doc+`/restore"`, `action="/trash/`+parent+`/purge"`)
	if strings.Index(page, "Colour notes") > strings.Index(page, "Paint the shed") {
		t.Error("the Trash page does not list the newest first")
	}
	mine := p.Browser(http.MethodGet, "/trash", bobSession, "", nil)
	if body := string(mine.Body); !strings.Contains(body, "Paint the shed") || strings.Contains(body, "/purge") {
		t.Fatalf("a member's Trash page:\n%s", body)
	}
	refused := p.Browser(http.MethodPost, "/trash/"+parent+"/purge", bobSession, p.Srv.URL, url.Values{"kind": {"task"}})
	if refused.Status != http.StatusForbidden {
		t.Fatalf("a member's delete forever: %d", refused.Status)
	}

	if to := p.seeOther(t, "/trash/"+doc+"/restore", url.Values{"kind": {"document"}}); to != "/documents/"+doc {
		t.Fatalf("restoring a document went to %q", to)
	}
	to = p.seeOther(t, "/trash/"+parent+"/purge", url.Values{"kind": {"task"}})
	contains(t, "the Trash page after a delete forever", p.get(t, to, http.StatusOK), "Deleted #"+parent+" forever, with 1 more under it.", "The trash is empty.")
	if r := p.Do(http.MethodGet, "/v1/tasks/"+parent, p.Admin, nil); r.Status != http.StatusNotFound {
		t.Fatalf("the task deleted forever answers %d", r.Status)
	}

	done := number(p.CreateTask(p.Admin, map[string]any{"title": "Sweep"})["ref"])
	p.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+done+"/complete", p.Admin, nil)
	contains(t, "a finished task's page", p.get(t, "/tasks/"+done, http.StatusOK), `id="reopen-form"`, ">Reopen</button>")
}
