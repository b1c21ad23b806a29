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
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
)

// lstRow is one task of the listing fixture as the test believes it to be.
type lstRow struct {
	title, project, typ, status, desc string
	tags                              []string
	assignee, claimedBy               string // usernames; claimedBy only while the claim holds
	imp                               *int
	due                               *time.Time
	parent                            string // title
	blockedBy                         []string
	snoozed, trashed                  bool
	ref                               int64
	id                                string
}

func (r *lstRow) category() string {
	switch r.status {
	case "in_progress":
		return app.CategoryInProgress
	case "done":
		return app.CategoryDone
	case "cancelled":
		return app.CategoryCancelled
	}
	return app.CategoryTodo
}

func (r *lstRow) open() bool {
	return r.category() != app.CategoryDone && r.category() != app.CategoryCancelled
}

// lstFix is ~30 tasks in projects a, a/b (key b) and c, made by the
// administrator ("me" below), with carol and dave as fellow members.
type lstFix struct {
	e          *env
	me         string
	carol      string
	carolID    string
	rows       []*lstRow
	by         map[string]*lstRow
	projectIDs map[string]string
	now        time.Time
	shift      *atomic.Int64 // the server clock runs this many nanoseconds off the fixed clock
}

func lstImp(n int) *int { return &n }

func newLstFix(t *testing.T) *lstFix {
	e := newEnv(t)
	f := &lstFix{e: e, me: e.Admin, by: map[string]*lstRow{}, projectIDs: map[string]string{}, shift: &atomic.Int64{}}
	// Set before the first request; afterwards only the atomic changes.
	e.DB.Now = func() time.Time { return e.Clock.Now().Add(time.Duration(f.shift.Load())) }
	f.now = e.Clock.Now()
	day := func(n int) *time.Time { d := f.now.Add(time.Duration(n) * 24 * time.Hour); return &d }
	f.carol = e.Member("carol", "member")
	dave := e.Member("dave", "member")
	f.carolID = e.OK(http.StatusOK, http.MethodGet, "/v1/me", f.carol, nil)["user"].(map[string]any)["id"].(string)
	for _, p := range []map[string]any{{"key": "a", "title": "A"}, {"key": "b", "title": "B", "parent": "a"}, {"key": "c", "title": "C"}} {
		f.projectIDs[p["key"].(string)] = e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", f.me, p)["id"].(string)
	}
	f.rows = []*lstRow{
		{title: "alpha one", project: "a", typ: "task", tags: []string{"red"}, imp: lstImp(5), due: day(1), assignee: "admin"},
		{title: "alpha two", project: "a", typ: "bug", status: "in_progress", tags: []string{"blue"}, imp: lstImp(3), due: day(3), assignee: "carol"},
		{title: "alpha three", project: "a", typ: "feature", status: "done", tags: []string{"red", "blue"}, imp: lstImp(1)},
		{title: "alpha four", project: "a", typ: "chore", status: "cancelled", imp: lstImp(2)},
		{title: "alpha blocker", project: "a", imp: lstImp(4)},
		{title: "alpha blocked", project: "a", imp: lstImp(4), blockedBy: []string{"alpha blocker"}},
		{title: "alpha done blocker", project: "a", status: "done"},
		{title: "alpha freed", project: "a", blockedBy: []string{"alpha done blocker"}},
		{title: "alpha hand blocked", project: "a", status: "blocked", imp: lstImp(2)},
		{title: "alpha snoozed", project: "a", snoozed: true, imp: lstImp(3)},
		{title: "alpha held by carol", project: "a", claimedBy: "carol"},
		{title: "alpha held by me", project: "a", assignee: "carol", claimedBy: "admin"},
		{title: "alpha expired claim", project: "a", assignee: "dave"},
		{title: "alpha parent", project: "a", imp: lstImp(1), due: day(7)},
		{title: "alpha child", parent: "alpha parent", project: "a"},
		{title: "alpha grandchild", parent: "alpha child", project: "a", due: day(-1)},
		{title: "beta one", project: "b", tags: []string{"red"}, imp: lstImp(3), due: day(2), assignee: "dave"},
		{title: "beta two", project: "b", typ: "question", status: "in_progress", imp: lstImp(5)},
		{title: "beta done", project: "b", status: "done", due: day(1)},
		{title: "beta words", project: "b", desc: "a needle in the haystack"},
		{title: "beta past due", project: "b", due: day(-2), imp: lstImp(2)},
		{title: "gamma one", project: "c", tags: []string{"green"}, imp: lstImp(2), due: day(10)},
		{title: "gamma two", project: "c", typ: "bug", assignee: "carol", imp: lstImp(5), due: day(1)},
		{title: "gamma three", project: "c", status: "in_progress", imp: lstImp(1)},
		{title: "gamma done", project: "c", status: "done", imp: lstImp(5)},
		{title: "gamma cancelled", project: "c", status: "cancelled"},
		{title: "gamma needle", project: "c", due: day(5)},
		{title: "gamma red", project: "c", tags: []string{"Red"}, blockedBy: []string{"gamma trashed"}},
		{title: "gamma trashed", project: "c", imp: lstImp(4)},
		{title: "gamma relates", project: "c", imp: lstImp(3)},
		{title: "gamma urgent", project: "c", typ: "event", imp: lstImp(4), due: day(4)},
	}
	for _, r := range f.rows {
		f.create(r)
	}
	for _, r := range f.rows {
		for _, b := range r.blockedBy {
			// Stated from the blocked task: its blocker blocks it.
			e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+lstItoa(r.ref)+"/links", f.me,
				map[string]any{"link_type": "blocks", "target": f.by[b].ref, "direction": "incoming"})
		}
	}
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+lstItoa(f.by["gamma relates"].ref)+"/links", f.me,
		map[string]any{"link_type": "relates_to", "target": f.by["gamma one"].ref})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+lstItoa(f.by["alpha snoozed"].ref), f.me,
		map[string]any{"snoozed_until": f.now.Add(72 * time.Hour)})
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+lstItoa(f.by["alpha held by carol"].ref)+"/claim", f.carol, nil)
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+lstItoa(f.by["alpha held by me"].ref)+"/claim", f.me, nil)
	// dave's claim was taken three hours ago for one hour: it has run out.
	f.shift.Store(int64(-3 * time.Hour))
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+lstItoa(f.by["alpha expired claim"].ref)+"/claim?minutes=60", dave, nil)
	f.shift.Store(0)
	e.OK(http.StatusOK, http.MethodDelete, "/v1/tasks/"+lstItoa(f.by["gamma trashed"].ref), f.me, nil)
	f.by["gamma trashed"].trashed = true
	return f
}

