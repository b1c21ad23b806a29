package web_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"tend/web/webtest"
)

// docDisFix is the disclosure fixture for documents and comments, in the
// shape of disFix: alice owns the public project pub and the private project
// sec; the callers are bob (who cannot see sec), a token of alice narrowed
// to pub, and an agent answering to bob. A document sits in each project,
// one in pub's trash, one in a trashed project, one in a workspace nobody
// here reaches. The sec document is linked to the pub document and the pub
// task, and carries alice's comment.
type docDisFix struct {
	e       *env
	alice   string
	callers map[string]string
	doc     map[string]map[string]any
	task    map[string]any
	link    string
	comment string
}

func newDocDisFix(t *testing.T) *docDisFix {
	e := newEnv(t)
	f := &docDisFix{e: e, doc: map[string]map[string]any{}}
	f.alice = e.Member("alice", "member")
	bob := e.Member("bob", "member")
	agent := e.Agent("bobbot", "bob")
	for key, vis := range map[string]string{"pub": "public", "sec": "private", "gone": "public"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", f.alice, map[string]any{"key": key, "title": key, "visibility": vis})
	}
	narrowed := e.Issue(f.alice, map[string]any{"project_scope": []string{"pub"}})["token"].(string)
	f.callers = map[string]string{"person": bob, "narrowed token": narrowed, "agent": agent}
	for name, project := range map[string]string{"pub": "pub", "sec": "sec", "trashed": "pub", "in gone": "gone"} {
		f.doc[name] = e.docCreate(f.alice, map[string]any{"title": name + " doc", "project": project, "tags": []string{name[:3]}})
	}
	f.task = e.CreateTask(f.alice, map[string]any{"title": "pub task", "project": "pub"})
	// Stated on the pub document, so its history names the sec end.
	f.link = e.OK(http.StatusCreated, http.MethodPost, docPath(f.doc["pub"], "links"), f.alice,
		map[string]any{"link_type": "documents", "target": f.doc["sec"]["ref"], "target_type": "document", "direction": "incoming"})["id"].(string)
	e.OK(http.StatusCreated, http.MethodPost, docPath(f.doc["sec"], "links"), f.alice,
		map[string]any{"link_type": "documents", "target": f.task["ref"]})
	f.comment = e.OK(http.StatusCreated, http.MethodPost, docPath(f.doc["sec"], "comments"), f.alice, map[string]any{"body": "hush"})["id"].(string)
	e.OK(http.StatusOK, http.MethodDelete, docPath(f.doc["trashed"]), f.alice, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/gone", f.alice, nil)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "other", "name": "Other"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects?workspace_id=other", e.Admin, map[string]any{"key": "far", "title": "Far"})
	f.doc["far"] = e.OK(http.StatusCreated, http.MethodPost, "/v1/documents?workspace_id=other", e.Admin, map[string]any{"title": "far doc", "project": "far"})
	return f
}

func (f *docDisFix) ref(name string) string { return lstItoa(lstNum(f.doc[name]["ref"])) }
func (f *docDisFix) id(name string) string  { return f.doc[name]["id"].(string) }

// TestDocumentDisclosure: a document in a project the caller cannot see
// answers on every route exactly like one that does not exist, and is
// omitted from every listing, count, link and history.
func TestDocumentDisclosure(t *testing.T) {
	t.Parallel()
	f := newDocDisFix(t)
	missingID := uuid.NewString()
	unseen := []string{"sec", "trashed", "in gone"}
	reads := []string{"", "/links", "/events", "/comments", "/backlinks", "/governing", "/proposed-links", "/tree"}
	writes := []struct {
		method, route string
		body          any
	}{
		{http.MethodPatch, "", map[string]any{"title": "x"}}, {http.MethodDelete, "", nil},
		{http.MethodPost, "/move", map[string]any{"parent": nil}}, {http.MethodPost, "/restore", nil},
		{http.MethodPost, "/links", map[string]any{"link_type": "relates_to", "target": f.task["ref"]}},
		{http.MethodDelete, "/links/" + f.link, nil}, {http.MethodPost, "/comments", map[string]any{"body": "x"}},
	}
	for caller, tok := range f.callers {
		t.Run(caller, func(t *testing.T) {
			e := f.e.sub(t)
			for _, form := range []struct {
				missing string
				name    func(string) string
			}{{"9999", f.ref}, {missingID, f.id}} {
				for _, route := range reads {
					missing := e.Do(http.MethodGet, "/v1/documents/"+form.missing+route, tok, nil)
					webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
					e.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+form.name("pub")+route, tok, nil)
					for _, u := range append(unseen, "far") {
						if u == "far" && form.missing == "9999" {
							continue
						}
						path := "/v1/documents/" + form.name(u) + route
						disSame(t, "GET "+path+" ("+u+")", e.Do(http.MethodGet, path, tok, nil), missing, "", "")
					}
				}
				for _, w := range writes {
					missing := e.Do(w.method, "/v1/documents/"+form.missing+w.route, tok, w.body)
					webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
					path := "/v1/documents/" + form.name("sec") + w.route
					disSame(t, w.method+" "+path, e.Do(w.method, path, tok, w.body), missing, "", "")
				}
			}
			docDisReferences(t, e, f, tok)
			docDisListings(t, e, f, tok)
		})
	}
	t.Run("nothing changed and alice still sees it all", func(t *testing.T) {
		e := f.e.sub(t)
		sec := e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["sec"]), f.alice, nil)
		if sec["title"] != "sec doc" || lstNum(sec["version"]) != 1 {
			t.Fatalf("the sec document changed: %v", sec)
		}
		if ls := lstItems(e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["pub"], "links"), f.alice, nil)); len(ls) != 1 {
			t.Fatalf("alice sees %d links on the pub document", len(ls))
		}
		evs := lstItems(e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["pub"], "events"), f.alice, nil))
		if !slices.ContainsFunc(evs, func(ev map[string]any) bool { return ev["subject_type"] == "link" }) {
			t.Fatalf("alice's history of the pub document has the link: %v", evs)
		}
		if cs := lstItems(e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["sec"], "comments"), f.alice, nil)); len(cs) != 1 {
			t.Fatalf("alice sees %d comments", len(cs))
		}
	})
}

