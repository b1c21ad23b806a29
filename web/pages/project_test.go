package pages_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// sameRefusal posts a page form that must be refused, and the same change
// to the JSON API as token, and wants both refused alike: the same status
// and the same code.
func (p *pageEnv) sameRefusal(t *testing.T, path string, form url.Values, token, method, apiPath string, body any) {
	t.Helper()
	r := p.post(t, path, form)
	api := p.Do(method, apiPath, token, body)
	want, _ := api.JSON(t)["code"].(string)
	if api.Status < 400 || r.Status != api.Status || problemCode(r.Body) != want {
		t.Fatalf("POST %s: %d %q; the API (%s %s) answers %d %q\n%s", path, r.Status, problemCode(r.Body), method, apiPath, api.Status, want, r.Body)
	}
}

// TestPageProjectForms walks a project's life through its pages: create
// one and a subproject, see its page, rename it and make it private with
// the version seen, move it, add a task and a document to it, share it and
// give a role, trash and restore it; each refusal answers as the API does.
func TestPageProjectForms(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.Member("bob", "member")
	if to := p.seeOther(t, "/projects", url.Values{"key": {"home"}, "title": {"Home"}, "visibility": {"public"}}); to != "/projects/home" {
		t.Fatalf("create went to %q", to)
	}
	p.seeOther(t, "/projects", url.Values{"key": {"garden"}, "title": {"Garden"}, "parent": {"home"}})
	p.seeOther(t, "/projects", url.Values{"key": {"work"}, "title": {"Work"}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/garden", p.Admin, nil)["path"]; got != "home/garden" {
		t.Fatalf("the subproject's path is %v", got)
	}
	p.sameRefusal(t, "/projects", url.Values{"key": {"Bad Key"}, "title": {"x"}}, p.Admin, http.MethodPost, "/v1/projects",
		map[string]any{"key": "Bad Key", "title": "x"})
	p.sameRefusal(t, "/projects", url.Values{"key": {"home"}, "title": {"again"}}, p.Admin, http.MethodPost, "/v1/projects",
		map[string]any{"key": "home", "title": "again"})

	p.seeOther(t, "/projects/home/tasks", url.Values{"text": {"Fix the fence friday #outside"}})
	p.seeOther(t, "/documents", url.Values{"title": {"How we garden"}, "type": {"decision"}, "project": {"home"}, "body": {"Water at dawn."}})
	page := p.get(t, "/projects/home", http.StatusOK)
	contains(t, "the project page", page, "<h1>Home</h1>", `aria-current="page">Projects`, "Fix the fence", "How we garden",
		`href="/projects/garden"`, `id="project-edit"`, `id="project-share"`, "admin created this project")

	version := number(p.OK(http.StatusOK, http.MethodGet, "/v1/projects/home", p.Admin, nil)["version"])
	p.seeOther(t, "/projects/home", url.Values{"expected_version": {version}, "title": {"Our home"}, "was.title": {"Home"},
		"visibility": {"private"}, "was.visibility": {"public"}, "status": {"active"}, "was.status": {"active"}})
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/home", p.Admin, nil)
	if got["title"] != "Our home" || got["visibility"] != "private" {
		t.Fatalf("after the edit: %v %v", got["title"], got["visibility"])
	}
	if to := p.seeOther(t, "/projects/home", url.Values{"expected_version": {version}, "title": {"Stale"}}); !strings.Contains(to, "notice=conflict_project") {
		t.Fatalf("a stale edit went to %q", to)
	}
	p.sameRefusal(t, "/projects/home", url.Values{"visibility": {"secret"}}, p.Admin, http.MethodPatch, "/v1/projects/home",
		map[string]any{"visibility": "secret"})

	p.sameRefusal(t, "/projects/home/move", url.Values{"parent": {"garden"}}, p.Admin, http.MethodPost, "/v1/projects/home/move",
		map[string]any{"parent": "garden"})
	p.seeOther(t, "/projects/garden/move", url.Values{"parent": {"work"}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/garden", p.Admin, nil)["path"]; got != "work/garden" {
		t.Fatalf("moved to %v", got)
	}
	p.seeOther(t, "/projects/garden/move", url.Values{"parent": {""}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/garden", p.Admin, nil)["path"]; got != "garden" {
		t.Fatalf("moved to the top level: %v", got)
	}
	contains(t, "the moves in words", p.get(t, "/projects/garden", http.StatusOK), "admin moved this to the top level", "admin moved this under work")

	p.seeOther(t, "/projects/home/members", url.Values{"username": {"bob"}})
	members := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/home/members", p.Admin, nil)["items"].([]any)
	if len(members) != 2 {
		t.Fatalf("members after sharing: %v", members)
	}
	p.sameRefusal(t, "/projects/home/members", url.Values{"username": {"bob"}}, p.Admin, http.MethodPost, "/v1/projects/home/members",
		map[string]any{"username": "bob"})
	p.sameRefusal(t, "/projects/home/members", url.Values{"username": {"nobody-here"}}, p.Admin, http.MethodPost, "/v1/projects/home/members",
		map[string]any{"username": "nobody-here"})
	p.seeOther(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {"viewer"}})
	contains(t, "the project's history", p.get(t, "/projects/home", http.StatusOK), "admin shared this project with bob",
		"admin gave bob the viewer role in this project", "admin renamed this to “Our home” and made this private")
	p.seeOther(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {""}})
	p.sameRefusal(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {""}}, p.Admin, http.MethodDelete, "/v1/projects/home/roles/bob", nil)
	p.sameRefusal(t, "/projects/home/roles", url.Values{"username": {"bob"}, "role": {"chief"}}, p.Admin, http.MethodPut, "/v1/projects/home/roles/bob",
		map[string]any{"role": "chief"})
	p.seeOther(t, "/projects/home/members/bob/remove", url.Values{})
	p.sameRefusal(t, "/projects/home/members/admin/remove", url.Values{}, p.Admin, http.MethodDelete, "/v1/projects/home/members/admin", nil)

	if to := p.seeOther(t, "/projects/home/trash", url.Values{}); !strings.HasPrefix(to, "/projects?notice=trashed") {
		t.Fatalf("trash went to %q", to)
	}
	contains(t, "the trash", p.get(t, "/projects", http.StatusOK), `id="trash"`, `action="/projects/home/restore"`)
	p.get(t, "/projects/home", http.StatusNotFound)
	p.seeOther(t, "/projects/home/restore", url.Values{})
	p.get(t, "/projects/home", http.StatusOK)
	p.sameRefusal(t, "/projects/inbox/trash", url.Values{}, p.Admin, http.MethodDelete, "/v1/projects/inbox", nil)
}