func (f *lstFix) create(r *lstRow) {
	body := map[string]any{"title": r.title, "project": r.project}
	if r.typ != "" {
		body["type"] = r.typ
	} else {
		r.typ = "task"
	}
	if r.status != "" {
		body["status"] = r.status
	} else {
		r.status = "todo"
	}
	for k, v := range map[string]any{"description": r.desc, "assignee": r.assignee} {
		if v != "" {
			body[k] = v
		}
	}
	if r.tags != nil {
		body["tags"] = r.tags
	}
	if r.imp != nil {
		body["importance"] = *r.imp
	}
	if r.due != nil {
		body["due_at"] = r.due
	}
	if r.parent != "" {
		body["parent"] = f.by[r.parent].ref
		delete(body, "project")
	}
	got := f.e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", f.me, body)
	r.ref, r.id = lstNum(got["ref"]), got["id"].(string)
	f.by[r.title] = r
}

// TestTaskList runs every listing check over one fixture; none of them writes.
func TestTaskList(t *testing.T) {
	t.Parallel()
	f := newLstFix(t)
	t.Run("filters", func(t *testing.T) { lstFilters(t, f) })
	t.Run("refusals", func(t *testing.T) { lstRefusals(t, f) })
	t.Run("order", func(t *testing.T) { lstOrder(t, f) })
	t.Run("paging", func(t *testing.T) { lstPaging(t, f) })
	t.Run("shapes", func(t *testing.T) { lstShapes(t, f) })
	t.Run("groups", func(t *testing.T) { lstGroups(t, f) })
	t.Run("include links", func(t *testing.T) { lstIncludeLinks(t, f) })
}

// at is f answering to t.
func (f *lstFix) at(t *testing.T) *lstFix {
	c := *f
	c.e = f.e.sub(t)
	return &c
}

// blocked reports whether unfinished live work blocks r.
func (f *lstFix) blocked(r *lstRow) bool {
	for _, b := range r.blockedBy {
		if x := f.by[b]; x.open() && !x.trashed {
			return true
		}
	}
	return false
}

func (f *lstFix) ready(r *lstRow) bool {
	return !r.trashed && r.open() && !r.snoozed && !f.blocked(r) && (r.claimedBy == "" || r.claimedBy == "admin")
}

func (f *lstFix) toActOn(r *lstRow) bool {
	return r.assignee == "" || r.assignee == "admin" || r.claimedBy == "admin"
}

func (f *lstFix) under(r *lstRow, parent string) bool {
	for p := r.parent; p != ""; p = f.by[p].parent {
		if p == parent {
			return true
		}
	}
	return false
}

// where lists the titles of the rows keep accepts, sorted.
func (f *lstFix) where(keep func(r *lstRow) bool) []string {
	out := []string{}
	for _, r := range f.rows {
		if keep(r) {
			out = append(out, r.title)
		}
	}
	sort.Strings(out)
	return out
}

// list answers GET /v1/tasks with params, as the administrator.
func (f *lstFix) list(e *env, params string) map[string]any {
	e.T.Helper()
	return e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?"+params, f.me, nil)
}

func lstTitles(items []map[string]any) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it["title"].(string))
	}
	sort.Strings(out)
	return out
}

func lstQ(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	v.Set("limit", "500")
	return v.Encode()
}

