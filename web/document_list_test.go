package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"tend/app"
)

func TestDocumentList(t *testing.T) {
	t.Parallel()
	e := newProjectsEnv(t)
	spec := e.docCreate(e.Admin, map[string]any{"title": "Spec", "project": "alpha", "type": "spec", "tags": []string{"red"}, "body": "long body here"})
	child := e.docCreate(e.Admin, map[string]any{"title": "child", "parent": spec["ref"]})
	grand := e.docCreate(e.Admin, map[string]any{"title": "Grandchild", "parent": child["ref"], "status": "draft"})
	webDoc := e.docCreate(e.Admin, map[string]any{"title": "web note", "project": "web", "status": "archived", "body": "b"})
	betaDoc := e.docCreate(e.Admin, map[string]any{"title": "Beta decision", "project": "beta", "type": "decision", "tags": []string{"Red"}})
	gone := e.docCreate(e.Admin, map[string]any{"title": "gone", "project": "beta"})
	e.OK(http.StatusOK, http.MethodDelete, docPath(gone), e.Admin, nil)
	e.CreateTask(e.Admin, map[string]any{"title": "a task is never listed here"})
	refs := func(ds ...map[string]any) []int64 {
		var out []int64
		for _, d := range ds {
			out = append(out, lstNum(d["ref"]))
		}
		return out
	}
	list := func(params string) map[string]any {
		t.Helper()
		return e.OK(http.StatusOK, http.MethodGet, "/v1/documents?"+params, e.Admin, nil)
	}

	t.Run("filters", func(t *testing.T) {
		for _, c := range []struct {
			params string
			want   []int64
		}{
			{"", refs(spec, child, grand, webDoc, betaDoc)},
			{"project=alpha", refs(spec, child, grand, webDoc)},
			{"project=web", refs(webDoc)},
			{"type=spec", refs(spec)},
			{"status=draft", refs(grand)},
			{"status_category=in_progress", refs(spec, child, betaDoc)},
			{"status_category=done", refs(webDoc)},
			{"tag=RED", refs(spec, betaDoc)},
			{"tag=never-used", nil},
			{"parent=" + lstItoa(lstNum(spec["ref"])), refs(child)},
			{"parent=" + spec["id"].(string) + "&subtree=true", refs(child, grand)},
			{"deleted=true", refs(gone)},
			{"project=beta&deleted=true", refs(gone)},
		} {
			if got := lstRefs(lstItems(list(c.params))); !reflect.DeepEqual(got, c.want) && (len(got) != 0 || len(c.want) != 0) {
				t.Errorf("?%s: %v, want %v", c.params, got, c.want)
			}
		}
	})
	t.Run("order", func(t *testing.T) {
		if got := docTitles(lstItems(list("order=title"))); !sort.SliceIsSorted(got, func(i, j int) bool { return strings.ToLower(got[i]) < strings.ToLower(got[j]) }) {
			t.Errorf("order=title: %v", got)
		}
		if got := lstRefs(lstItems(list("order=-ref"))); !slices.IsSortedFunc(got, func(a, b int64) int { return int(b - a) }) {
			t.Errorf("order=-ref: %v", got)
		}
		got := lstRefs(lstItems(list("order=-size_bytes,ref")))
		if got[0] != lstNum(spec["ref"]) || got[1] != lstNum(webDoc["ref"]) {
			t.Errorf("order=-size_bytes,ref: %v", got)
		}
		for _, bad := range []string{"order=due_at", "order=ref,ref", "order=priority_score"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?"+bad, e.Admin, nil)
		}
	})
	t.Run("shapes", func(t *testing.T) {
		ids := list("format=ids&project=web")["items"].([]any)
		if len(ids) != 1 || ids[0] != webDoc["id"] {
			t.Errorf("ids: %v", ids)
		}
		lines := list("format=compact&project=web")["items"].([]any)
		if len(lines) != 1 || !strings.Contains(lines[0].(string), "web note") {
			t.Errorf("compact: %v", lines)
		}
		got := lstItems(list("fields=ref,title,revisions&project=web"))
		if len(got) != 1 || len(got[0]) != 3 || got[0]["revisions"] != nil {
			t.Errorf("fields: %v", got)
		}
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?fields=nope", e.Admin, nil)
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?format=ids&fields=ref", e.Admin, nil)
	})
	t.Run("refusals", func(t *testing.T) {
		for _, bad := range []string{"project=nope", "type=bug", "status=todo", "status_category=nope", "parent=9999",
			"parent=" + lstItoa(lstNum(gone["ref"])), "subtree=true", "limit=0", "limit=x", "deleted=maybe", "cursor=!!!",
			"q=type:nosuch", "order=relevance"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?"+bad, e.Admin, nil)
		}
	})
	t.Run("total", func(t *testing.T) {
		pg := lstPage(list("limit=2&include_total=true"))
		if lstNum(pg["total"]) != 5 || pg["has_more"] != true || lstNum(pg["limit"]) != 2 {
			t.Errorf("page %v", pg)
		}
		if pg := lstPage(list("limit=2")); pg["total"] != nil {
			t.Errorf("total without include_total: %v", pg)
		}
	})
	t.Run("a cursor from another query is refused", func(t *testing.T) {
		cur := url.QueryEscape(lstPage(list("limit=1"))["next_cursor"].(string))
		for _, other := range []string{"order=title", "project=alpha", "tag=red", "status_category=todo", "deleted=true"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?limit=1&"+other+"&cursor="+cur, e.Admin, nil)
		}
		e.CreateTask(e.Admin, map[string]any{"title": "second task"})
		tcur := url.QueryEscape(lstPage(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?limit=1", e.Admin, nil))["next_cursor"].(string))
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/documents?limit=1&cursor="+tcur, e.Admin, nil)
	})
}

// TestDocumentCursorWalk walks every order a page at a time while
// documents are added between the pages: each document that existed when
// the walk began is seen exactly once, in order.
func TestDocumentCursorWalk(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 23 {
		e.docCreate(e.Admin, map[string]any{"title": fmt.Sprintf("Doc %02d", (i*7)%23), "body": strings.Repeat("x", i%5),
			"type": []string{"note", "spec", "finding"}[i%3]})
	}
	before := lstRefs(lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/documents?limit=500", e.Admin, nil)))
	for _, order := range []string{"ref", "-ref", "title", "-title", "type,-ref", "-size_bytes,title", "created_at", "-updated_at,type"} {
		var seen []int64
		var titles []string
		cursor := ""
		for pages := 0; ; pages++ {
			if pages > 200 {
				t.Fatalf("order=%s: the walk does not end", order)
			}
			got := e.OK(http.StatusOK, http.MethodGet, "/v1/documents?limit=4&order="+url.QueryEscape(order)+"&cursor="+url.QueryEscape(cursor), e.Admin, nil)
			seen = append(seen, lstRefs(lstItems(got))...)
			titles = append(titles, docTitles(lstItems(got))...)
			e.docCreate(e.Admin, map[string]any{"title": "Doc inserted " + order, "body": "yy"})
			pg := lstPage(got)
			if pg["has_more"] != true {
				break
			}
			cursor = pg["next_cursor"].(string)
		}
		counts := map[int64]int{}
		for _, r := range seen {
			counts[r]++
		}
		for _, r := range before {
			if counts[r] != 1 {
				t.Fatalf("order=%s: #%d seen %d times in %v", order, r, counts[r], seen)
			}
		}
		if order == "title" && !sort.StringsAreSorted(titles) {
			t.Fatalf("order=title walked out of order: %v", titles)
		}
	}
}

// TestDocumentPageQueryCountFixed: a page of documents costs the same
// number of statements at any size.
func TestDocumentPageQueryCountFixed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	admin := e.adminActor()
	var parent string
	for i := range 60 {
		in := app.DocumentCreate{Title: fmt.Sprintf("doc %d", i), Tags: []string{fmt.Sprintf("t%d", i%4)}, Parent: app.FlexRef(parent)}
		d, err := e.Svc.CreateDocument(ctx, admin, "", in)
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			parent = lstItoa(d.Ref)
		}
	}
	count := func(limit int) int64 {
		before := e.DB.QueryCount()
		e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/documents?limit=%d&include_total=true", limit), e.Admin, nil)
		return e.DB.QueryCount() - before
	}
	count(1) // the first read of a scope fills its cache
	one, five, all := count(1), count(5), count(200)
	if one != five || five != all {
		t.Fatalf("statements per page: limit 1 → %d, 5 → %d, 200 → %d", one, five, all)
	}
}

// docTitles lists the titles of items in the order given.
func docTitles(items []map[string]any) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["title"].(string))
	}
	return out
}
