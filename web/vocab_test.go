package web_test

import (
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// prjStatuses lists one entity type's statuses and checks the listing's
// invariants: unpaged, positions 0..n-1 in order, exactly one default.
func (e *env) prjStatuses(entity string) []map[string]any {
	e.T.Helper()
	m := e.OK(http.StatusOK, http.MethodGet, "/v1/statuses?entity_type="+entity, e.Admin, nil)
	items := prjItems(e.T, m)
	if m["page"].(map[string]any)["has_more"] != false {
		e.T.Fatalf("statuses are unpaged: %v", m["page"])
	}
	defaults := 0
	for i, st := range items {
		if st["position"] != float64(i) || st["entity_type"] != entity {
			e.T.Fatalf("status %d of %s: %v", i, entity, st)
		}
		if st["is_default"] == true {
			defaults++
		}
	}
	if defaults != 1 {
		e.T.Fatalf("%s has %d defaults: %v", entity, defaults, items)
	}
	return items
}

// prjStatusID finds a status id by key.
func prjStatusID(t *testing.T, items []map[string]any, key string) string {
	t.Helper()
	for _, st := range items {
		if st["key"] == key {
			return st["id"].(string)
		}
	}
	t.Fatalf("no status %q in %v", key, prjStrings(items, "key"))
	return ""
}

// prjDefault is the key of the default status.
func prjDefault(items []map[string]any) string {
	for _, st := range items {
		if st["is_default"] == true {
			return st["key"].(string)
		}
	}
	return ""
}

func TestStatusList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, c := range []struct {
		entity, def string
		keys        []string
	}{
		{"task", "todo", []string{"todo", "in_progress", "blocked", "done", "cancelled"}},
		{"project", "active", []string{"active", "planned", "on_hold", "completed", "cancelled"}},
		{"document", "current", []string{"current", "draft", "archived", "superseded"}},
	} {
		items := e.prjStatuses(c.entity)
		if got := prjStrings(items, "key"); !reflect.DeepEqual(got, c.keys) {
			t.Errorf("%s statuses %v, want %v", c.entity, got, c.keys)
		}
		if got := prjDefault(items); got != c.def {
			t.Errorf("%s default %q, want %q", c.entity, got, c.def)
		}
		for _, st := range items {
			if st["label"] == "" || st["category"] == "" || st["id"] == "" {
				t.Errorf("status %v", st)
			}
		}
	}
	all := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/statuses", e.Admin, nil))
	if len(all) != 14 {
		t.Fatalf("all statuses: %d", len(all))
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/statuses?entity_type=comment", e.Admin, nil)
}

func TestStatusCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	st := e.OK(http.StatusCreated, http.MethodPost, "/v1/statuses", e.Admin,
		map[string]any{"entity_type": "task", "key": "review", "label": "In review", "category": "in_progress", "position": 2})
	if st["key"] != "review" || st["position"] != 2.0 || st["is_default"] != false || st["category"] != "in_progress" {
		t.Fatalf("created %v", st)
	}
	want := []string{"todo", "in_progress", "review", "blocked", "done", "cancelled"}
	if got := prjStrings(e.prjStatuses("task"), "key"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after insert at 2: %v, want %v", got, want)
	}
	last := e.OK(http.StatusCreated, http.MethodPost, "/v1/statuses", e.Admin,
		map[string]any{"entity_type": "task", "key": "wontfix", "label": "Won't fix", "category": "cancelled"})
	if last["position"] != 6.0 {
		t.Fatalf("without a position it goes last: %v", last)
	}
	first := e.OK(http.StatusCreated, http.MethodPost, "/v1/statuses", e.Admin,
		map[string]any{"entity_type": "task", "key": "idea", "label": "Idea", "category": "todo", "position": 0, "is_default": true})
	if first["position"] != 0.0 || first["is_default"] != true {
		t.Fatalf("created %v", first)
	}
	items := e.prjStatuses("task")
	if prjDefault(items) != "idea" || items[1]["key"] != "todo" {
		t.Fatalf("after a new default at 0: %v", prjStrings(items, "key"))
	}
	if task := e.prjTask(e.Admin, "fresh", ""); task["status"] != "idea" || task["status_is_default"] != true {
		t.Fatalf("a new task lands in the new default: %v", task["status"])
	}
	// Another entity type's list is untouched.
	if got := prjDefault(e.prjStatuses("project")); got != "active" {
		t.Fatalf("project default %q", got)
	}

	// The domain's refusals are app's TestStatuses; one each here for the wire.
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/statuses", e.Admin,
		map[string]any{"entity_type": "task", "key": "Bad Key", "label": "L", "category": "todo"})
	assertLoc(t, p, "body.key")
	e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/statuses", e.Admin,
		map[string]any{"entity_type": "task", "key": "review", "label": "Again", "category": "todo"})
}

func TestStatusUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	items := e.prjStatuses("task")
	blocked := prjStatusID(t, items, "blocked")
	path := "/v1/statuses/" + blocked

	st := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"label": "Stuck"})
	if st["label"] != "Stuck" || st["key"] != "blocked" || st["category"] != "todo" || st["position"] != 2.0 {
		t.Fatalf("rename: %v", st)
	}
	st = e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"key": "stuck"})
	if st["key"] != "stuck" {
		t.Fatalf("key rename: %v", st)
	}
	st = e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"position": 0})
	if st["position"] != 0.0 {
		t.Fatalf("reposition: %v", st)
	}
	want := []string{"stuck", "todo", "in_progress", "done", "cancelled"}
	if got := prjStrings(e.prjStatuses("task"), "key"); !reflect.DeepEqual(got, want) {
		t.Fatalf("after moving to 0: %v, want %v", got, want)
	}

	// The domain's refusals are app's TestStatuses; one each here for the wire.
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, path, e.Admin, map[string]any{"category": "done"})
	assertLoc(t, p, "body.category")
	e.Problem(http.StatusConflict, "conflict", http.MethodPatch, path, e.Admin, map[string]any{"key": "done"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/statuses/00000000-0000-4000-8000-000000000000", e.Admin, map[string]any{"label": "X"})

	inProgress := prjStatusID(t, items, "in_progress")
	st = e.OK(http.StatusOK, http.MethodPatch, "/v1/statuses/"+inProgress, e.Admin, map[string]any{"is_default": true})
	if st["is_default"] != true {
		t.Fatalf("make default: %v", st)
	}
	if got := prjDefault(e.prjStatuses("task")); got != "in_progress" {
		t.Fatalf("default is %q", got)
	}
}

func TestStatusDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mem := e.Member("mem", "member")
	items := e.prjStatuses("task")
	blocked, todo, cancelled := prjStatusID(t, items, "blocked"), prjStatusID(t, items, "todo"), prjStatusID(t, items, "cancelled")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "stuck", "status": "blocked"})

	// The domain's refusals are app's TestStatuses and TestStatusEntities;
	// one of each code here for the wire.
	e.Problem(http.StatusConflict, "status_in_use", http.MethodDelete, "/v1/statuses/"+blocked, e.Admin, nil)
	e.Problem(http.StatusConflict, "status_is_default", http.MethodDelete, "/v1/statuses/"+todo, e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/statuses?entity_type=task", mem, nil)
	e.Problem(http.StatusForbidden, "forbidden", http.MethodDelete, "/v1/statuses/"+cancelled, mem, nil)

	r := e.Do(http.MethodDelete, "/v1/statuses/"+cancelled, e.Admin, nil)
	if r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("DELETE: %d %s", r.Status, r.Body)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/statuses/"+cancelled, e.Admin, nil)
	if got := prjStrings(e.prjStatuses("task"), "key"); !reflect.DeepEqual(got, []string{"todo", "in_progress", "blocked", "done"}) {
		t.Fatalf("after deleting cancelled: %v", got)
	}
}

