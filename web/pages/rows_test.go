package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"tend/web/webtest"
)

// fragment posts a row action as the list script does: from the page's own
// origin, with X-Tend-Fragment naming the row's kind.
func (p *pageEnv) fragment(t *testing.T, path, kind string, form url.Values) webtest.Response {
	t.Helper()
	e := p.On(t)
	req := e.Request(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", p.Srv.URL)
	req.Header.Set("X-Tend-Fragment", kind)
	req.AddCookie(&http.Cookie{Name: "tend_session", Value: p.session})
	return e.Send(req)
}

// task reads a task through the API.
func (p *pageEnv) task(ref string) map[string]any {
	return p.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, p.Admin, nil)
}

// TestPageRowsOnEveryList: every list shows each task with its checkbox (a
// form that works without the script) and its title as the link to it:
// Today, Tasks, the board, Search, a project's page and a task's subtasks.
func TestPageRowsOnEveryList(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "web", "title": "Web site"})
	ref := number(p.CreateTask(p.Admin, map[string]any{"title": "Renew the domain", "project": "web", "due_at": "2026-03-02T00:00:00Z", "due_is_all_day": true})["ref"])
	// The same task as a subtask: its parent's page lists it.
	parent := number(p.CreateTask(p.Admin, map[string]any{"title": "Keep the site up", "project": "web"})["ref"])
	p.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref, p.Admin, map[string]any{"parent": parent})
	check := regexp.MustCompile(`<form class="check" method="post" action="/tasks/` + ref + `/done">[^€]*?name="back" value="([^"]*)"[^€]*?` +
		`<button type="submit" class="check" role="checkbox" aria-checked="false" aria-label="Done: Renew the domain">`)
	for path, back := range map[string]string{"/": "/", "/tasks?project=web": "/tasks?project=web", "/board?project=web": "/board?project=web",
		"/search?q=renew": "/search?q=renew", "/tasks?project=web&notice=edited": "/tasks?project=web",
		"/projects/web": "/projects/web", "/tasks/" + parent: "/tasks/" + parent} {
		page := p.get(t, path, http.StatusOK)
		m := check.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s has no checkbox form for #%s:\n%s", path, ref, page)
		}
		if m[1] != back {
			t.Errorf("%s: the checkbox returns to %q, want %q", path, m[1], back)
		}
		contains(t, path, page, `id="t-`+ref+`"`, `class="title" href="/tasks/`+ref+`">Renew the domain</a>`, `id="toast" class="toast" role="status"`)
	}
}

// TestPageRowComplete: the checkbox without the script completes and lands
// back on the same list, scrolled to the row's neighbour, with an Undo
// toast that reopens to the status the task had; a repeating task lands on
// the next occurrence the completion brought.
func TestPageRowComplete(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	first := number(p.CreateTask(p.Admin, map[string]any{"title": "Pay the rent", "status": "in_progress"})["ref"])
	near := number(p.CreateTask(p.Admin, map[string]any{"title": "Book the train"})["ref"])
	water := number(p.CreateTask(p.Admin, map[string]any{"title": "Water the plants", "repeat": "every monday"})["ref"])

	to := p.seeOther(t, "/tasks/"+first+"/done", url.Values{"expected_version": {"1"}, "back": {"/tasks?order=ref"}, "was": {"in_progress"}, "near": {near}})
	if to != "/tasks?done="+first+"&order=ref&was=in_progress#t-"+near {
		t.Fatalf("completing went to %q", to)
	}
	if got := p.task(first); got["is_complete"] != true {
		t.Fatalf("not completed: %v", got["status"])
	}
	list := p.get(t, to, http.StatusOK)
	contains(t, "the list after completing", list, `<div class="toast-box">`, `action="/tasks/`+first+`/reopen"`,
		`name="status" value="in_progress"`, `name="back" value="/tasks?order=ref"`, ">Undo</button>")
	if strings.Contains(list, `id="t-`+first+`"`) {
		t.Fatal("the open tasks list still shows the completed task")
	}
	version := number(p.task(first)["version"])
	if to := p.seeOther(t, "/tasks/"+first+"/reopen", url.Values{"expected_version": {version}, "status": {"in_progress"}, "back": {"/tasks?order=ref"}}); to != "/tasks?order=ref#t-"+first {
		t.Fatalf("Undo went to %q", to)
	}
	if got := p.task(first); got["status"] != "in_progress" {
		t.Fatalf("Undo reopened to %v", got["status"])
	}

	to = p.seeOther(t, "/tasks/"+water+"/done", url.Values{"back": {"/"}, "was": {"todo"}})
	open := p.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=water", p.Admin, nil)["items"].([]any)
	if len(open) != 1 {
		t.Fatalf("after completing the repeating task: %d open occurrences", len(open))
	}
	next := number(open[0].(map[string]any)["ref"])
	if next == water || to != "/?done="+water+"&was=todo#t-"+next {
		t.Fatalf("completing the repeating #%s went to %q; its next occurrence is #%s", water, to, next)
	}
	contains(t, "Today with the next occurrence", p.get(t, to, http.StatusOK), `id="t-`+next+`"`)

	// Clicked again (a list that shows finished work): it reopens, to the
	// workspace's default status when the form names none.
	done := p.get(t, "/tasks?include_completed=true", http.StatusOK)
	contains(t, "a finished row", done, `action="/tasks/`+water+`/reopen"`, `aria-checked="true"`)
	version = number(p.task(water)["version"])
	p.seeOther(t, "/tasks/"+water+"/reopen", url.Values{"expected_version": {version}})
	if got := p.task(water); got["status"] != "todo" {
		t.Fatalf("reopened to %v", got["status"])
	}
	if n := len(p.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=water", p.Admin, nil)["items"].([]any)); n != 2 {
		t.Fatalf("reopening an occurrence: %d open, want it and the next one it brought", n)
	}
}