func lstFilters(t *testing.T, f *lstFix) {
	f = f.at(t)
	live := func(r *lstRow) bool { return !r.trashed }
	open := func(r *lstRow) bool { return !r.trashed && r.open() }
	and := func(ps ...func(r *lstRow) bool) func(r *lstRow) bool {
		return func(r *lstRow) bool {
			for _, p := range ps {
				if !p(r) {
					return false
				}
			}
			return true
		}
	}
	hasTag := func(tag string) func(r *lstRow) bool {
		return func(r *lstRow) bool {
			return slices.ContainsFunc(r.tags, func(s string) bool { return strings.EqualFold(s, tag) })
		}
	}
	dueBefore := func(at time.Time) func(r *lstRow) bool {
		return func(r *lstRow) bool { return r.due != nil && r.due.Before(at) }
	}
	dueAfter := func(at time.Time) func(r *lstRow) bool {
		return func(r *lstRow) bool { return r.due != nil && r.due.After(at) }
	}
	twoDays := f.now.Add(48 * time.Hour)
	fiveDays := time.Date(f.now.Year(), f.now.Month(), f.now.Day()+5, 0, 0, 0, 0, time.UTC)
	parent := f.by["alpha parent"]
	cases := []struct {
		name   string
		params string
		keep   func(r *lstRow) bool
	}{
		{"default excludes completed and trashed", lstQ(), open},
		{"include_completed", lstQ("include_completed", "true"), live},
		{"include_completed false", lstQ("include_completed", "false"), open},
		{"project a reaches a/b", lstQ("project", "a"), and(open, func(r *lstRow) bool { return r.project == "a" || r.project == "b" })},
		{"subproject alone", lstQ("project", "b"), and(open, func(r *lstRow) bool { return r.project == "b" })},
		{"project by id", lstQ("project", f.projectIDs["c"]), and(open, func(r *lstRow) bool { return r.project == "c" })},
		{"status", lstQ("status", "in_progress"), and(open, func(r *lstRow) bool { return r.status == "in_progress" })},
		{"hand-set blocked status", lstQ("status", "blocked"), and(open, func(r *lstRow) bool { return r.status == "blocked" })},
		{"finished status with include_completed", lstQ("status", "done", "include_completed", "true"),
			and(live, func(r *lstRow) bool { return r.status == "done" })},
		{"tag", lstQ("tag", "red"), and(open, hasTag("red"))},
		{"tag in capitals", lstQ("tag", "RED"), and(open, hasTag("red"))},
		{"tag with hash", lstQ("tag", "#blue", "include_completed", "true"), and(live, hasTag("blue"))},
		{"unknown tag matches nothing", lstQ("tag", "mauve"), func(*lstRow) bool { return false }},
		{"status_category todo", lstQ("status_category", "todo"), and(open, func(r *lstRow) bool { return r.category() == app.CategoryTodo })},
		{"status_category done reaches finished work", lstQ("status_category", "done"),
			and(live, func(r *lstRow) bool { return r.category() == app.CategoryDone })},
		{"status_category cancelled", lstQ("status_category", "cancelled"),
			and(live, func(r *lstRow) bool { return r.category() == app.CategoryCancelled })},
		{"type", lstQ("type", "bug", "include_completed", "true"), and(live, func(r *lstRow) bool { return r.typ == "bug" })},
		{"assignee me", lstQ("assignee", "me"), and(open, func(r *lstRow) bool { return r.assignee == "admin" })},
		{"assignee by username", lstQ("assignee", "carol"), and(open, func(r *lstRow) bool { return r.assignee == "carol" })},
		{"assignee by id", lstQ("assignee", f.carolID), and(open, func(r *lstRow) bool { return r.assignee == "carol" })},
		{"claimed_by username", lstQ("claimed_by", "carol"), and(open, func(r *lstRow) bool { return r.claimedBy == "carol" })},
		{"claimed_by me", lstQ("claimed_by", "me"), and(open, func(r *lstRow) bool { return r.claimedBy == "admin" })},
		{"expired claims are left out", lstQ("claimed_by", "dave"), func(*lstRow) bool { return false }},
		{"parent", lstQ("parent", lstItoa(parent.ref)), and(open, func(r *lstRow) bool { return r.parent == parent.title })},
		{"parent with hash", lstQ("parent", "#"+lstItoa(parent.ref)), and(open, func(r *lstRow) bool { return r.parent == parent.title })},
		{"parent by id with subtree", lstQ("parent", parent.id, "subtree", "true"), and(open, func(r *lstRow) bool { return f.under(r, parent.title) })},
		{"q in the description", lstQ("q", "NEEDLE haystack"), and(open, func(r *lstRow) bool { return r.title == "beta words" })},
		{"q in title or description", lstQ("q", "needle"), and(open, func(r *lstRow) bool { return strings.Contains(r.title+" "+r.desc, "needle") })},
		{"due_before is strict", lstQ("due_before", twoDays.Format(time.RFC3339)), and(open, dueBefore(twoDays))},
		{"due_after is strict", lstQ("due_after", twoDays.Format(time.RFC3339)), and(open, dueAfter(twoDays))},
		{"due_before a date", lstQ("due_before", fiveDays.Format("2006-01-02")), and(open, dueBefore(fiveDays))},
		{"due window", lstQ("due_after", f.now.Format(time.RFC3339), "due_before", fiveDays.Format(time.RFC3339)),
			and(open, dueAfter(f.now), dueBefore(fiveDays))},
		{"deferred only", lstQ("deferred", "only"), and(open, func(r *lstRow) bool { return r.snoozed })},
		{"deferred exclude", lstQ("deferred", "exclude"), and(open, func(r *lstRow) bool { return !r.snoozed })},
		{"deferred include", lstQ("deferred", "include"), open},
		{"deleted shows the trash only", lstQ("deleted", "true"), func(r *lstRow) bool { return r.trashed }},
		{"ready", lstQ("ready", "true"), f.ready},
		{"ready in a project", lstQ("ready", "true", "project", "c"), and(f.ready, func(r *lstRow) bool { return r.project == "c" })},
		{"to_act_on", lstQ("to_act_on", "true"), and(open, f.toActOn)},
		{"ready and to_act_on", lstQ("ready", "true", "to_act_on", "true"), and(f.ready, f.toActOn)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := lstTitles(lstItems(f.list(f.e.sub(t), c.params)))
			if want := f.where(c.keep); !reflect.DeepEqual(got, want) {
				t.Fatalf("GET /v1/tasks?%s\n got %q\nwant %q", c.params, got, want)
			}
		})
	}
	t.Run("ready reads blocks links, claims and deferral", func(t *testing.T) {
		got := lstTitles(lstItems(f.list(f.e.sub(t), lstQ("ready", "true"))))
		for title, want := range map[string]bool{
			"alpha blocked": false, "alpha blocker": true, "alpha freed": true, "alpha hand blocked": true,
			"alpha snoozed": false, "alpha held by carol": false, "alpha held by me": true, "alpha expired claim": true,
			"gamma red": true, "alpha three": false,
		} {
			if slices.Contains(got, title) != want {
				t.Errorf("%q ready = %v, want %v", title, !want, want)
			}
		}
	})
	t.Run("blocked flag", func(t *testing.T) {
		e := f.e.sub(t)
		for title, want := range map[string]bool{"alpha blocked": true, "alpha freed": false, "gamma red": false, "alpha hand blocked": false} {
			got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+lstItoa(f.by[title].ref), f.me, nil)
			if got["blocked"] != want {
				t.Errorf("%q blocked = %v, want %v", title, got["blocked"], want)
			}
		}
	})
}

