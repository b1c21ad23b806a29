package pages_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestPageTaskOnToNext: Complete or Skip on a repeating task's page lands
// on the next occurrence it brought, saying so, with the Undo toast of the
// one just finished; a task that does not repeat shows again; Skip on one
// is refused as the API refuses it.
func TestPageTaskOnToNext(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	water := number(p.CreateTask(p.Admin, map[string]any{"title": "Water the plants", "repeat": "every monday", "status": "in_progress"})["ref"])
	once := number(p.CreateTask(p.Admin, map[string]any{"title": "Book the train"})["ref"])
	nextOf := func(t *testing.T, ref string) string {
		t.Helper()
		items := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=water", p.Admin, nil)["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("%d open occurrences, want 1", len(items))
		}
		next := number(items[0].(map[string]any)["ref"])
		if next == ref {
			t.Fatalf("#%s is still open", ref)
		}
		return next
	}

	contains(t, "the task page", p.get(t, "/tasks/"+water, http.StatusOK), `action="/tasks/`+water+`/complete"`,
		`<input type="hidden" name="was" value="in_progress">`, `action="/tasks/`+water+`/skip"`)
	to := p.seeOther(t, "/tasks/"+water+"/complete", url.Values{"was": {"in_progress"}})
	second := nextOf(t, water)
	if to != "/tasks/"+second+"?done="+water+"&notice=next&was=in_progress" {
		t.Fatalf("Complete on #%s went to %q; the next occurrence is #%s", water, to, second)
	}
	contains(t, "the next occurrence after Complete", p.get(t, to, http.StatusOK), `id="notice">This is the next occurrence.<`,
		`Completed <a href="/tasks/`+water+`">Water the plants</a>.`, `action="/tasks/`+water+`/reopen"`,
		`name="status" value="in_progress"`, `name="back" value="/tasks/`+second+`"`)

	to = p.seeOther(t, "/tasks/"+second+"/skip", url.Values{"was": {"todo"}})
	third := nextOf(t, second)
	if to != "/tasks/"+third+"?done="+second+"&notice=next&was=todo" {
		t.Fatalf("Skip on #%s went to %q; the next occurrence is #%s", second, to, third)
	}
	contains(t, "the next occurrence after Skip", p.get(t, to, http.StatusOK), `id="notice">This is the next occurrence.<`,
		`Skipped <a href="/tasks/`+second+`">Water the plants</a>.`)
	if got := p.task(second); got["status"] != "cancelled" {
		t.Fatalf("the skipped occurrence is %v", got["status"])
	}

	if to := p.seeOther(t, "/tasks/"+once+"/complete", url.Values{"was": {"todo"}}); to != "/tasks/"+once {
		t.Fatalf("Complete on a task that does not repeat went to %q", to)
	}
	p.sameRefusal(t, "/tasks/"+once+"/skip", url.Values{}, p.Admin, http.MethodPost, "/v1/tasks/"+once+"/skip", nil)
}