func TestLinkTypes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mem := e.Member("mem", "member")
	byKey := func() map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, lt := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/link-types", e.Admin, nil)) {
			out[lt["key"].(string)] = lt
		}
		return out
	}
	lts := byKey()
	for _, key := range []string{"blocks", "precedes", "relates_to", "duplicates", "documents", "derives_from", "supersedes"} {
		if lts[key] == nil {
			t.Fatalf("no default link type %q in %v", key, lts)
		}
	}
	if rt := lts["relates_to"]; rt["is_symmetric"] != true || rt["title"] != rt["inverse_title"] {
		t.Fatalf("relates_to %v", rt)
	}

	// The domain's refusals are app's TestLinkTypes; one of each code here for the wire.
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/link-types", e.Admin,
		map[string]any{"key": "mirrors", "title": "mirrors", "inverse_title": "is mirrored by", "is_symmetric": true, "category": "association"})
	assertLoc(t, p, "body.inverse_title")
	sym := e.OK(http.StatusCreated, http.MethodPost, "/v1/link-types", e.Admin,
		map[string]any{"key": "mirrors", "title": "mirrors", "inverse_title": "mirrors", "is_symmetric": true, "category": "association"})
	if sym["is_symmetric"] != true || sym["id"] == nil {
		t.Fatalf("created %v", sym)
	}
	tests := e.OK(http.StatusCreated, http.MethodPost, "/v1/link-types", e.Admin,
		map[string]any{"key": "tests", "title": "tests", "inverse_title": "is tested by", "category": "provenance"})
	if tests["is_symmetric"] != false || tests["inverse_title"] != "is tested by" {
		t.Fatalf("created %v", tests)
	}
	e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/link-types", e.Admin,
		map[string]any{"key": "tests", "title": "t", "inverse_title": "i", "category": "association"})
	e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/link-types", mem,
		map[string]any{"key": "mine", "title": "t", "inverse_title": "i", "category": "association"})

	testsPath := "/v1/link-types/" + tests["id"].(string)
	lt := e.OK(http.StatusOK, http.MethodPatch, testsPath, e.Admin, map[string]any{"title": "verifies", "inverse_title": "is verified by"})
	if lt["title"] != "verifies" || lt["inverse_title"] != "is verified by" || lt["key"] != "tests" {
		t.Fatalf("reworded %v", lt)
	}
	if lt = e.OK(http.StatusOK, http.MethodPatch, testsPath, e.Admin, map[string]any{"key": "verifies"}); lt["key"] != "verifies" {
		t.Fatalf("renamed %v", lt)
	}
	if lt = e.OK(http.StatusOK, http.MethodPatch, "/v1/link-types/"+sym["id"].(string), e.Admin, map[string]any{"title": "reflects"}); lt["inverse_title"] != "reflects" {
		t.Fatalf("a symmetric type's two ends move together: %v", lt)
	}
	if got := byKey()["verifies"]; got["title"] != "verifies" {
		t.Fatalf("listing after rewording: %v", got)
	}

	a := e.prjTask(e.Admin, "a", "")
	b := e.prjTask(e.Admin, "b", "")
	link := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+prjRef(a)+"/links", e.Admin, map[string]any{"link_type": "verifies", "target": b["ref"]})
	if link["label"] != "verifies" {
		t.Fatalf("link %v", link)
	}
	e.Problem(http.StatusConflict, "link_type_in_use", http.MethodDelete, testsPath, e.Admin, nil)
	e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tasks/"+prjRef(a)+"/links/"+link["id"].(string), e.Admin, nil)
	e.OK(http.StatusNoContent, http.MethodDelete, testsPath, e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, testsPath, e.Admin, nil)
	if byKey()["verifies"] != nil {
		t.Fatal("deleted link type still listed")
	}
}