func lstRefusals(t *testing.T, f *lstFix) {
	f = f.at(t)
	for _, params := range []string{
		"status_category=doing", "deferred=sometimes", "group_by=status", "subtree=true", "project=nope",
		"status=nope", "type=nope", "assignee=nobody", "claimed_by=nobody", "parent=9999", "due_before=someday+soon",
		"due_after=2020-13-01", "include_completed=maybe", "ready=yes%3F", "limit=abc", "limit=-1", "include=everything",
		"order=nope", "order=ref,ref", "order=-", "format=xml", "fields=nope", "format=ids&fields=ref", "format=compact&fields=title",
		"group_by=status_category&group_limit=-1", "group_limit=x",
	} {
		t.Run(params, func(t *testing.T) {
			p := f.e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?"+params, f.me, nil)
			if p["instance"] != "/v1/tasks" {
				t.Fatalf("instance %v", p["instance"])
			}
		})
	}
}

// modelOrder sorts rows as order says, the way the listing promises: a
// missing number counts as 0, a missing time as the far future, and the
// creation sequence breaks ties (descending only when every field is).
func (f *lstFix) modelOrder(rows []*lstRow, order string) []int64 {
	type key struct {
		field string
		desc  bool
	}
	var ks []key
	allDesc := true
	for _, p := range strings.Split(order, ",") {
		k := key{strings.TrimPrefix(p, "-"), strings.HasPrefix(p, "-")}
		allDesc = allDesc && k.desc
		ks = append(ks, k)
	}
	far := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	cmp := func(a, b *lstRow, field string) int {
		switch field {
		case "importance":
			ai, bi := 0, 0
			if a.imp != nil {
				ai = *a.imp
			}
			if b.imp != nil {
				bi = *b.imp
			}
			return ai - bi
		case "due_at":
			ad, bd := far, far
			if a.due != nil {
				ad = *a.due
			}
			if b.due != nil {
				bd = *b.due
			}
			return ad.Compare(bd)
		case "title":
			return strings.Compare(a.title, b.title)
		case "ref":
			return int(a.ref - b.ref)
		}
		panic("model cannot order by " + field)
	}
	sorted := slices.Clone(rows)
	slices.SortFunc(sorted, func(a, b *lstRow) int {
		for _, k := range ks {
			if c := cmp(a, b, k.field); c != 0 {
				if k.desc {
					return -c
				}
				return c
			}
		}
		if allDesc {
			return int(b.ref - a.ref)
		}
		return int(a.ref - b.ref)
	})
	out := make([]int64, len(sorted))
	for i, r := range sorted {
		out[i] = r.ref
	}
	return out
}

