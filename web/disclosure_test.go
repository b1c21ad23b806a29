package web_test

import (
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"tend/web/webtest"
)

// disFix is the disclosure fixture. alice owns the public project pub and
// the private project sec; bob is a fellow member who cannot see sec. The
// sec task blocks the pub task. A task sits in pub's trash, a trashed
// project (gone) holds a task, and another workspace holds a project and a
// task that nobody here can reach.
type disFix struct {
	e       *env
	alice   string
	callers map[string]string // bob, a token of alice narrowed to pub, an agent answering to bob
	task    map[string]map[string]any
	project map[string]map[string]any
	linkID  string
}

func newDisFix(t *testing.T) *disFix {
	e := newEnv(t)
	f := &disFix{e: e, task: map[string]map[string]any{}, project: map[string]map[string]any{}}
	f.alice = e.Member("alice", "member")
	bob := e.Member("bob", "member")
	agent := e.Agent("bobbot", "bob")
	for key, vis := range map[string]string{"pub": "public", "sec": "private", "gone": "public"} {
		f.project[key] = e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", f.alice, map[string]any{"key": key, "title": key, "visibility": vis})
	}
	narrowed := e.Issue(f.alice, map[string]any{"project_scope": []string{"pub"}})["token"].(string)
	f.callers = map[string]string{"person": bob, "narrowed token": narrowed, "agent": agent}
	for name, project := range map[string]string{"pub": "pub", "sec": "sec", "trashed": "pub", "in gone": "gone"} {
		f.task[name] = e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", f.alice, map[string]any{"title": name + " task", "project": project})
	}
	for _, name := range []string{"pub", "sec"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+f.ref(name)+"/verifications", f.alice, map[string]any{"passed": true})
	}
	// Stated on the pub task: the sec task blocks it.
	f.linkID = e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+f.ref("pub")+"/links", f.alice,
		map[string]any{"link_type": "blocks", "target": lstNum(f.task["sec"]["ref"]), "direction": "incoming"})["id"].(string)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+f.ref("trashed"), f.alice, nil)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/projects/gone", f.alice, nil)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/workspaces", e.Admin, map[string]any{"slug": "other", "name": "Other"})
	f.project["far"] = e.OK(http.StatusCreated, http.MethodPost, "/v1/projects?workspace_id=other", e.Admin, map[string]any{"key": "far", "title": "Far"})
	f.task["far"] = e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=other", e.Admin, map[string]any{"title": "far task", "project": "far"})
	return f
}

// TestDisclosure walks every read route, listing and reference for three
// callers over one fixture; the writes come last and must change nothing.
func TestDisclosure(t *testing.T) {
	t.Parallel()
	f := newDisFix(t)
	t.Run("read matrix", func(t *testing.T) { disReadMatrix(t, f) })
	t.Run("listings", func(t *testing.T) { disListings(t, f) })
	t.Run("filter references", func(t *testing.T) { disFilterReferences(t, f) })
	t.Run("writes", func(t *testing.T) { disWrites(t, f) })
}

// at is f answering to t.
func (f *disFix) at(t *testing.T) *disFix {
	c := *f
	c.e = f.e.sub(t)
	return &c
}

func (f *disFix) ref(name string) string { return lstItoa(lstNum(f.task[name]["ref"])) }
func (f *disFix) id(name string) string  { return f.task[name]["id"].(string) }

// disToken matches a reference standing alone in a message.
func disToken(s string) *regexp.Regexp {
	return regexp.MustCompile(`(^|[^0-9A-Za-z_-])` + regexp.QuoteMeta(s) + `($|[^0-9A-Za-z_-])`)
}

// disBody is a problem document without its instance (the path asked for),
// with an echoed reference written as the nonexistent one it is compared to.
func disBody(t *testing.T, r webtest.Response, echoed, as string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, r.Body)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "instance")
	}
	if echoed == "" {
		return v
	}
	re := disToken(echoed)
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return re.ReplaceAllString(x, "${1}"+as+"${2}")
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	return walk(v)
}