func TestTags(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tagsOf := func(task map[string]any) []string {
		got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+prjRef(task), e.Admin, nil)
		out := []string{}
		for _, tg := range got["tags"].([]any) {
			out = append(out, tg.(string))
		}
		sort.Strings(out)
		return out
	}
	names := func() []string {
		return prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)), "name")
	}

	one := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "one", "tags": []string{"Alpha"}})
	if got := tagsOf(one); !reflect.DeepEqual(got, []string{"Alpha"}) {
		t.Fatalf("tags %v", got)
	}
	if got := names(); !reflect.DeepEqual(got, []string{"Alpha"}) {
		t.Fatalf("created by use: %v", got)
	}
	two := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "two", "tags": []string{"alpha", "#beta", "ALPHA"}})
	if got := tagsOf(two); !reflect.DeepEqual(got, []string{"Alpha", "beta"}) {
		t.Fatalf("case-insensitive reuse: %v", got)
	}
	if got := names(); !reflect.DeepEqual(got, []string{"Alpha", "beta"}) {
		t.Fatalf("tags %v", got)
	}
	filtered := prjStrings(prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=ALPHA", e.Admin, nil)), "title")
	sort.Strings(filtered)
	if !reflect.DeepEqual(filtered, []string{"one", "two"}) {
		t.Fatalf("?tag=ALPHA lists %v", filtered)
	}

	t.Run("paged by name", func(t *testing.T) {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "three", "tags": []string{"Gamma", "delta", "Epsilon"}})
		made := e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "zeta", "description": "the last one"})
		if made["name"] != "zeta" || made["meaning"] != "the last one" {
			t.Fatalf("POST /v1/tags = %v", made)
		}
		e.Problem(http.StatusConflict, "conflict", http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": "ZETA"})
		want := []string{"Alpha", "beta", "delta", "Epsilon", "Gamma", "zeta"}
		var got []string
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > 5 {
				t.Fatal("paging does not end")
			}
			q := url.Values{"limit": {"4"}, "include_total": {"true"}}
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			m := e.OK(http.StatusOK, http.MethodGet, "/v1/tags?"+q.Encode(), e.Admin, nil)
			page := m["page"].(map[string]any)
			if page["total"] != 6.0 || page["limit"] != 4.0 {
				t.Fatalf("page %v", page)
			}
			got = append(got, prjStrings(prjItems(t, m), "name")...)
			if page["has_more"] != true {
				break
			}
			cursor = page["next_cursor"].(string)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("paged tags %v, want %v", got, want)
		}
		plain := e.OK(http.StatusOK, http.MethodGet, "/v1/tags?limit=2", e.Admin, nil)
		if page := plain["page"].(map[string]any); page["total"] != nil || page["has_more"] != true {
			t.Fatalf("total only when asked: %v", page)
		}
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tags?cursor=garbage", e.Admin, nil)
		assertLoc(t, p, "query.cursor")
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tags?limit=-1", e.Admin, nil)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tags?include_total=perhaps", e.Admin, nil)
	})

	t.Run("rename", func(t *testing.T) {
		id := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags?limit=1", e.Admin, nil))[0]["id"].(string)
		tg := e.OK(http.StatusOK, http.MethodPatch, "/v1/tags/"+id, e.Admin, map[string]any{"name": "Aleph"})
		if tg["name"] != "Aleph" {
			t.Fatalf("renamed %v", tg)
		}
		if got := tagsOf(one); !reflect.DeepEqual(got, []string{"Aleph"}) {
			t.Fatalf("task one tags %v", got)
		}
		e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tags/00000000-0000-4000-8000-000000000000", e.Admin, map[string]any{"name": "x"})
	})

	t.Run("delete removes every application", func(t *testing.T) {
		var betaID string
		for _, tg := range prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tags", e.Admin, nil)) {
			if strings.EqualFold(tg["name"].(string), "beta") {
				betaID = tg["id"].(string)
			}
		}
		e.OK(http.StatusNoContent, http.MethodDelete, "/v1/tags/"+betaID, e.Admin, nil)
		e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, "/v1/tags/"+betaID, e.Admin, nil)
		if got := tagsOf(two); !reflect.DeepEqual(got, []string{"Aleph"}) {
			t.Fatalf("task two tags %v", got)
		}
		if got := prjItems(t, e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?tag=beta", e.Admin, nil)); len(got) != 0 {
			t.Fatalf("?tag=beta lists %v", got)
		}
		for _, n := range names() {
			if strings.EqualFold(n, "beta") {
				t.Fatalf("beta still listed: %v", names())
			}
		}
	})

	t.Run("who may", func(t *testing.T) { // the domain's rules are app's TestTagRefusals
		vera := e.Member("vera", "viewer")
		e.OK(http.StatusOK, http.MethodGet, "/v1/tags?limit=1", vera, nil)
		e.Problem(http.StatusForbidden, "forbidden", http.MethodPost, "/v1/tags", vera, map[string]any{"name": "viewers"})
	})
}

// TestTagsPageBeyondASCII walks tags whose lower-case forms SQLite and Go
// disagree on: every tag is seen exactly once.
func TestTagsPageBeyondASCII(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	want := map[string]bool{}
	for _, n := range []string{"Éz", "Öa", "zeta", "éclair", "Ünder", "apple"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tags", e.Admin, map[string]any{"name": n})
		want[n] = true
	}
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > len(want) {
			t.Fatal("paging does not end")
		}
		q := url.Values{"limit": {"1"}}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		m := e.OK(http.StatusOK, http.MethodGet, "/v1/tags?"+q.Encode(), e.Admin, nil)
		for _, n := range prjStrings(prjItems(t, m), "name") {
			if seen[n] {
				t.Fatalf("%s seen twice", n)
			}
			seen[n] = true
		}
		page := m["page"].(map[string]any)
		if page["has_more"] != true {
			break
		}
		cursor = page["next_cursor"].(string)
	}
	if !reflect.DeepEqual(seen, want) {
		t.Fatalf("paging saw %v, want %v", seen, want)
	}
}