// walk follows next_cursor from the first page of params to the end.
func (f *lstFix) walk(e *env, params url.Values) []int64 {
	e.T.Helper()
	var out []int64
	cursor := ""
	for range 100 {
		p := url.Values{}
		for k, v := range params {
			p[k] = v
		}
		if cursor != "" {
			p.Set("cursor", cursor)
		}
		page := f.list(e, p.Encode())
		out = append(out, lstRefs(lstItems(page))...)
		pg := lstPage(page)
		if pg["has_more"] != true {
			if pg["next_cursor"] != nil {
				e.T.Fatalf("last page carries a cursor: %v", pg)
			}
			return out
		}
		cursor = pg["next_cursor"].(string)
	}
	e.T.Fatal("the walk did not end")
	return nil
}

func lstOrder(t *testing.T, f *lstFix) {
	f = f.at(t)
	var open []*lstRow
	for _, r := range f.rows {
		if !r.trashed && r.open() {
			open = append(open, r)
		}
	}
	for _, order := range []string{"-importance,due_at", "due_at,-ref", "title", "-ref", "-importance", "importance,-due_at,title"} {
		t.Run(order, func(t *testing.T) {
			e := f.e.sub(t)
			want := f.modelOrder(open, order)
			if got := lstRefs(lstItems(f.list(e, lstQ("order", order)))); !reflect.DeepEqual(got, want) {
				t.Fatalf("order=%s\n got %v\nwant %v", order, got, want)
			}
			if got := f.walk(e, url.Values{"order": {order}, "limit": {"4"}}); !reflect.DeepEqual(got, want) {
				t.Fatalf("order=%s walked four at a time\n got %v\nwant %v", order, got, want)
			}
		})
	}
	t.Run("by priority_score", func(t *testing.T) {
		// The ranking sorts narrow rows before it reads the page whole: each
		// row reports the score it was sorted by, and a walk meets the page
		// order, ready or not.
		e := f.e.sub(t)
		scores := map[int64]float64{}
		for _, it := range lstItems(f.list(e, lstQ())) {
			scores[lstNum(it["ref"])] = it["priority_score"].(float64)
		}
		for _, q := range [][]string{{"order", "-priority_score"}, {"order", "priority_score,-title"}, {"order", "-priority_score", "ready", "true"}} {
			items := lstItems(f.list(e, lstQ(q...)))
			for i, it := range items {
				score := it["priority_score"].(float64)
				if score != scores[lstNum(it["ref"])] {
					t.Fatalf("%v: #%v scores %v, %v in the listing by ref", q, it["ref"], score, scores[lstNum(it["ref"])])
				}
				if prev := items[max(i-1, 0)]["priority_score"].(float64); (q[1] == "-priority_score") == (score > prev) && score != prev {
					t.Fatalf("%v: out of order at #%v: %v after %v", q, it["ref"], score, prev)
				}
			}
			params, _ := url.ParseQuery(lstQ(q...))
			params.Set("limit", "2")
			if got, want := f.walk(e, params), lstRefs(items); !reflect.DeepEqual(got, want) || len(want) == 0 {
				t.Fatalf("%v walked two at a time\n got %v\nwant %v", q, got, want)
			}
		}
	})
	t.Run("default is ref", func(t *testing.T) {
		got := lstRefs(lstItems(f.list(f.e.sub(t), lstQ())))
		if want := f.modelOrder(open, "ref"); !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
}

func lstPaging(t *testing.T, f *lstFix) {
	f = f.at(t)
	e := f.e
	limits := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", f.me, nil)["limits"].(map[string]any)
	open := len(f.where(func(r *lstRow) bool { return !r.trashed && r.open() }))
	t.Run("no limit is the default page size, limit 0 is refused", func(t *testing.T) {
		pg := lstPage(f.list(e.sub(t), ""))
		if pg["limit"] != limits["default_page_size"] || pg["has_more"] != false {
			t.Fatalf("page %v, want limit %v", pg, limits["default_page_size"])
		}
		e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?limit=0", f.me, nil)
	})
	t.Run("a huge limit is capped", func(t *testing.T) {
		pg := lstPage(f.list(e.sub(t), "limit=1000000"))
		if pg["limit"] != limits["max_page_size"] {
			t.Fatalf("page %v, want limit %v", pg, limits["max_page_size"])
		}
	})
	t.Run("include_total counts every match", func(t *testing.T) {
		e := e.sub(t)
		got := f.list(e, "limit=3&include_total=true")
		pg := lstPage(got)
		if len(lstItems(got)) != 3 || pg["has_more"] != true || pg["next_cursor"] == nil || lstNum(pg["total"]) != int64(open) {
			t.Fatalf("page %v, want 3 items, more, total %d", pg, open)
		}
		inA := len(f.where(func(r *lstRow) bool { return !r.trashed && r.open() && (r.project == "a" || r.project == "b") }))
		if pg := lstPage(f.list(e, "limit=1&include_total=true&project=a")); lstNum(pg["total"]) != int64(inA) {
			t.Fatalf("total %v in a, want %d", pg["total"], inA)
		}
		if pg := lstPage(f.list(e, "limit=3")); pg["total"] != nil {
			t.Fatalf("total %v without include_total", pg["total"])
		}
	})
	t.Run("a cursor carries over to another limit", func(t *testing.T) {
		e := e.sub(t)
		first := f.list(e, "limit=2")
		next := f.list(e, "limit=5&cursor="+url.QueryEscape(lstPage(first)["next_cursor"].(string)))
		all := lstRefs(lstItems(f.list(e, "limit=7")))
		if got := append(lstRefs(lstItems(first)), lstRefs(lstItems(next))...); !reflect.DeepEqual(got, all) {
			t.Fatalf("got %v, want %v", got, all)
		}
	})
	t.Run("a cursor from another query is refused", func(t *testing.T) {
		e := e.sub(t)
		cur := url.QueryEscape(lstPage(f.list(e, "limit=2"))["next_cursor"].(string))
		for _, other := range []string{"order=-importance", "order=ref,title", "project=a", "include_completed=true", "ready=true",
			"tag=red", "q=alpha", "status_category=todo", "deferred=exclude"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?limit=2&"+other+"&cursor="+cur, f.me, nil)
		}
		evCur := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+lstItoa(f.by["alpha snoozed"].ref)+"/events?limit=1", f.me, nil)
		if c, ok := lstPage(evCur)["next_cursor"].(string); ok {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?limit=2&cursor="+url.QueryEscape(c), f.me, nil)
		} else {
			t.Fatalf("a task with two events gives a second page: %v", evCur)
		}
	})
	t.Run("a garbage cursor is refused", func(t *testing.T) {
		e := e.sub(t)
		for _, c := range []string{"!!!", "abc", "eyJsIjoidGFza3MifQ", "bm90IGpzb24", "eyJsIjoidGFza3MiLCJmIjoiIiwiayI6eyJ2IjpbIngiXX19"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?cursor="+url.QueryEscape(c), f.me, nil)
		}
	})
}

func lstShapes(t *testing.T, f *lstFix) {
	f = f.at(t)
	e := f.e
	full := lstItems(f.list(e, "limit=500"))
	t.Run("ids", func(t *testing.T) {
		got := f.list(e.sub(t), "limit=500&format=ids")["items"].([]any)
		if len(got) != len(full) {
			t.Fatalf("%d ids, want %d", len(got), len(full))
		}
		for i, id := range got {
			if id != full[i]["id"] {
				t.Fatalf("ids[%d] = %v, want %v", i, id, full[i]["id"])
			}
		}
	})
	t.Run("compact", func(t *testing.T) {
		got := f.list(e.sub(t), "limit=500&format=compact")["items"].([]any)
		if len(got) != len(full) {
			t.Fatalf("%d lines, want %d", len(got), len(full))
		}
		for i, line := range got {
			s, _ := line.(string)
			if !strings.HasPrefix(s, "#"+lstItoa(lstNum(full[i]["ref"]))+" ") || !strings.Contains(s, full[i]["title"].(string)) {
				t.Fatalf("line %d %q does not describe #%v %v", i, s, full[i]["ref"], full[i]["title"])
			}
		}
	})
	t.Run("full is the default", func(t *testing.T) {
		if got := lstItems(f.list(e.sub(t), "limit=500&format=full")); !reflect.DeepEqual(got, full) {
			t.Fatal("format=full differs from the default")
		}
	})
	t.Run("fields", func(t *testing.T) {
		got := lstItems(f.list(e.sub(t), "limit=500&fields=ref,title,blocked"))
		for i, it := range got {
			want := map[string]any{"ref": full[i]["ref"], "title": full[i]["title"], "blocked": full[i]["blocked"]}
			if !reflect.DeepEqual(it, want) {
				t.Fatalf("item %d = %v, want %v", i, it, want)
			}
		}
	})
}

func lstGroups(t *testing.T, f *lstFix) {
	f = f.at(t)
	cats := []string{app.CategoryTodo, app.CategoryInProgress, app.CategoryDone, app.CategoryCancelled}
	groups := func(e *env, params string) []map[string]any {
		e.T.Helper()
		got := f.list(e, "group_by=status_category&"+params)
		if _, ok := got["items"]; ok {
			e.T.Fatalf("a grouped listing carries groups, not items: %v", got)
		}
		raw, _ := got["groups"].([]any)
		out := make([]map[string]any, len(raw))
		keys := make([]string, len(raw))
		for i, g := range raw {
			out[i] = g.(map[string]any)
			keys[i], _ = out[i]["key"].(string)
			if _, ok := out[i]["items"].([]any); !ok {
				e.T.Fatalf("group %s has no items array: %v", keys[i], out[i])
			}
		}
		if !reflect.DeepEqual(keys, cats) {
			e.T.Fatalf("group keys %v, want %v (every group, empty ones too)", keys, cats)
		}
		return out
	}
	t.Run("every group present, finished work included", func(t *testing.T) {
		gs := groups(f.e.sub(t), "project=b")
		for _, g := range gs {
			want := f.where(func(r *lstRow) bool { return !r.trashed && r.project == "b" && r.category() == g["key"] })
			if got := lstTitles(lstItems(g)); !reflect.DeepEqual(got, want) {
				t.Errorf("group %s: got %q, want %q", g["key"], got, want)
			}
		}
		if n := len(lstItems(gs[3])); n != 0 {
			t.Fatalf("project b has nothing cancelled, got %d", n)
		}
	})
	t.Run("group_limit pages each group", func(t *testing.T) {
		e := f.e.sub(t)
		for _, g := range groups(e, "project=a&group_limit=1&include_total=true") {
			key := g["key"].(string)
			want := f.where(func(r *lstRow) bool {
				return !r.trashed && (r.project == "a" || r.project == "b") && r.category() == key
			})
			pg := lstPage(g)
			if len(lstItems(g)) != min(1, len(want)) || lstNum(pg["limit"]) != 1 || lstNum(pg["total"]) != int64(len(want)) ||
				pg["has_more"] != (len(want) > 1) {
				t.Fatalf("group %s: %d items, page %v; want %d in all", key, len(lstItems(g)), pg, len(want))
			}
			// A group's cursor continues in the ungrouped listing of its category.
			got := lstTitles(lstItems(g))
			if c, ok := pg["next_cursor"].(string); ok {
				rest := f.walk(e, url.Values{"project": {"a"}, "status_category": {key}, "cursor": {c}, "limit": {"2"}})
				for _, ref := range rest {
					for _, r := range f.rows {
						if r.ref == ref {
							got = append(got, r.title)
						}
					}
				}
				sort.Strings(got)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("group %s walked: got %q, want %q", key, got, want)
			}
		}
	})
	t.Run("group_limit default and cap", func(t *testing.T) {
		e := f.e.sub(t)
		for params, want := range map[string]int64{"": 25, "group_limit=100": 100, "group_limit=101": 100, "group_limit=100000": 100} {
			for _, g := range groups(e, params) {
				if lstNum(lstPage(g)["limit"]) != want {
					t.Fatalf("%s: group %s page %v, want limit %d", params, g["key"], lstPage(g), want)
				}
			}
		}
	})
	t.Run("a cursor is refused with group_by", func(t *testing.T) {
		e := f.e.sub(t)
		g := groups(e, "group_limit=1")
		c := lstPage(g[0])["next_cursor"].(string)
		for _, cur := range []string{c, "garbage"} {
			e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet,
				"/v1/tasks?group_by=status_category&group_limit=1&cursor="+url.QueryEscape(cur), f.me, nil)
		}
	})
	t.Run("status_category narrows to one group", func(t *testing.T) {
		for _, g := range groups(f.e.sub(t), "status_category=in_progress") {
			want := f.where(func(r *lstRow) bool {
				return !r.trashed && r.category() == g["key"] && g["key"] == app.CategoryInProgress
			})
			if got := lstTitles(lstItems(g)); !reflect.DeepEqual(got, want) {
				t.Fatalf("group %s: got %q, want %q", g["key"], got, want)
			}
		}
	})
	t.Run("format applies inside groups", func(t *testing.T) {
		for _, g := range groups(f.e.sub(t), "project=b&format=ids") {
			for _, it := range g["items"].([]any) {
				if _, ok := it.(string); !ok {
					t.Fatalf("group %s item %v is not an id", g["key"], it)
				}
			}
		}
	})
}