// TestPageProjectArchive: Archive sets a project's first finished status,
// which lists it apart on the Projects page; Reopen sets the first active
// one again. Each carries the version seen: a stale one saves nothing.
func TestPageProjectArchive(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	p.seeOther(t, "/projects", url.Values{"key": {"home"}, "title": {"Home"}})
	page := p.get(t, "/projects/home", http.StatusOK)
	contains(t, "an open project", page, `id="project-archive"`, `name="status" value="completed"`, "marks it Completed")
	if strings.Contains(page, `id="project-reopen"`) || strings.Contains(p.get(t, "/projects/inbox", http.StatusOK), `id="project-archive"`) {
		t.Fatal("an open project offers Reopen, or the inbox offers Archive")
	}
	version := number(p.OK(http.StatusOK, http.MethodGet, "/v1/projects/home", p.Admin, nil)["version"])
	p.seeOther(t, "/projects/home", url.Values{"expected_version": {version}, "status": {"completed"}})
	list := p.get(t, "/projects", http.StatusOK)
	table, archived, _ := strings.Cut(list, `id="archived"`)
	if strings.Contains(table, `href="/projects/home"`) || !strings.Contains(archived, `href="/projects/home">Home</a>`) {
		t.Fatalf("the archived project is not listed apart:\n%s", list)
	}
	contains(t, "an archived project", p.get(t, "/projects/home", http.StatusOK), `id="project-reopen"`, "Home is archived (Completed)",
		`name="status" value="active"`, "admin moved this to Completed")
	if to := p.seeOther(t, "/projects/home", url.Values{"expected_version": {version}, "status": {"active"}}); !strings.Contains(to, "notice=conflict_project") {
		t.Fatalf("a stale reopen went to %q", to)
	}
	version = number(p.OK(http.StatusOK, http.MethodGet, "/v1/projects/home", p.Admin, nil)["version"])
	p.seeOther(t, "/projects/home", url.Values{"expected_version": {version}, "status": {"active"}})
	if strings.Contains(p.get(t, "/projects", http.StatusOK), `id="archived"`) {
		t.Fatal("the reopened project is still archived")
	}
}

// TestPageProjectDisclosure: a private project someone may not see answers
// on its page and on every form of it exactly as one that does not exist.
func TestPageProjectDisclosure(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	bob := p.Member("bob", "member")
	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	bp := &pageEnv{env: p.env, session: p.SignIn(p.MintLink(bob, map[string]any{})).Value}
	for _, c := range []struct {
		method, path string
		form         url.Values
	}{
		{http.MethodGet, "/projects/%s", nil},
		{http.MethodPost, "/projects/%s", url.Values{"title": {"mine now"}}},
		{http.MethodPost, "/projects/%s/move", url.Values{"parent": {""}}},
		{http.MethodPost, "/projects/%s/trash", url.Values{}},
		{http.MethodPost, "/projects/%s/tasks", url.Values{"text": {"planted"}}},
		{http.MethodPost, "/projects/%s/members", url.Values{"username": {"bob"}}},
		{http.MethodPost, "/projects/%s/roles", url.Values{"username": {"bob"}, "role": {"owner"}}},
	} {
		// The answer may name the key asked for; it must say nothing else.
		unseen := bp.Browser(c.method, strings.Replace(c.path, "%s", "sec", 1), bp.session, p.Srv.URL, c.form)
		absent := bp.Browser(c.method, strings.Replace(c.path, "%s", "zzz", 1), bp.session, p.Srv.URL, c.form)
		if unseen.Status != absent.Status || strings.ReplaceAll(string(unseen.Body), "sec", "zzz") != string(absent.Body) {
			t.Fatalf("%s %s: the unseen project answers %d, a missing one %d\n%s\n---\n%s", c.method, c.path, unseen.Status, absent.Status, unseen.Body, absent.Body)
		}
	}
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/projects/sec", p.Admin, nil); got["title"] != "Secret" || got["visibility"] != "private" {
		t.Fatalf("the private project changed: %v", got)
	}
	if strings.Contains(bp.get(t, "/projects", http.StatusOK), "Secret") {
		t.Fatal("the Projects page shows the private project")
	}
}