// disSame asserts that got (about something unseen) answers exactly like
// want (about something that does not exist): status, content type and
// body, apart from the instance and the echo of the reference sent.
func disSame(t *testing.T, what string, got, want webtest.Response, echoed, as string) {
	t.Helper()
	if got.Status != want.Status || got.Header.Get("Content-Type") != want.Header.Get("Content-Type") {
		t.Fatalf("%s: status %d (%s), nonexistent answers %d (%s)\n got %s\nwant %s", what, got.Status,
			got.Header.Get("Content-Type"), want.Status, want.Header.Get("Content-Type"), got.Body, want.Body)
	}
	if g, w := disBody(t, got, echoed, as), disBody(t, want, "", ""); !reflect.DeepEqual(g, w) {
		t.Fatalf("%s: body differs from the nonexistent answer\n got %s\nwant %s", what, got.Body, want.Body)
	}
}

func disReadMatrix(t *testing.T, f *disFix) {
	f = f.at(t)
	missingID := uuid.NewString()
	type target struct{ name, ref string }
	taskRefs := []target{{"visible", f.ref("pub")}, {"unseen-private", f.ref("sec")}, {"trashed", f.ref("trashed")},
		{"in a trashed project", f.ref("in gone")}}
	taskIDs := []target{{"visible", f.id("pub")}, {"unseen-private", f.id("sec")}, {"trashed", f.id("trashed")},
		{"in a trashed project", f.id("in gone")}, {"in an unreachable workspace", f.id("far")}}
	pid := func(k string) string { return f.project[k]["id"].(string) }
	projectKeys := []target{{"visible", "pub"}, {"unseen-private", "sec"}, {"trashed", "gone"}}
	projectIDs := []target{{"visible", pid("pub")}, {"unseen-private", pid("sec")}, {"trashed", pid("gone")},
		{"in an unreachable workspace", pid("far")}}
	families := []struct {
		base    string
		routes  []string
		forms   [][]target
		missing []string
	}{
		{"/v1/tasks/", []string{"", "/links", "/events", "/verifications", "/comments", "/backlinks", "/governing", "/proposed-links", "/tree"}, [][]target{taskRefs, taskIDs}, []string{"9999", missingID}},
		{"/v1/projects/", []string{"", "/members", "/settings", "/events", "/comments"}, [][]target{projectKeys, projectIDs}, []string{"nope", missingID}},
	}
	for caller, tok := range f.callers {
		t.Run(caller, func(t *testing.T) {
			e := f.e.sub(t)
			for _, fam := range families {
				for _, route := range fam.routes {
					for i, form := range fam.forms {
						missing := e.Do(http.MethodGet, fam.base+fam.missing[i]+route, tok, nil)
						webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
						for _, tg := range form {
							path := fam.base + tg.ref + route
							got := e.Do(http.MethodGet, path, tok, nil)
							if tg.name == "visible" {
								if got.Status != http.StatusOK {
									t.Fatalf("GET %s: %d\n%s", path, got.Status, got.Body)
								}
								continue
							}
							disSame(t, "GET "+path+" ("+tg.name+")", got, missing, "", "")
						}
					}
				}
			}
		})
	}
	t.Run("alice sees what the callers do not", func(t *testing.T) {
		e := f.e.sub(t)
		e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("sec"), f.alice, nil)
		e.OK(http.StatusOK, http.MethodGet, "/v1/projects/sec/members", f.alice, nil)
		if ls := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub")+"/links", f.alice, nil)); len(ls) != 1 {
			t.Fatalf("alice sees %d links on the pub task, want 1", len(ls))
		}
	})
}