func lstIncludeLinks(t *testing.T, f *lstFix) {
	f = f.at(t)
	type link struct {
		typ, label     string
		source, target string
	}
	links := func(e *env, params string) []link {
		e.T.Helper()
		got := f.list(e, params)
		raw, ok := got["links"].([]any)
		if !ok {
			e.T.Fatalf("include=links gives a links array: %v", got["links"])
		}
		byRef := map[int64]string{}
		for _, r := range f.rows {
			byRef[r.ref] = r.title
		}
		seen := map[string]bool{}
		out := []link{}
		for _, l := range raw {
			m := l.(map[string]any)
			if seen[m["id"].(string)] {
				e.T.Fatalf("link %v reported twice", m["id"])
			}
			seen[m["id"].(string)] = true
			out = append(out, link{m["link_type"].(string), m["label"].(string), byRef[lstNum(m["source"])], byRef[lstNum(m["target"])]})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].source < out[j].source })
		return out
	}
	cases := []struct {
		params string
		want   []link
	}{
		{"include=links&project=a", []link{{"blocks", "blocks", "alpha blocker", "alpha blocked"}}},
		{"include=links&project=a&include_completed=true", []link{{"blocks", "blocks", "alpha blocker", "alpha blocked"},
			{"blocks", "blocks", "alpha done blocker", "alpha freed"}}},
		{"include=links&project=c", []link{{"relates_to", "relates to", "gamma relates", "gamma one"}}},
		{"include=links&project=c&format=ids", []link{{"relates_to", "relates to", "gamma relates", "gamma one"}}},
		{"include=links&project=c&fields=ref", []link{{"relates_to", "relates to", "gamma relates", "gamma one"}}},
		{"include=links&limit=1", []link{}},
		{"include=links&project=b", []link{}},
	}
	for _, c := range cases {
		t.Run(c.params, func(t *testing.T) {
			if got := links(f.e.sub(t), c.params); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
	t.Run("absent unless asked", func(t *testing.T) {
		if got, ok := f.list(f.e.sub(t), "project=a")["links"]; ok {
			t.Fatalf("links %v without include=links", got)
		}
	})
}

// TestTaskListCursorWalkUnderInserts walks 300 tasks 17 at a time while
// another goroutine keeps adding tasks: every task that existed before the
// walk is seen exactly once, and no task is seen twice.
func TestTaskListCursorWalkUnderInserts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "walk", "title": "Walk"})
	ctx := context.Background()
	admin := e.adminActor()
	for i := range 300 {
		imp := i%5 + 1
		if _, err := e.Svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: fmt.Sprintf("seeded %03d", i), Project: "walk", Importance: &imp}); err != nil {
			t.Fatal(err)
		}
	}
	for _, order := range []string{"", "-importance,ref"} {
		t.Run("order="+order, func(t *testing.T) {
			e := e.sub(t)
			before := map[string]bool{}
			for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?project=walk&limit=500", e.Admin, nil)) {
				before[it["id"].(string)] = true
			}
			if len(before) < 300 || len(before) >= 500 {
				t.Fatalf("%d tasks before the walk", len(before))
			}
			ins := lstInserter(e, 5)
			seen := map[string]int{}
			cursor := ""
			for page := 0; ; page++ {
				if page == 200 {
					t.Fatal("the walk did not end")
				}
				if page == 2 {
					<-ins.first // make sure the walk and the inserts overlap
				}
				q := url.Values{"project": {"walk"}, "limit": {"17"}}
				if order != "" {
					q.Set("order", order)
				}
				if cursor != "" {
					q.Set("cursor", cursor)
				}
				got := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?"+q.Encode(), e.Admin, nil)
				select { // at most one batch waits; the walk never queues a backlog
				case ins.more <- struct{}{}:
				default:
				}
				for _, it := range lstItems(got) {
					seen[it["id"].(string)]++
				}
				pg := lstPage(got)
				if pg["has_more"] != true {
					break
				}
				cursor = pg["next_cursor"].(string)
			}
			inserted := ins.stop(t)
			if inserted == 0 {
				t.Fatal("nothing was inserted during the walk")
			}
			for id := range before {
				if seen[id] != 1 {
					t.Errorf("task %s existed before the walk and was seen %d times", id, seen[id])
				}
			}
			fresh := 0
			for id, n := range seen {
				if n > 1 {
					t.Errorf("task %s seen %d times", id, n)
				}
				if !before[id] {
					fresh++
				}
			}
			t.Logf("walked %d tasks (%d inserted meanwhile, %d of them seen)", len(seen), inserted, fresh)
		})
	}
}

