package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestPageTaskForms: the task page's edit form reaches every field the API
// has and saves only what the person changed; claim for a time, release,
// skip an occurrence, add a subtask, link by picking; the history says it
// all in words; every refusal answers as the API's does.
func TestPageTaskForms(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.Member("bob", "member")
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "home", "title": "Home"})
	task := p.CreateTask(p.Admin, map[string]any{"text": "Water the plants tomorrow 9am #garden"})
	ref := number(task["ref"])
	other := p.CreateTask(p.Admin, map[string]any{"title": "Buy a watering can"})
	oref := number(other["ref"])
	path := "/tasks/" + ref

	page := p.get(t, path, http.StatusOK)
	contains(t, "the task page", page, `aria-current="page">Tasks`, `name="was.until"`, `<datalist id="members">`, `value="bob"`,
		`id="link-add"`, `id="subtask-add"`, `id="claim-form"`)
	due := task["due_at"]
	version := number(task["version"])
	p.seeOther(t, path, url.Values{"expected_version": {version},
		"title": {"Water the plants"}, "was.title": {"Water the plants"},
		"until": {"2026-03-03T09:00:00Z"}, "was.until": {"2026-03-03T09:00:00Z"},
		"assignee": {"bob"}, "was.assignee": {""}, "tags": {"garden #outside"}, "was.tags": {"garden"},
		"plan": {"friday"}, "was.plan": {""}, "defer": {"thursday"}, "was.defer": {""},
		"importance": {"4"}, "was.importance": {""}, "urgency": {""}, "was.urgency": {""},
		"estimate_minutes": {"45"}, "was.estimate_minutes": {""}, "type": {"chore"}, "was.type": {"task"},
		"project": {"home"}, "was.project": {"inbox"}, "parent": {""}, "was.parent": {""}})
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
	for field, want := range map[string]any{"assignee": "bob", "importance": float64(4), "estimate_minutes": float64(45), "type": "chore",
		"project_path": "home", "due_at": due, "urgency": nil} {
		if got[field] != want {
			t.Errorf("%s is %v, want %v", field, got[field], want)
		}
	}
	if got["starts_at"] == nil || got["snoozed_until"] == nil || strings.Join(strs(got["tags"]), " ") != "garden outside" {
		t.Errorf("plan %v, defer %v, tags %v", got["starts_at"], got["snoozed_until"], got["tags"])
	}
	events := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref+"/events", p.Admin, nil)["items"].([]any)
	for _, unchanged := range []string{"title", "due_at", "urgency"} {
		for _, e := range events {
			if e.(map[string]any)["action"] != "task.updated" {
				continue
			}
			if _, ok := e.(map[string]any)["changes"].(map[string]any)[unchanged]; ok {
				t.Errorf("the edit recorded %s, which it did not change", unchanged)
			}
		}
	}
	p.seeOther(t, path, url.Values{"timezone": {" Europe/Paris "}, "was.timezone": {""}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil); got["timezone"] != "Europe/Paris" || got["due_at"] != due {
		t.Fatalf("after setting the timezone: %v, due %v", got["timezone"], got["due_at"])
	}
	contains(t, "the task in its zone", p.get(t, path, http.StatusOK), `value="Europe/Paris"`, "admin set the timezone to Europe/Paris")
	p.sameRefusal(t, path, url.Values{"timezone": {"Mars/Olympus"}}, p.Admin, http.MethodPatch, "/v1/tasks/"+ref, map[string]any{"timezone": "Mars/Olympus"})
	p.seeOther(t, path, url.Values{"timezone": {""}, "was.timezone": {"Europe/Paris"}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["timezone"]; got != nil && got != "" {
		t.Fatalf("an empty timezone left %v", got)
	}
	p.seeOther(t, path, url.Values{"parent": {"#" + oref}, "was.parent": {""}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["parent"]; got == nil {
		t.Fatal("the task did not move under the other")
	}
	p.sameRefusal(t, "/tasks/"+oref, url.Values{"parent": {"#" + ref}}, p.Admin, http.MethodPatch, "/v1/tasks/"+oref, map[string]any{"parent": task["ref"]})
	p.sameRefusal(t, path, url.Values{"importance": {"9"}}, p.Admin, http.MethodPatch, "/v1/tasks/"+ref, map[string]any{"importance": 9})
	p.sameRefusal(t, path, url.Values{"assignee": {"nobody-here"}}, p.Admin, http.MethodPatch, "/v1/tasks/"+ref, map[string]any{"assignee": "nobody-here"})
	p.sameRefusal(t, path, url.Values{"until": {"the twelfth of never"}}, p.Admin, http.MethodPatch, "/v1/tasks/"+ref, map[string]any{"until": "the twelfth of never"})
	p.sameRefusal(t, path+"/skip", url.Values{}, p.Admin, http.MethodPost, "/v1/tasks/"+ref+"/skip", nil)
	if r := p.post(t, path, url.Values{"importance": {"high"}}); r.Status != http.StatusUnprocessableEntity || problemCode(r.Body) != "validation" {
		t.Fatalf("importance high: %d", r.Status)
	}

	p.seeOther(t, path+"/claim", url.Values{"minutes": {"30"}})
	got = p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
	exp, _ := time.Parse(time.RFC3339, got["claim_expires_at"].(string))
	if got["claimed_by"] != "admin" || !exp.Equal(p.Clock.Now().Add(30*time.Minute)) {
		t.Fatalf("claimed by %v until %v", got["claimed_by"], got["claim_expires_at"])
	}
	p.seeOther(t, path+"/release", url.Values{})
	p.seeOther(t, path+"/subtasks", url.Values{"text": {"Fill the can #garden"}})
	subs := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks?parent="+ref, p.Admin, nil)["items"].([]any)
	if len(subs) != 1 || subs[0].(map[string]any)["title"] != "Fill the can" {
		t.Fatalf("subtasks: %v", subs)
	}
	p.sameRefusal(t, path+"/subtasks", url.Values{"text": {""}}, p.Admin, http.MethodPost, "/v1/tasks", map[string]any{"text": "", "parent": task["ref"]})

	r := p.Browser(http.MethodGet, "/pick?q=wateri", p.session, "", nil)
	contains(t, "the picker's options", string(r.Body), `role="option"`, `data-ref="`+oref+`"`, `data-kind="task"`, "Buy a watering can")
	if r := p.Browser(http.MethodGet, "/pick?q=type:", p.session, "", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Nothing matches") {
		t.Fatalf("a half-typed term: %d %s", r.Status, r.Body)
	}
	r = p.post(t, path+"/links", url.Values{"link_type": {"blocks:incoming"}, "target": {"watering"}})
	contains(t, "the picker without a script", string(r.Body), "Pick what to link", `value="#`+oref+`"`, `name="link_type" value="blocks:incoming"`)
	p.seeOther(t, path+"/links", url.Values{"link_type": {"blocks:incoming"}, "target": {"#" + oref}})
	links := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref+"/links", p.Admin, nil)["items"].([]any)
	if len(links) != 1 || links[0].(map[string]any)["label"] != "is blocked by" {
		t.Fatalf("links: %v", links)
	}
	p.seeOther(t, "/tasks/"+ref+"/links/"+links[0].(map[string]any)["id"].(string)+"/remove", url.Values{})
	p.sameRefusal(t, path+"/links/"+links[0].(map[string]any)["id"].(string)+"/remove", url.Values{}, p.Admin,
		http.MethodDelete, "/v1/tasks/"+ref+"/links/"+links[0].(map[string]any)["id"].(string), nil)

	page = p.get(t, path, http.StatusOK)
	contains(t, "the history in words", page, "admin created this", "admin claimed this for 30 minutes", "admin released the claim of admin",
		"admin made this a chore, assigned this to bob", "admin added a link: #"+oref+" blocks this", "admin removed the blocks link with #"+oref)
	if strings.Contains(page, "task.updated") {
		t.Fatal("the history shows raw actions")
	}
}

// TestPageTaskRepeat: a repeating task's edit says whether the change is
// for this one or from now on; skip lets one go by and brings the next.
func TestPageTaskRepeat(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	task := p.CreateTask(p.Admin, map[string]any{"text": "Water the plants every monday 9am"})
	ref := number(task["ref"])
	page := p.get(t, "/tasks/"+ref, http.StatusOK)
	contains(t, "a repeating task", page, `name="applies_to"`, "Skip this one")
	p.sameRefusal(t, "/tasks/"+ref, url.Values{"title": {"Water"}}, p.Admin, http.MethodPatch, "/v1/tasks/"+ref, map[string]any{"title": "Water"})
	p.seeOther(t, "/tasks/"+ref, url.Values{"repeat": {"every tuesday"}, "was.repeat": {"every Monday at 9:00"}, "applies_to": {"from_now_on"}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)["recurrence_description"]; !strings.Contains(got.(string), "Tuesday") {
		t.Fatalf("the repeat is %v", got)
	}
	p.seeOther(t, "/tasks/"+ref, url.Values{"title": {"Water the ferns"}, "was.title": {"Water the plants"}, "applies_to": {"this_one"}})
	p.seeOther(t, "/tasks/"+ref+"/skip", url.Values{})
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
	if got["status"] != "cancelled" {
		t.Fatalf("skipped to %v", got["status"])
	}
	contains(t, "the history", p.get(t, "/tasks/"+ref, http.StatusOK), "admin skipped this occurrence", "(from now on)", "(this occurrence only)")
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
