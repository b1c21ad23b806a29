package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestPageDocumentForms: a document is written from the Documents page
// with a type, previewed (nothing saved, the body rendered and its changes
// shown line by line), saved with only the fields changed, taken out of
// force by its status, and linked by ref and by words picked from a list.
func TestPageDocumentForms(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	for _, kind := range []string{"note", "spec", "design", "decision", "finding", "dead_end"} {
		to := p.seeOther(t, "/documents", url.Values{"title": {"A " + kind}, "type": {kind}, "project": {"inbox"}})
		got := p.OK(http.StatusOK, http.MethodGet, "/v1"+to, p.Admin, nil)
		if got["type"] != kind || got["status"] != "current" {
			t.Fatalf("%s: created as %v %v", kind, got["type"], got["status"])
		}
	}
	p.sameRefusal(t, "/documents", url.Values{"title": {"x"}, "type": {"poem"}}, p.Admin, http.MethodPost, "/v1/documents",
		map[string]any{"title": "x", "type": "poem"})
	p.sameRefusal(t, "/documents", url.Values{"title": {""}, "type": {"note"}}, p.Admin, http.MethodPost, "/v1/documents",
		map[string]any{"title": "", "type": "note"})
	list := p.get(t, "/documents?type=decision", http.StatusOK)
	contains(t, "Documents filtered", list, `aria-current="page">Documents`, "A decision", `id="document-new"`)
	if strings.Contains(list, "A note") {
		t.Fatal("the type filter let a note through")
	}

	to := p.seeOther(t, "/documents", url.Values{"title": {"Storage"}, "type": {"decision"}, "tags": {"#db, infra"},
		"body": {"# Storage\n\nWe use SQLite.\nOne file.\nBacked up nightly.\n"}})
	ref := strings.TrimPrefix(to, "/documents/")
	page := p.get(t, to, http.StatusOK)
	contains(t, "the document page", page, `aria-current="page">Documents`, "<h1>Storage</h1>", "in force", "#db", "#infra",
		"admin created this", `id="link-add"`)
	version := number(p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref, p.Admin, nil)["version"])
	saved := "# Storage\n\nWe use SQLite.\nOne file.\nBacked up nightly.\n"
	draft := url.Values{"expected_version": {version}, "title": {"Storage"}, "was.title": {"Storage"},
		"body": {"# Storage\n\nWe use SQLite, *always*.\nOne file.\nBacked up nightly.\n"}, "was.body": {saved},
		"status": {"current"}, "was.status": {"current"}, "preview": {"1"}}
	r := p.post(t, to, draft)
	if r.Status != http.StatusOK {
		t.Fatalf("preview: %d\n%s", r.Status, r.Body)
	}
	contains(t, "the preview", string(r.Body), "<details id=\"edit\" open>", "We use SQLite, <em>always</em>.",
		"<del>− We use SQLite.</del>", "<ins>+ We use SQLite, *always*.</ins>", "<span>  One file.</span>")
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref, p.Admin, nil); number(got["version"]) != version {
		t.Fatalf("a preview saved: version %v", got["version"])
	}

	draft.Del("preview")
	p.seeOther(t, to, draft)
	got := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref, p.Admin, nil)
	if !strings.Contains(got["body"].(string), "*always*") || got["revisions"].(map[string]any)["count"] != float64(1) {
		t.Fatalf("after saving: %v %v", got["body"], got["revisions"])
	}
	events := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref+"/events", p.Admin, nil)["items"].([]any)
	if changes := events[0].(map[string]any)["changes"].(map[string]any); len(changes) != 1 || changes["body"] == nil {
		t.Fatalf("saving the body changed more than the body: %v", changes)
	}

	stale := url.Values{"expected_version": {version}, "body": {"Mine instead."}, "was.body": {saved}}
	r = p.post(t, to, stale)
	contains(t, "a stale save", string(r.Body), "Someone changed this document", ">Mine instead.</textarea>",
		"against the body saved meanwhile", "<ins>+ Mine instead.</ins>")
	if r.Status != http.StatusConflict {
		t.Fatalf("a stale save: %d", r.Status)
	}
	again := regexp.MustCompile(`name="expected_version" value="(\d+)"`).FindStringSubmatch(string(r.Body))
	if again == nil || again[1] == version {
		t.Fatalf("the refused draft is not set against the current version: %v", again)
	}

	task := p.CreateTask(p.Admin, map[string]any{"title": "Back up the storage nightly"})
	tref := number(task["ref"])
	p.seeOther(t, to+"/links", url.Values{"link_type": {"relates_to"}, "target": {"#" + tref}})
	r = p.post(t, to+"/links", url.Values{"link_type": {"documents"}, "target": {"nightly back"}})
	contains(t, "the picker without a script", string(r.Body), "<h1>Pick what to link</h1>", `value="#`+tref+`"`, "Back up the storage nightly")
	p.seeOther(t, to+"/links", url.Values{"link_type": {"documents"}, "target": {"#" + tref}, "target_type": {"task"}})
	links := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref+"/links", p.Admin, nil)["items"].([]any)
	if len(links) != 2 {
		t.Fatalf("links: %v", links)
	}
	p.sameRefusal(t, to+"/links", url.Values{"link_type": {"documents"}, "target": {"#" + tref}}, p.Admin, http.MethodPost, "/v1/documents/"+ref+"/links",
		map[string]any{"link_type": "documents", "target": task["ref"]})
	p.sameRefusal(t, to+"/links", url.Values{"link_type": {"relates_to"}, "target": {"#9999"}}, p.Admin, http.MethodPost, "/v1/documents/"+ref+"/links",
		map[string]any{"link_type": "relates_to", "target": 9999})
	id := links[0].(map[string]any)["id"].(string)
	p.seeOther(t, to+"/links/"+id+"/remove", url.Values{})
	contains(t, "the task's governing documents", p.get(t, "/tasks/"+tref, http.StatusOK), "Governed by", "Storage")

	v := number(p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref, p.Admin, nil)["version"])
	p.seeOther(t, to, url.Values{"expected_version": {v}, "status": {"draft"}, "was.status": {"current"}})
	contains(t, "a draft", p.get(t, to, http.StatusOK), "(not in force)", "admin moved this to Draft")
	if strings.Contains(p.get(t, "/tasks/"+tref, http.StatusOK), "Governed by") {
		t.Fatal("a draft still governs the task")
	}

	note := p.OK(http.StatusOK, http.MethodGet, "/v1"+p.seeOther(t, "/documents", url.Values{"title": {"Backups"}, "type": {"note"}}), p.Admin, nil)
	nref := number(note["ref"])
	p.seeOther(t, "/documents/"+nref, url.Values{"expected_version": {number(note["version"])}, "parent": {"#" + ref}, "was.parent": {""}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+nref, p.Admin, nil)["parent_ref"]; number(got) != ref {
		t.Fatalf("the note sits under %v, want #%s", got, ref)
	}
	contains(t, "a document under another", p.get(t, "/documents/"+nref, http.StatusOK), `href="/documents/`+ref+`">#`+ref+`</a>`,
		`id="d-parent" name="parent" value="#`+ref+`"`, "admin put this under #"+ref)
	p.sameRefusal(t, "/documents/"+ref, url.Values{"parent": {"#" + nref}}, p.Admin, http.MethodPatch, "/v1/documents/"+ref,
		map[string]any{"parent": note["ref"]})
	p.seeOther(t, "/documents/"+nref, url.Values{"parent": {""}, "was.parent": {"#" + ref}})
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+nref, p.Admin, nil)["parent_ref"]; got != nil {
		t.Fatalf("the note still sits under %v", got)
	}
}

// TestPagePreview renders Markdown as the pages do, for the live preview;
// raw HTML is left out.
func TestPagePreview(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	r := p.post(t, "/preview", url.Values{"text": {"**bold** <script>alert(1)</script> #12"}})
	if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("preview: %d %v", r.Status, r.Header)
	}
	contains(t, "the preview", string(r.Body), "<strong>bold</strong>", `<a href="/items/12">#12</a>`)
	if strings.Contains(string(r.Body), "<script") {
		t.Fatalf("raw HTML in the preview: %s", r.Body)
	}
	if r := p.Browser(http.MethodPost, "/preview", p.session, "https://evil.example", url.Values{"text": {"x"}}); r.Status != http.StatusForbidden {
		t.Fatalf("a cross-site preview: %d", r.Status)
	}
	if r := p.Browser(http.MethodPost, "/preview", "", p.Srv.URL, url.Values{"text": {"x"}}); r.Status != http.StatusUnauthorized {
		t.Fatalf("a preview signed out: %d", r.Status)
	}
}
