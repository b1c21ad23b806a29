package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// graphFix is a workspace with a public project, a private one the reader
// cannot see, and helpers to make tasks, documents and links by ref.
type graphFix struct {
	e      *env
	reader string
}

func newGraphFix(t *testing.T) *graphFix {
	e := newEnv(t)
	f := &graphFix{e: e, reader: e.Person("rita")}
	e.Join("rita", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "web", "title": "Web"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "hush", "title": "Hush", "visibility": "private"})
	return f
}

func (f *graphFix) task(body map[string]any) int64 {
	f.e.T.Helper()
	if body["project"] == nil {
		body["project"] = "web"
	}
	return lstNum(f.e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", f.e.Admin, body)["ref"])
}

func (f *graphFix) doc(body map[string]any) int64 {
	f.e.T.Helper()
	if body["project"] == nil {
		body["project"] = "web"
	}
	return lstNum(f.e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", f.e.Admin, body)["ref"])
}

// link makes a link from the item at path (e.g. /v1/tasks/3) to target.
func (f *graphFix) link(path, linkType string, target int64, targetType string) {
	f.e.T.Helper()
	f.e.OK(http.StatusCreated, http.MethodPost, path+"/links", f.e.Admin,
		map[string]any{"link_type": linkType, "target": target, "target_type": targetType})
}

func (f *graphFix) list(path, token string) []map[string]any {
	f.e.T.Helper()
	m := f.e.OK(http.StatusOK, http.MethodGet, path, token, nil)
	if p := lstPage(m); p["has_more"] != false {
		f.e.T.Fatalf("%s: an unpaged listing reports has_more false: %v", path, p)
	}
	return lstItems(m)
}

func tref(ref int64) string { return fmt.Sprintf("/v1/tasks/%d", ref) }
func dref(ref int64) string { return fmt.Sprintf("/v1/documents/%d", ref) }

func TestBacklinks(t *testing.T) {
	t.Parallel()
	f := newGraphFix(t)
	e := f.e
	target := f.task(map[string]any{"title": "Fix the login"})
	fromTask := f.task(map[string]any{"title": "Write tests", "description": fmt.Sprintf("after #%d lands", target)})
	fromDoc := f.doc(map[string]any{"title": "Login notes", "body": fmt.Sprintf("see #%d and #%d", target, target)})
	onTask := f.task(map[string]any{"title": "Release"})
	e.OK(http.StatusCreated, http.MethodPost, tref(onTask)+"/comments", e.Admin, map[string]any{"body": fmt.Sprintf("waiting on #%d", target)})
	f.task(map[string]any{"title": fmt.Sprintf("Secret follow-up to #%d", target), "project": "hush"})
	f.task(map[string]any{"title": "Mentions itself?", "description": "#99999 does not exist yet"})

	type bl struct {
		Kind string
		Ref  int64
		Via  any
	}
	read := func(token string) []bl {
		var out []bl
		for _, it := range f.list(tref(target)+"/backlinks", token) {
			out = append(out, bl{it["kind"].(string), lstNum(it["ref"]), it["via"]})
			if it["title"] == "" || it["created_at"] == nil {
				t.Fatalf("a backlink carries a title and created_at: %v", it)
			}
		}
		return out
	}
	want := []bl{{"task", fromTask, nil}, {"document", fromDoc, nil}, {"task", onTask, "comment"}}
	if got := read(f.reader); !slices.Equal(got, want) {
		t.Fatalf("reader's backlinks: got %v, want %v", got, want)
	}
	if got := read(e.Admin); len(got) != 4 {
		t.Fatalf("the private project's owner sees its mention too: %v", got)
	}
	docBacklinks := f.list(dref(fromDoc)+"/backlinks", f.reader)
	if len(docBacklinks) != 0 {
		t.Fatalf("nothing mentions the document: %v", docBacklinks)
	}

	// Rewriting the text takes the mention away; trashing the source hides it.
	e.OK(http.StatusOK, http.MethodPatch, tref(fromTask), e.Admin, map[string]any{"description": "no mention now"})
	e.OK(http.StatusOK, http.MethodDelete, dref(fromDoc), e.Admin, nil)
	if got := read(f.reader); !slices.Equal(got, []bl{{"task", onTask, "comment"}}) {
		t.Fatalf("after the edit and the trash: %v", got)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/99999/backlinks", f.reader, nil)
}

func TestGoverning(t *testing.T) {
	t.Parallel()
	f := newGraphFix(t)
	e := f.e
	work := f.task(map[string]any{"title": "Build the importer"})
	decision := f.doc(map[string]any{"title": "Use CSV", "type": "decision", "body": "We import CSV only."})
	spec := f.doc(map[string]any{"title": "Importer spec", "type": "spec"})
	draft := f.doc(map[string]any{"title": "Maybe JSON", "type": "decision", "status": "draft"})
	related := f.doc(map[string]any{"title": "Background", "type": "note"})
	secret := f.doc(map[string]any{"title": "Secret rule", "type": "decision", "project": "hush"})
	f.link(dref(decision), "documents", work, "task")
	f.link(tref(work), "derives_from", spec, "document")
	f.link(dref(draft), "documents", work, "task")
	f.link(dref(related), "relates_to", work, "task")
	f.link(dref(secret), "documents", work, "task")

	got := f.list(tref(work)+"/governing", f.reader)
	var refs []int64
	for _, g := range got {
		d := g["document"].(map[string]any)
		if d["entity_type"] != "document" || d["body"] != nil {
			t.Fatalf("a governing entry names a document without its body: %v", g)
		}
		refs = append(refs, lstNum(d["ref"]))
	}
	if !slices.Equal(refs, []int64{decision, spec}) {
		t.Fatalf("governing: got %v, want the decision and the spec (in force, seen)", refs)
	}
	if got[0]["link_type"] != "documents" || got[1]["link_type"] != "derives_from" {
		t.Fatalf("link types: %v", got)
	}
	if n := len(f.list(tref(work)+"/governing", e.Admin)); n != 3 {
		t.Fatalf("the private decision governs for its owner: %d", n)
	}
	// Superseding the decision takes it out of force.
	e.OK(http.StatusOK, http.MethodPatch, dref(decision), e.Admin, map[string]any{"status": "superseded"})
	if n := len(f.list(tref(work)+"/governing", f.reader)); n != 1 {
		t.Fatalf("a superseded decision still governs: %d", n)
	}
	// A document can be governed too.
	f.link(dref(spec), "documents", related, "document")
	if got := f.list(dref(related)+"/governing", f.reader); len(got) != 1 {
		t.Fatalf("the spec governs the note: %v", got)
	}
}

func TestProposedLinks(t *testing.T) {
	t.Parallel()
	f := newGraphFix(t)
	e := f.e
	work := f.task(map[string]any{"title": "Harden auth", "tags": []string{"auth"}})
	mentioner := f.doc(map[string]any{"title": "Session decision", "type": "decision", "body": fmt.Sprintf("Applies to #%d.", work)})
	tagged := f.doc(map[string]any{"title": "Auth design", "type": "design", "tags": []string{"Auth"}})
	note := f.doc(map[string]any{"title": "Auth musings", "type": "note", "tags": []string{"auth"}, "body": fmt.Sprintf("#%d", work)})
	f.doc(map[string]any{"title": "Draft rule", "type": "decision", "status": "draft", "body": fmt.Sprintf("#%d", work)})
	f.doc(map[string]any{"title": "Secret auth rule", "type": "decision", "project": "hush", "tags": []string{"auth"}})
	mentioned := f.doc(map[string]any{"title": "Dead end: JWT", "type": "dead_end"})
	e.OK(http.StatusCreated, http.MethodPost, tref(work)+"/comments", e.Admin, map[string]any{"body": fmt.Sprintf("remember #%d", mentioned)})

	read := func() map[int64]map[string]any {
		out := map[int64]map[string]any{}
		for _, p := range f.list(tref(work)+"/proposed-links", f.reader) {
			if p["id"] != nil {
				t.Fatalf("a proposal is not a link and has no id: %v", p)
			}
			out[lstNum(p["other"].(map[string]any)["ref"])] = p
		}
		return out
	}
	got := read()
	if len(got) != 3 || got[mentioner] == nil || got[tagged] == nil || got[mentioned] == nil {
		t.Fatalf("proposals: got %v, want the decision, the design and the dead end", got)
	}
	if b := got[mentioner]["because"].(string); b != fmt.Sprintf("#%d mentions this task in its text", mentioner) {
		t.Fatalf("because for a mention: %q", b)
	}
	if b := got[mentioned]["because"].(string); b != "this task mentions it" {
		t.Fatalf("because for a mention in a comment on the task: %q", b)
	}
	if got[note] != nil {
		t.Fatal("a note does not govern, so it is never proposed")
	}
	for ref, p := range got {
		if p["link_type"] != "documents" || p["direction"] != "incoming" || p["label"] != "is documented by" || p["because"] == "" {
			t.Fatalf("proposal for #%d: %v", ref, p)
		}
	}
	// Tags are one vocabulary, case-insensitive: "Auth" is the tag first written "auth".
	if b := got[tagged]["because"].(string); b != "shares the tag #auth" {
		t.Fatalf("because: %q", b)
	}
	// A link of any kind joining the pair ends the proposal; confirming is an ordinary POST.
	f.link(dref(mentioner), "documents", work, "task")
	f.link(tref(work), "relates_to", tagged, "document")
	if got := read(); len(got) != 1 || got[mentioned] == nil {
		t.Fatalf("after linking two of them: %v", got)
	}
}

func TestTree(t *testing.T) {
	t.Parallel()
	f := newGraphFix(t)
	e := f.e
	root := f.task(map[string]any{"title": "Root"})
	t2 := f.task(map[string]any{"title": "Two"})
	t3 := f.task(map[string]any{"title": "Three"})
	t4 := f.task(map[string]any{"title": "Four"})
	t5 := f.doc(map[string]any{"title": "Five (a document)"})
	t6 := f.task(map[string]any{"title": "Six"})
	f.link(tref(root), "blocks", t2, "task")
	f.link(tref(t2), "precedes", t3, "task")
	f.link(tref(root), "blocks", t4, "task")
	f.link(tref(t4), "blocks", t3, "task")
	f.link(tref(t3), "precedes", t5, "document")
	f.link(tref(root), "relates_to", t6, "task")

	type row struct {
		Depth   int64
		Ref     int64
		Stopped any
	}
	walk := func(query, token string) []row {
		var out []row
		for _, it := range f.list(tref(root)+"/tree"+query, token) {
			out = append(out, row{lstNum(it["depth"]), lstNum(it["item"].(map[string]any)["ref"]), it["stopped"]})
		}
		return out
	}
	if got, want := walk("?depth=2", e.Admin), []row{{1, t2, nil}, {2, t3, "deeper"}, {1, t4, nil}, {2, t3, "again"}}; !slices.Equal(got, want) {
		t.Fatalf("depth 2: got %v, want %v", got, want)
	}
	if got, want := walk("?depth=3", e.Admin), []row{{1, t2, nil}, {2, t3, nil}, {3, t5, nil}, {1, t4, nil}, {2, t3, "again"}}; !slices.Equal(got, want) {
		t.Fatalf("depth 3: got %v, want %v", got, want)
	}
	if got := walk("?depth=99", e.Admin); len(got) != 5 {
		t.Fatalf("a depth beyond the instance's bound is capped, not refused: %v", got)
	}
	if got := walk("", e.Admin); len(got) != 5 {
		t.Fatalf("the default depth (3) walks everything here: %v", got)
	}
	// An item the reader cannot see is neither drawn nor walked through.
	e.OK(http.StatusOK, http.MethodPost, tref(t2)+"/move", e.Admin, map[string]any{"project": "hush"})
	if got, want := walk("?depth=2", f.reader), []row{{1, t4, nil}, {2, t3, "deeper"}}; !slices.Equal(got, want) {
		t.Fatalf("reader's walk: got %v, want %v", got, want)
	}
	for _, bad := range []string{"?depth=0", "?depth=-1", "?depth=two"} {
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, tref(root)+"/tree"+bad, e.Admin, nil)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, tref(t2)+"/tree", f.reader, nil)
}