// lstInsert adds tasks to project walk from its own goroutine, a batch for
// every signal on more, with importance varied so that new rows land on
// both sides of a walk's position.
type lstInsert struct {
	more  chan struct{}
	first chan struct{}
	done  chan struct{}
	n     atomic.Int64
	err   atomic.Value
}

func lstInserter(e *env, batch int) *lstInsert {
	ins := &lstInsert{more: make(chan struct{}, 1), first: make(chan struct{}), done: make(chan struct{})}
	client, base, token := e.Srv.Client(), e.Srv.URL, e.Admin
	go func() {
		defer close(ins.done)
		once := false
		for range ins.more {
			for i := range batch {
				n := ins.n.Add(1)
				body := fmt.Sprintf(`{"title":"inserted %d","project":"walk","importance":%d}`, n, []int{5, 1, 3, 4, 2}[i%5])
				req, _ := http.NewRequest(http.MethodPost, base+"/v1/tasks", strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+token)
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err == nil {
					res.Body.Close()
					if res.StatusCode != http.StatusCreated {
						err = fmt.Errorf("insert answered %d", res.StatusCode)
					}
				}
				if err != nil {
					ins.err.CompareAndSwap(nil, err.Error())
				}
			}
			if !once {
				once = true
				close(ins.first)
			}
		}
		if !once {
			close(ins.first)
		}
	}()
	ins.more <- struct{}{}
	return ins
}

// stop ends the inserts and returns how many tasks were added.
func (ins *lstInsert) stop(t *testing.T) int64 {
	t.Helper()
	close(ins.more)
	<-ins.done
	if err := ins.err.Load(); err != nil {
		t.Fatalf("inserting: %v", err)
	}
	return ins.n.Load()
}

// TestTaskListTitleOrderWalk pins a keyset walk by title over titles that
// do not start in ASCII: the cursor must hold the key the store sorts by.
func TestTaskListTitleOrderWalk(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, title := range []string{"Éclair", "apple", "Zebra", "éclat", "banana", "Ørsted", "zoo", "Apple pie"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": title})
	}
	f := &lstFix{e: e, me: e.Admin}
	for _, order := range []string{"title", "-title", "title,-ref"} {
		all := lstRefs(lstItems(f.list(e, "limit=500&order="+url.QueryEscape(order))))
		if len(all) != 8 {
			t.Fatalf("order=%s lists %d tasks", order, len(all))
		}
		if got := f.walk(e, url.Values{"order": {order}, "limit": {"1"}}); !reflect.DeepEqual(got, all) {
			t.Fatalf("order=%s walked one at a time: %v, listed: %v", order, got, all)
		}
	}
}