func disListings(t *testing.T, f *disFix) {
	f = f.at(t)
	hidden := []string{f.id("sec"), f.id("trashed"), f.id("in gone"), f.id("far")}
	full := f.e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub"), f.alice, nil)
	if full["blocked"] != true {
		t.Fatalf("alice sees the pub task blocked: %v", full["blocked"])
	}
	for caller, tok := range f.callers {
		t.Run(caller, func(t *testing.T) {
			e := f.e.sub(t)
			for _, params := range []string{"include_total=true&include_completed=true&include=links&limit=500",
				"include_total=true&include=links&limit=1", "q=task&include_total=true&include=links", "deleted=true&include_total=true",
				"status_category=todo&include_total=true&include=links"} {
				got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?"+params, tok, nil)
				items := lstItems(got)
				for _, it := range items {
					if slices.Contains(hidden, it["id"].(string)) && !(strings.HasPrefix(params, "deleted") && it["id"] == f.id("trashed")) {
						t.Fatalf("?%s lists %v", params, it["title"])
					}
				}
				if ls, ok := got["links"].([]any); ok && len(ls) != 0 {
					t.Fatalf("?%s reports links %v", params, ls)
				}
			}
			all := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include_total=true&include_completed=true&limit=500", tok, nil)
			if n := lstNum(lstPage(all)["total"]); n != int64(len(lstItems(all))) || n != 1 {
				t.Fatalf("total %d over %d items; the caller sees only the pub task", n, len(lstItems(all)))
			}
			if n := lstNum(lstPage(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include_total=true&limit=1&q=sec", tok, nil))["total"]); n != 0 {
				t.Fatalf("q=sec counts %d", n)
			}
			var inGroups int64
			groups := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?group_by=status_category&include_total=true", tok, nil)["groups"].([]any)
			for _, g := range groups {
				inGroups += lstNum(lstPage(g.(map[string]any))["total"])
			}
			if inGroups != 1 {
				t.Fatalf("groups count %d tasks, want 1", inGroups)
			}
			for _, deleted := range []string{"false", "true"} {
				for _, p := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/projects?deleted="+deleted, tok, nil)) {
					if p["key"] == "sec" || p["key"] == "far" || (deleted == "false" && p["key"] == "gone") {
						t.Fatalf("GET /v1/projects?deleted=%s lists %v", deleted, p["key"])
					}
				}
			}
			pub := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub"), tok, nil)
			if pub["blocked"] != false {
				t.Fatal("the pub task reads as blocked by a task the caller cannot see")
			}
			// The blocked penalty of priority_score must not leak either.
			if d := pub["priority_score"].(float64) - full["priority_score"].(float64); math.Abs(d-5) > 0.05 {
				t.Fatalf("priority_score %v, alice's %v: the unseen blocker still counts", pub["priority_score"], full["priority_score"])
			}
			listed := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?ready=true", tok, nil))
			if len(listed) != 1 || listed[0]["id"] != f.id("pub") || listed[0]["blocked"] != false {
				t.Fatalf("ready lists %v; the unseen blocker does not count", listed)
			}
			if ls := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub")+"/links", tok, nil)); len(ls) != 0 {
				t.Fatalf("the pub task's links show %v", ls)
			}
			// Nor does the pub task's history name the unseen far end.
			for _, params := range []string{"", "?order=seq", "?limit=1"} {
				for _, ev := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub")+"/events"+params, tok, nil)) {
					if ev["subject_type"] == "link" {
						t.Fatalf("the pub task's history shows %v", ev)
					}
				}
			}
		})
	}
	t.Run("alice's history of the pub task has the link", func(t *testing.T) {
		evs := lstItems(f.e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub")+"/events", f.alice, nil))
		if !slices.ContainsFunc(evs, func(ev map[string]any) bool { return ev["subject_type"] == "link" }) {
			t.Fatalf("no link event in %v", evs)
		}
	})
	t.Run("alice's own listing still has the link", func(t *testing.T) {
		got := f.e.sub(t).OK(http.StatusOK, http.MethodGet, "/v1/tasks?include=links&limit=500", f.alice, nil)
		if ls, _ := got["links"].([]any); len(ls) != 1 {
			t.Fatalf("links %v", got["links"])
		}
	})
}