// TestPageRowFragments: with the script, a row action answers the row
// rendered again in the kind of list it came from, and a refusal as a
// problem document: stale versions, bad dates, unseen tasks, other sites.
func TestPageRowFragments(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	ref := number(p.CreateTask(p.Admin, map[string]any{"title": "Fix the gate"})["ref"])
	water := number(p.CreateTask(p.Admin, map[string]any{"title": "Water the plants", "repeat": "every monday"})["ref"])

	r := p.fragment(t, "/tasks/"+water+"/done", "li", url.Values{"back": {"/"}})
	body := string(r.Body)
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || strings.Contains(body, "<html") {
		t.Fatalf("done: %d %s\n%s", r.Status, r.Header.Get("Content-Type"), body)
	}
	lis := regexp.MustCompile(`<li id="t-(\d+)" class="trow( done)?"`).FindAllStringSubmatch(body, -1)
	if len(lis) != 2 || lis[0][1] != water || lis[0][2] != " done" || lis[1][2] != "" {
		t.Fatalf("a completed occurrence answers %v, want it done and the next one open:\n%s", lis, body)
	}
	contains(t, "the completed row", body, `action="/tasks/`+water+`/reopen"`, `aria-checked="true"`, `action="/tasks/`+lis[1][1]+`/done"`)

	for kind, want := range map[string]string{"tr": `<tr id="t-` + ref + `"`, "card": `<select id="st-` + ref + `" name="status">`} {
		version := number(p.task(ref)["version"])
		r = p.fragment(t, "/tasks/"+ref+"/assign", kind, url.Values{"expected_version": {version}})
		if r.Status != http.StatusOK {
			t.Fatalf("assign as %s: %d\n%s", kind, r.Status, r.Body)
		}
		contains(t, "assigned, as "+kind, string(r.Body), want, `data-version="`+number(p.task(ref)["version"])+`"`)
	}
	if got := p.task(ref)["assignee"]; got != "admin" {
		t.Fatalf("assigned to %v", got)
	}

	version := number(p.task(ref)["version"])
	r = p.fragment(t, "/tasks/"+ref+"/due", "li", url.Values{"expected_version": {version}, "until": {"tomorrow"}})
	contains(t, "due set", string(r.Body), `data-due="2026-03-03"`, `data-due-text="Tue 3 Mar 2026"`)
	if got := p.task(ref); got["due_at"] == nil || got["due_is_all_day"] != true {
		t.Fatalf("due %v all day %v", got["due_at"], got["due_is_all_day"])
	}

	stale := url.Values{"expected_version": {version}, "until": {"friday"}}
	for _, c := range []struct {
		name, path string
		form       url.Values
		status     int
		code       string
	}{
		{"a stale version", "/tasks/" + ref + "/due", stale, http.StatusConflict, "version_conflict"},
		{"a stale move", "/tasks/" + ref + "/status", url.Values{"expected_version": {version}, "status": {"done"}}, http.StatusConflict, "version_conflict"},
		{"a date that is none", "/tasks/" + ref + "/due", url.Values{"until": {"the day after never"}}, http.StatusUnprocessableEntity, "validation"},
		{"a task that is not there", "/tasks/4242/done", url.Values{}, http.StatusNotFound, "not_found"},
		{"text holding U+0000", "/tasks/" + ref + "/due", url.Values{"until": {"fri\x00"}}, http.StatusUnprocessableEntity, "validation"},
	} {
		r := p.fragment(t, c.path, "li", c.form)
		if r.Status != c.status || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/problem+json") || r.JSON(t)["code"] != c.code {
			t.Errorf("%s: %d %s\n%s", c.name, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	}
	if to := p.seeOther(t, "/tasks/"+ref+"/due", stale); to != "/?notice=conflict#t-"+ref {
		t.Fatalf("a stale due without the script went to %q", to)
	}
	if to := p.seeOther(t, "/tasks/"+ref+"/assign", url.Values{"back": {"//evil.example/"}}); to != "/#t-"+ref {
		t.Fatalf("back to another site went to %q", to)
	}
	r = p.Browser(http.MethodPost, "/tasks/"+ref+"/done", p.session, "https://evil.example", url.Values{})
	if r.Status != http.StatusForbidden || p.task(ref)["is_complete"] != false {
		t.Fatalf("a cross-site completion: %d, complete %v", r.Status, p.task(ref)["is_complete"])
	}
}

// TestPageRowDisclosure: a row action on a task the person may not see
// answers exactly as one on a task that does not exist.
func TestPageRowDisclosure(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	bob := p.Member("bob", "member")
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	hidden := number(p.CreateTask(p.Admin, map[string]any{"title": "Hushhush", "project": "sec"})["ref"])
	bp := &pageEnv{env: p.env, session: p.SignIn(p.MintLink(bob, map[string]any{})).Value}
	for _, action := range []string{"done", "reopen", "assign", "due", "status"} {
		for _, kind := range []string{"li", ""} {
			unseen := bp.fragment(t, "/tasks/"+hidden+"/"+action, kind, url.Values{"status": {"done"}})
			absent := bp.fragment(t, "/tasks/9999/"+action, kind, url.Values{"status": {"done"}})
			// A problem document names its path; nothing else may differ.
			same := func(r webtest.Response) string {
				return strings.Replace(string(r.Body), `"instance":"/tasks/`+hidden+"/", `"instance":"/tasks/9999/`, 1)
			}
			if unseen.Status != http.StatusNotFound || unseen.Status != absent.Status || same(unseen) != string(absent.Body) {
				t.Fatalf("%s (%q): unseen %d, absent %d\n%s\n---\n%s", action, kind, unseen.Status, absent.Status, unseen.Body, absent.Body)
			}
		}
	}
	if p.task(hidden)["is_complete"] != false || p.task(hidden)["assignee"] != nil {
		t.Fatal("bob changed the task he cannot see")
	}
}

// TestPageRowZones: a row writes a timed due in its task's own zone, in
// the row and for the due prompt, each zone read once and kept by name.
func TestPageRowZones(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	berlin := number(p.CreateTask(p.Admin, map[string]any{"title": "Call Berlin", "due_at": "2026-03-02T08:00:00Z", "timezone": "Europe/Berlin"})["ref"])
	york := number(p.CreateTask(p.Admin, map[string]any{"title": "Call New York", "due_at": "2026-03-02T15:00:00Z", "timezone": "America/New_York"})["ref"])
	for range 2 { // the second time from the kept zones
		page := p.get(t, "/tasks?order=ref", http.StatusOK)
		contains(t, "Tasks", page,
			`id="t-`+berlin+`"`, `data-due="2026-03-02T09:00:00&#43;01:00" data-due-text="Mon 2 Mar 2026 09:00 CET"`,
			`id="t-`+york+`"`, `data-due="2026-03-02T10:00:00-05:00" data-due-text="Mon 2 Mar 2026 10:00 EST"`)
	}
}