// docDisReferences: naming the unseen document or project anywhere a
// reference is taken answers like naming one that does not exist.
func docDisReferences(t *testing.T, e *env, f *docDisFix, tok string) {
	t.Helper()
	missingID := uuid.NewString()
	pubDoc, pubTask := docPath(f.doc["pub"]), tskPath(f.task)
	for _, c := range []struct {
		method, path string
		body         func(ref any) any
		refs         [2]any
	}{
		{http.MethodPost, "/v1/documents", func(r any) any { return map[string]any{"title": "x", "parent": r} }, [2]any{f.doc["sec"]["ref"], 9999}},
		{http.MethodPost, "/v1/documents", func(r any) any { return map[string]any{"title": "x", "project": r} }, [2]any{"sec", "nope"}},
		{http.MethodPatch, pubDoc, func(r any) any { return map[string]any{"parent": r} }, [2]any{f.id("sec"), missingID}},
		{http.MethodPatch, pubDoc, func(r any) any { return map[string]any{"project": r} }, [2]any{"sec", "nope"}},
		{http.MethodPost, pubDoc + "/move", func(r any) any { return map[string]any{"parent": r} }, [2]any{f.doc["sec"]["ref"], 9999}},
		{http.MethodPost, pubDoc + "/links", func(r any) any {
			return map[string]any{"link_type": "relates_to", "target": r, "target_type": "document"}
		}, [2]any{f.doc["sec"]["ref"], 9999}},
		{http.MethodPost, pubTask + "/links", func(r any) any {
			return map[string]any{"link_type": "relates_to", "target": r, "target_type": "document"}
		}, [2]any{f.id("sec"), missingID}},
	} {
		missing := e.Do(c.method, c.path, tok, c.body(c.refs[1]))
		if missing.Status < 400 {
			t.Fatalf("%s %s naming %v: %d", c.method, c.path, c.refs[1], missing.Status)
		}
		disSame(t, c.method+" "+c.path+" naming the unseen", e.Do(c.method, c.path, tok, c.body(c.refs[0])), missing, lstStr(c.refs[0]), lstStr(c.refs[1]))
	}
	for _, c := range []struct{ param, unseen, missing string }{
		{"project", "sec", "nope"}, {"parent", f.ref("sec"), "9999"}, {"parent", f.id("sec"), missingID}, {"parent", f.ref("trashed"), "9999"},
	} {
		missing := e.Do(http.MethodGet, "/v1/documents?"+c.param+"="+c.missing, tok, nil)
		webtest.AssertProblem(t, missing, http.StatusUnprocessableEntity, "validation")
		disSame(t, c.param+"="+c.unseen, e.Do(http.MethodGet, "/v1/documents?"+c.param+"="+c.unseen, tok, nil), missing, c.unseen, c.missing)
	}
	for _, method := range []string{http.MethodPatch, http.MethodDelete} {
		missing := e.Do(method, "/v1/comments/"+missingID, tok, map[string]any{"body": "y"})
		webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
		disSame(t, method+" the unseen comment", e.Do(method, "/v1/comments/"+f.comment, tok, map[string]any{"body": "y"}), missing, "", "")
	}
}

// docDisListings: the unseen documents are in no listing, total, link or history.
func docDisListings(t *testing.T, e *env, f *docDisFix, tok string) {
	t.Helper()
	hidden := []string{f.id("sec"), f.id("in gone"), f.id("far")}
	for _, params := range []string{"include_total=true&limit=500", "include_total=true&limit=1", "deleted=true&include_total=true",
		"tag=sec&include_total=true", "status_category=in_progress&include_total=true", "type=note&include_total=true"} {
		got := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?"+params, tok, nil)
		for _, it := range lstItems(got) {
			if slices.Contains(hidden, it["id"].(string)) {
				t.Fatalf("?%s lists %v", params, it["title"])
			}
		}
	}
	all := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?include_total=true", tok, nil)
	if n := lstNum(lstPage(all)["total"]); n != 1 || len(lstItems(all)) != 1 {
		t.Fatalf("total %d over %v; the caller sees only the pub document", n, lstItems(all))
	}
	if n := lstNum(lstPage(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?deleted=true&include_total=true", tok, nil))["total"]); n != 1 {
		t.Fatalf("the trash counts %d; only the pub one is the caller's to see", n)
	}
	for _, path := range []string{docPath(f.doc["pub"], "links"), tskPath(f.task, "links")} {
		if ls := lstItems(e.OK(http.StatusOK, http.MethodGet, path, tok, nil)); len(ls) != 0 {
			t.Fatalf("%s shows %v", path, ls)
		}
	}
	for _, params := range []string{"", "?order=seq", "?limit=1"} {
		for _, ev := range lstItems(e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["pub"], "events")+params, tok, nil)) {
			if ev["subject_type"] == "link" {
				t.Fatalf("the pub document's history shows %v", ev)
			}
		}
	}
	if n := lstNum(e.OK(http.StatusOK, http.MethodGet, docPath(f.doc["pub"]), tok, nil)["sub_documents"]); n != 0 {
		t.Fatalf("sub_documents %d", n)
	}
}