func disFilterReferences(t *testing.T, f *disFix) {
	f = f.at(t)
	for caller, tok := range f.callers {
		t.Run(caller, func(t *testing.T) {
			e := f.e.sub(t)
			for _, c := range []struct{ param, unseen, missing string }{
				{"project", "sec", "nope"}, {"project", "gone", "nope"}, {"project", f.project["sec"]["id"].(string), uuid.NewString()},
				{"parent", f.ref("sec"), "9999"}, {"parent", f.id("sec"), uuid.NewString()}, {"parent", f.ref("trashed"), "9999"},
			} {
				missing := e.Do(http.MethodGet, "/v1/tasks?"+c.param+"="+c.missing, tok, nil)
				webtest.AssertProblem(t, missing, http.StatusUnprocessableEntity, "validation")
				got := e.Do(http.MethodGet, "/v1/tasks?"+c.param+"="+c.unseen, tok, nil)
				disSame(t, c.param+"="+c.unseen, got, missing, c.unseen, c.missing)
			}
		})
	}
}

func disWrites(t *testing.T, f *disFix) {
	f = f.at(t)
	missingID := uuid.NewString()
	pub := "/v1/tasks/" + f.ref("pub")
	type write struct {
		method, path string
		body         func(ref any) any // the body naming ref
		refs         [2]any            // the unseen reference and a nonexistent one
	}
	byRef := [2]any{lstNum(f.task["sec"]["ref"]), 9999}
	byID := [2]any{f.id("sec"), missingID}
	byKey := [2]any{"sec", "nope"}
	writes := []write{
		{http.MethodPost, pub + "/links", func(r any) any { return map[string]any{"link_type": "relates_to", "target": r} }, byRef},
		{http.MethodPost, pub + "/links", func(r any) any { return map[string]any{"link_type": "relates_to", "target": r} }, byID},
		{http.MethodPatch, pub, func(r any) any { return map[string]any{"parent": r} }, byRef},
		{http.MethodPatch, pub, func(r any) any { return map[string]any{"parent": r} }, byID},
		{http.MethodPost, pub + "/move", func(r any) any { return map[string]any{"parent": r} }, byRef},
		{http.MethodPost, "/v1/tasks", func(r any) any { return map[string]any{"title": "x", "parent": r} }, byRef},
		{http.MethodPost, "/v1/tasks", func(r any) any { return map[string]any{"title": "x", "project": r} }, byKey},
		{http.MethodPatch, pub, func(r any) any { return map[string]any{"project": r} }, byKey},
		{http.MethodPost, pub + "/move", func(r any) any { return map[string]any{"project": r} }, byKey},
		{http.MethodPost, "/v1/projects", func(r any) any { return map[string]any{"key": "kid", "title": "Kid", "parent": r} }, byKey},
		{http.MethodPost, "/v1/tokens", func(r any) any { return map[string]any{"project_scope": []any{r}} }, byKey},
	}
	// Writes addressed to the unseen task or project itself.
	onItself := []struct{ method, route string }{
		{http.MethodPatch, ""}, {http.MethodDelete, ""}, {http.MethodPost, "/claim"}, {http.MethodPost, "/release"},
		{http.MethodPost, "/complete"}, {http.MethodPost, "/restore"}, {http.MethodPost, "/purge"}, {http.MethodPost, "/move"}, {http.MethodPost, "/verifications"},
		{http.MethodPost, "/links"}, {http.MethodDelete, "/links/" + f.linkID},
	}
	itselfBody := map[string]any{"": map[string]any{"title": "x"}, "/move": map[string]any{"parent": nil},
		"/verifications": map[string]any{"passed": true}, "/links": map[string]any{"link_type": "relates_to", "target": lstNum(f.task["pub"]["ref"])}}
	onProject := []struct{ method, route string }{
		{http.MethodPatch, ""}, {http.MethodDelete, ""}, {http.MethodPost, "/move"}, {http.MethodPost, "/restore"},
		{http.MethodPost, "/members"}, {http.MethodDelete, "/members/alice"}, {http.MethodPut, "/roles/bob"}, {http.MethodDelete, "/roles/alice"},
	}
	projectBody := map[string]any{"": map[string]any{"title": "x"}, "/move": map[string]any{"parent": nil},
		"/members": map[string]any{"username": "bob"}, "/roles/bob": map[string]any{"role": "viewer"}}
	for caller, tok := range f.callers {
		t.Run(caller, func(t *testing.T) {
			e := f.e.sub(t)
			for _, w := range writes {
				if w.path == "/v1/tokens" && caller == "narrowed token" {
					// alice's account sees sec; only her credential is narrowed away
					// from it, and asking for more than the issuer holds has its own
					// refusal in the spec.
					e.Problem(http.StatusForbidden, "token_projects_wider", w.method, w.path, tok, w.body(w.refs[0]))
					continue
				}
				unseen, absent := lstStr(w.refs[0]), lstStr(w.refs[1])
				missing := e.Do(w.method, w.path, tok, w.body(w.refs[1]))
				if missing.Status < 400 {
					t.Fatalf("%s %s naming %s: %d", w.method, w.path, absent, missing.Status)
				}
				disSame(t, w.method+" "+w.path+" naming the unseen "+unseen, e.Do(w.method, w.path, tok, w.body(w.refs[0])), missing, unseen, absent)
			}
			for _, form := range [][2]string{{f.ref("sec"), "9999"}, {f.id("sec"), missingID}} {
				for _, w := range onItself {
					body := itselfBody[w.route]
					missing := e.Do(w.method, "/v1/tasks/"+form[1]+w.route, tok, body)
					webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
					disSame(t, w.method+" the unseen task"+w.route, e.Do(w.method, "/v1/tasks/"+form[0]+w.route, tok, body), missing, "", "")
				}
			}
			for _, form := range [][2]string{{"sec", "nope"}, {f.project["sec"]["id"].(string), missingID}} {
				for _, w := range onProject {
					body := projectBody[w.route]
					missing := e.Do(w.method, "/v1/projects/"+form[1]+w.route, tok, body)
					webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
					disSame(t, w.method+" the unseen project"+w.route, e.Do(w.method, "/v1/projects/"+form[0]+w.route, tok, body), missing, "", "")
				}
			}
			// The link whose far end is unseen cannot be removed from the seen end either.
			missing := e.Do(http.MethodDelete, "/v1/tasks/"+f.ref("pub")+"/links/"+missingID, tok, nil)
			webtest.AssertProblem(t, missing, http.StatusNotFound, "not_found")
			disSame(t, "DELETE the hidden link", e.Do(http.MethodDelete, "/v1/tasks/"+f.ref("pub")+"/links/"+f.linkID, tok, nil), missing, "", "")
		})
	}
	t.Run("nothing changed", func(t *testing.T) {
		e := f.e.sub(t)
		sec := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("sec"), f.alice, nil)
		if sec["title"] != "sec task" || lstNum(sec["version"]) != 1 || sec["claimed_by"] != nil {
			t.Fatalf("the sec task changed: %v", sec)
		}
		if ls := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("pub")+"/links", f.alice, nil)); len(ls) != 1 {
			t.Fatalf("alice sees %d links on the pub task, want 1", len(ls))
		}
		if p := e.OK(http.StatusOK, http.MethodGet, "/v1/projects/sec", f.alice, nil); lstNum(p["version"]) != 1 {
			t.Fatalf("the sec project changed: %v", p)
		}
	})
}

func lstStr(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return lstItoa(x)
	case int:
		return lstItoa(int64(x))
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestScopeSharedAcrossRequestsKeepsNarrowing: read-only requests share the
// project trees resolved at one scope revision, so the same account behind
// a full and a narrowed credential, asking in turns, must each keep its own
// sight, whichever asked first.
func TestScopeSharedAcrossRequestsKeepsNarrowing(t *testing.T) {
	t.Parallel()
	f := newDisFix(t)
	narrowed := f.callers["narrowed token"]
	refs := func(token string) []string {
		var out []string
		for _, it := range f.e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", token, nil)["items"].([]any) {
			out = append(out, it.(map[string]any)["title"].(string))
		}
		slices.Sort(out)
		return out
	}
	for range 2 {
		for _, c := range []struct {
			token string
			want  []string
		}{{narrowed, []string{"pub task"}}, {f.alice, []string{"pub task", "sec task"}}, {narrowed, []string{"pub task"}}} {
			if got := refs(c.token); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		}
		f.e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+f.ref("sec"), f.alice, nil)
		f.e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/"+f.ref("sec"), narrowed, nil)
	}
}
