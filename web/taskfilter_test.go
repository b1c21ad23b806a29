package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"tend/web/webtest"
)

// fltFix is the listing fixture (lstFix) with what the field filters read
// besides: estimates and urgency, a start date, agents answering to carol,
// a task carol made, a comment and a status change at known times, and a
// private project carol cannot see.
type fltFix struct {
	*lstFix
	rows       map[string]map[string]any // every live task by title, as the full listing reports it
	now        time.Time
	loc        *time.Location
	t1, t2     time.Time // the comment; the status change
	carolTask  string
	secretRef  int64
	wantAnswer []string
}

func newFltFix(t *testing.T) *fltFix {
	lf := newLstFix(t)
	e := lf.e
	f := &fltFix{lstFix: lf}
	ref := func(title string) string { return lstItoa(lf.by[title].ref) }
	patch := func(title string, body map[string]any) {
		e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+ref(title), lf.me, body)
	}
	patch("alpha one", map[string]any{"estimate_minutes": 90, "urgency": 2, "starts_at": lf.now.Add(24 * time.Hour)})
	patch("beta one", map[string]any{"estimate_minutes": 120, "urgency": 5})
	patch("gamma one", map[string]any{"estimate_minutes": 30, "urgency": 3})
	// bot answers to carol, subbot to bot: both reach carol.
	e.Agent("bot", "carol")
	subbot := e.Agent("subbot", "bot")
	patch("gamma one", map[string]any{"assignee": "bot"})
	f.wantAnswer = []string{"gamma one", "gamma three"}
	f.carolTask = "carol's own"
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", lf.carol, map[string]any{"title": f.carolTask, "project": "c"})
	e.Clock.Advance(time.Hour)
	f.t1 = e.Clock.Now()
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+ref("alpha one")+"/comments", lf.carol, map[string]any{"body": "looked at it"})
	e.Clock.Advance(time.Hour)
	f.t2 = e.Clock.Now()
	patch("beta one", map[string]any{"status": "in_progress"})
	e.Clock.Advance(time.Hour)
	f.now = e.Clock.Now()
	// The fixture's claims have run out by now: take them again.
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref("gamma three")+"/claim", subbot, nil)
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref("alpha held by carol")+"/claim", lf.carol, nil)
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+ref("alpha held by me")+"/claim", lf.me, nil)
	sec := e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", lf.me, map[string]any{"key": "sec", "title": "Secret", "visibility": "private"})
	f.secretRef = lstNum(e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", lf.me, map[string]any{"title": "secret", "project": sec["key"]})["ref"])
	zone := e.OK(http.StatusOK, http.MethodGet, "/v1/me", lf.me, nil)["reader_timezone"].(string)
	var err error
	if f.loc, err = time.LoadLocation(zone); err != nil {
		t.Fatal(err)
	}
	f.rows = map[string]map[string]any{}
	for _, it := range lstItems(lf.list(e, "include_completed=true&limit=500")) {
		f.rows[it["title"].(string)] = it
	}
	return f
}

// day is the start of the day n days from today in the reader's zone.
func (f *fltFix) day(n int) time.Time {
	d := f.now.In(f.loc)
	return time.Date(d.Year(), d.Month(), d.Day()+n, 0, 0, 0, 0, f.loc)
}

func (f *fltFix) where(keep func(r map[string]any) bool) []string {
	out := []string{}
	for title, r := range f.rows {
		if keep(r) {
			out = append(out, title)
		}
	}
	sort.Strings(out)
	return out
}

// fltTime reads a time field of a row; absent is the zero time.
func fltTime(r map[string]any, field string) (time.Time, bool) {
	s, ok := r[field].(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

func fltNum(r map[string]any, field string) (int, bool) {
	v, ok := r[field].(float64)
	return int(v), ok
}

func fltAt(field string, keep func(t time.Time) bool) func(r map[string]any) bool {
	return func(r map[string]any) bool { t, ok := fltTime(r, field); return ok && keep(t) }
}

func fltN(field string, keep func(n int) bool) func(r map[string]any) bool {
	return func(r map[string]any) bool { n, ok := fltNum(r, field); return ok && keep(n) }
}

func fltSet(field string, set bool) func(r map[string]any) bool {
	return func(r map[string]any) bool { return (r[field] != nil) == set }
}

func fltIn(field string, names ...string) func(r map[string]any) bool {
	return func(r map[string]any) bool { s, ok := r[field].(string); return ok && slices.Contains(names, s) }
}

func fltTitles(titles ...string) func(r map[string]any) bool {
	return func(r map[string]any) bool { return slices.Contains(titles, r["title"].(string)) }
}

// fltClaimed is a live claim held by one of names (none: by anyone).
func (f *fltFix) fltClaimed(names ...string) func(r map[string]any) bool {
	return func(r map[string]any) bool {
		exp, ok := fltTime(r, "claim_expires_at")
		by, _ := r["claimed_by"].(string)
		return ok && exp.After(f.now) && by != "" && (len(names) == 0 || slices.Contains(names, by))
	}
}

// fltCase is one filter and the rows the model says it selects.
type fltCase struct {
	filter map[string]string
	keep   func(r map[string]any) bool
}

func (f *fltFix) cases() []fltCase {
	tomorrow, after := f.day(1), f.day(2)
	ref := func(title string) string { return lstItoa(f.by[title].ref) }
	rfc := func(t time.Time) string { return t.Format(time.RFC3339) }
	hasTag := func(tags ...string) func(r map[string]any) bool {
		return func(r map[string]any) bool {
			for _, g := range r["tags"].([]any) {
				if slices.Contains(tags, strings.ToLower(g.(string))) {
					return true
				}
			}
			return false
		}
	}
	under := func(parents ...string) func(r map[string]any) bool {
		return func(r map[string]any) bool {
			row, ok := f.by[r["title"].(string)]
			for _, p := range parents {
				if ok && f.under(row, p) {
					return true
				}
			}
			return false
		}
	}
	one := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	return []fltCase{
		{one("due_at.gte", "tomorrow"), fltAt("due_at", func(t time.Time) bool { return !t.Before(tomorrow) })},
		{one("due_at.gt", "tomorrow"), fltAt("due_at", func(t time.Time) bool { return !t.Before(after) })},
		{one("due_at.lt", "tomorrow"), fltAt("due_at", func(t time.Time) bool { return t.Before(tomorrow) })},
		{one("due_at.lte", "tomorrow"), fltAt("due_at", func(t time.Time) bool { return t.Before(after) })},
		{one("due_at.gte", "-1d", "due_at.lte", "+3d"), fltAt("due_at", func(t time.Time) bool { return !t.Before(f.day(-1)) && t.Before(f.day(4)) })},
		{one("due_at.lt", rfc(f.now)), fltAt("due_at", func(t time.Time) bool { return t.Before(f.now) })},
		{one("due_at.is", "set"), fltSet("due_at", true)},
		{one("due_at.is", "unset"), fltSet("due_at", false)},
		{one("starts_at.lte", "+1d"), fltAt("starts_at", func(t time.Time) bool { return t.Before(f.day(2)) })},
		{one("starts_at.is", "set"), fltSet("starts_at", true)},
		{one("snoozed_until.gt", "now"), fltAt("snoozed_until", func(t time.Time) bool { return t.After(f.now) })},
		{one("snoozed_until.is", "unset"), fltSet("snoozed_until", false)},
		{one("claimed_at.is", "set"), fltSet("claimed_at", true)},
		{one("completed_at.is", "set"), fltSet("completed_at", true)},
		{one("completed_at.gte", "-1d"), fltAt("completed_at", func(t time.Time) bool { return !t.Before(f.day(-1)) })},
		{one("created_at.lte", "today"), fltAt("created_at", func(t time.Time) bool { return t.Before(f.day(1)) })},
		{one("updated_at.gt", rfc(f.t1.Add(-time.Hour))), fltAt("updated_at", func(t time.Time) bool { return t.After(f.t1.Add(-time.Hour)) })},
		{one("content_updated_at.gte", rfc(f.t1)), fltAt("content_updated_at", func(t time.Time) bool { return !t.Before(f.t1) })},
		{one("estimate_minutes.gte", "2h"), fltN("estimate_minutes", func(n int) bool { return n >= 120 })},
		{one("estimate_minutes.lt", "90"), fltN("estimate_minutes", func(n int) bool { return n < 90 })},
		{one("estimate_minutes", "1h30m"), fltN("estimate_minutes", func(n int) bool { return n == 90 })},
		{one("estimate_minutes.is", "set"), fltSet("estimate_minutes", true)},
		{one("importance.gte", "4"), fltN("importance", func(n int) bool { return n >= 4 })},
		{one("importance", "5"), fltN("importance", func(n int) bool { return n == 5 })},
		{one("importance.lt", "3", "importance.gt", "1"), fltN("importance", func(n int) bool { return n == 2 })},
		{one("importance.is", "unset"), fltSet("importance", false)},
		{one("urgency.lte", "3"), fltN("urgency", func(n int) bool { return n <= 3 })},
		{one("urgency", "5"), fltN("urgency", func(n int) bool { return n == 5 })},
		{one("assignee.in", "carol,dave"), fltIn("assignee", "carol", "dave")},
		{one("assignee.in", "me"), fltIn("assignee", "admin")},
		{one("assignee.is", "unset"), fltSet("assignee", false)},
		{one("assignee.is", "set"), fltSet("assignee", true)},
		{one("claimed_by.in", "carol,admin"), f.fltClaimed("carol", "admin")},
		{one("claimed_by.is", "set"), f.fltClaimed()},
		{one("claimed_by.is", "unset"), func(r map[string]any) bool { return !f.fltClaimed()(r) }},
		{one("created_by", "carol"), fltTitles(f.carolTask)},
		{one("created_by.in", "carol,admin"), func(map[string]any) bool { return true }},
		{one("parent.in", ref("alpha parent")+",#"+ref("alpha child")), fltTitles("alpha child", "alpha grandchild")},
		{one("parent.is", "set"), fltSet("parent", true)},
		{one("project.in", "b,c"), fltIn("project", "b", "c")},
		{one("project.in", "a"), fltIn("project", "a", "b")},
		{one("status.in", "done,in_progress"), fltIn("status", "done", "in_progress")},
		{one("tag.in", "red,blue"), hasTag("red", "blue")},
		{one("tag.in", "green,nosuch"), hasTag("green")},
		{one("tag.is", "unset"), func(r map[string]any) bool { return len(r["tags"].([]any)) == 0 }},
		{one("type.in", "bug,feature"), fltIn("type", "bug", "feature")},
		{one("under", ref("alpha parent")), under("alpha parent")},
		{one("under.in", ref("alpha child")+","+ref("alpha parent")), under("alpha parent")},
		{one("answers_to", "carol"), fltTitles(f.wantAnswer...)},
		{one("answers_to", "dave"), fltTitles()},
		{one("touched_at.is", "set"), fltTitles("alpha one", "beta one")},
		{one("touched_at.is", "unset"), func(r map[string]any) bool { return !fltTitles("alpha one", "beta one")(r) }},
		{one("touched_at.gte", rfc(f.t2)), fltTitles("beta one")},
		{one("touched_at.lt", rfc(f.t2)), fltTitles("alpha one")},
		{one("touched_at.lte", rfc(f.t1)), fltTitles("alpha one")},
		{one("touched_at.gt", rfc(f.t1)), fltTitles("beta one")},
		{one("touched_at.gte", "today"), fltTitles("alpha one", "beta one")},
		{one("touched_by", "carol"), fltTitles("alpha one")},
		{one("touched_by.in", "admin,carol"), fltTitles("alpha one", "beta one")},
		{one("importance.gte", "3", "assignee.is", "unset", "project.in", "a"),
			func(r map[string]any) bool {
				return fltN("importance", func(n int) bool { return n >= 3 })(r) && fltSet("assignee", false)(r) && fltIn("project", "a", "b")(r)
			}},
	}
}

// TestTaskFieldFilters checks every field filter key and operator against
// the model over one fixture, through GET /v1/tasks and service_list alike.
func TestTaskFieldFilters(t *testing.T) {
	t.Parallel()
	f := newFltFix(t)
	mc := f.e.Connect(t, f.me, webtest.EraStateless)
	for _, c := range f.cases() {
		keys := make([]string, 0, len(c.filter))
		v := url.Values{"include_completed": {"true"}, "limit": {"500"}}
		args := map[string]any{"include_completed": "true"}
		for k, val := range c.filter {
			keys = append(keys, k+"="+val)
			v.Set(k, val)
			args[k] = val
		}
		sort.Strings(keys)
		t.Run(strings.Join(keys, "&"), func(t *testing.T) {
			want := f.where(c.keep)
			got := lstTitles(lstItems(f.list(f.e.sub(t), v.Encode())))
			if !slices.Equal(got, want) {
				t.Fatalf("HTTP:\n got  %q\n want %q", got, want)
			}
			res := mc.With(t).OK("service_list", map[string]any{"filter": args, "limit": 500})
			var items []map[string]any
			for _, it := range res.Structured["items"].([]any) {
				items = append(items, it.(map[string]any))
			}
			if mcp := lstTitles(items); !slices.Equal(mcp, want) {
				t.Fatalf("service_list:\n got  %q\n want %q", mcp, want)
			}
		})
	}
	t.Run("refusals", func(t *testing.T) { fltRefusals(t, f, mc) })
	t.Run("disclosure", func(t *testing.T) { fltDisclosure(t, f) })
	t.Run("cursor walk", func(t *testing.T) { fltWalk(t, f) })
	t.Run("finished work", func(t *testing.T) {
		// A completion time, or a finished status, reaches finished work
		// without include_completed; an open status does not.
		for params, keep := range map[string]func(r map[string]any) bool{
			"completed_at.is=set":    fltSet("completed_at", true),
			"completed_at.lte=today": fltSet("completed_at", true),
			"status.in=done,todo":    fltIn("status", "done", "todo"),
			"status.in=todo,blocked": fltIn("status", "todo", "blocked"),
			"completed_at.is=unset":  fltSet("completed_at", false),
			"importance.gte=1&tag.in=red": func(r map[string]any) bool {
				return r["completed_at"] == nil && r["importance"] != nil && hasTagRed(r)
			},
		} {
			got := lstTitles(lstItems(f.list(f.e.sub(t), params+"&limit=500")))
			if want := f.where(keep); len(want) == 0 || !slices.Equal(got, want) {
				t.Fatalf("%s: got %q, want %q", params, got, want)
			}
		}
	})
}

func fltRefusals(t *testing.T, f *fltFix, mc *webtest.MCPClient) {
	for _, c := range []struct{ params, code, loc string }{
		{"due_at.eq=tomorrow", "validation", "due_at.eq"},
		{"nope.gt=1", "validation", "nope.gt"},
		{"due_at=tomorrow", "validation", "due_at"},
		{"created_at.is=set", "validation", "created_at.is"},
		{"under.is=set", "validation", "under.is"},
		{"due_at.gte=someday", "validation", "due_at.gte"},
		{"due_at.is=maybe", "validation", "due_at.is"},
		{"importance=6", "validation", "importance"},
		{"urgency.gte=x", "validation", "urgency.gte"},
		{"estimate_minutes.lt=2x", "validation", "estimate_minutes.lt"},
		{"assignee.in=nobody", "validation", "assignee.in"},
		{"assignee.in=", "validation", "assignee.in"},
		{"created_by=a,b", "validation", "created_by"},
		{"claimed_by.in=admin,nobody", "validation", "claimed_by.in"},
		{"project.in=a,nope", "validation", "project.in"},
		{"status.in=nope", "validation", "status.in"},
		{"type.in=nope", "validation", "type.in"},
		{"parent.in=99999", "validation", "parent.in"},
		{"under=99999", "validation", "under"},
		{"answers_to=nobody", "validation", "answers_to"},
		{"touched_by=nobody", "validation", "touched_by"},
		{"touched_at.gt=x", "validation", "touched_at.gt"},
		{"due_at.lt=1969-12-31", "instant_out_of_range", "due_at.lt"},
		{"updated_at.gte=9999-12-31T23:59:59.999-01:00", "instant_out_of_range", "updated_at.gte"},
		{"importance.gte=4&importance.gte=5", "validation", "importance.gte"},
	} {
		t.Run(c.params, func(t *testing.T) {
			p := f.e.sub(t).Problem(http.StatusUnprocessableEntity, c.code, http.MethodGet, "/v1/tasks?"+c.params, f.me, nil)
			if !fltNames(p, "query."+c.loc) {
				t.Fatalf("the problem does not name query.%s: %v", c.loc, p)
			}
			q, _ := url.ParseQuery(c.params)
			if len(q) > 1 || len(q[c.loc]) > 1 {
				return // a key given twice cannot be written in a filter object
			}
			text := mc.With(t).Refused(c.code, "service_list", map[string]any{"filter": map[string]any{c.loc: q.Get(c.loc)}})
			if !strings.Contains(text, "arguments.filter."+c.loc+": ") {
				t.Fatalf("service_list's refusal does not name arguments.filter.%s: %s", c.loc, text)
			}
		})
	}
	t.Run("listing parameter in the filter object", func(t *testing.T) {
		text := mc.With(t).Refused("validation", "service_list", map[string]any{"filter": map[string]any{"limit": "3"}})
		if !strings.Contains(text, "arguments.filter.limit: ") {
			t.Fatalf("the refusal does not name limit: %s", text)
		}
	})
}

// fltNames reports whether the problem's detail names loc.
func fltNames(p map[string]any, loc string) bool {
	errs, _ := p["detail"].([]any)
	for _, e := range errs {
		m, _ := e.(map[string]any)
		locs, _ := m["loc"].([]any)
		var parts []string
		for _, l := range locs {
			s, _ := l.(string)
			parts = append(parts, s)
		}
		if strings.Join(parts, ".") == loc {
			return true
		}
	}
	return false
}

// fltMsgs is the problem's detail as text.
func fltMsgs(p map[string]any) string {
	b, _ := json.Marshal(p["detail"])
	return string(b)
}

// fltDisclosure: a filter naming a project or task carol cannot see
// answers as one naming nothing at all.
func fltDisclosure(t *testing.T, f *fltFix) {
	e := f.e.sub(t)
	for _, c := range []struct{ hidden, absent, name, none string }{
		{"project.in=sec", "project.in=zzz", "sec", "zzz"},
		{"under=" + lstItoa(f.secretRef), "under=99999", lstItoa(f.secretRef), "99999"},
		{"parent.in=" + lstItoa(f.secretRef), "parent.in=99999", lstItoa(f.secretRef), "99999"},
	} {
		hidden := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?"+c.hidden, f.carol, nil)
		absent := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?"+c.absent, f.carol, nil)
		if h, a := strings.ReplaceAll(fltMsgs(hidden), c.name, "X"), strings.ReplaceAll(fltMsgs(absent), c.none, "X"); h != a {
			t.Fatalf("%s answers %q, %s answers %q", c.hidden, h, c.absent, a)
		}
	}
	// The project's owner reaches it.
	if got := lstTitles(lstItems(f.list(e, "project.in=sec"))); !slices.Equal(got, []string{"secret"}) {
		t.Fatalf("project.in=sec as its owner: %q", got)
	}
}

// fltWalk pages through filtered listings two rows at a time and finds the
// rows of one page, in the same order; a cursor of one filter is refused by
// another.
func fltWalk(t *testing.T, f *fltFix) {
	e := f.e.sub(t)
	for _, params := range []url.Values{
		{"importance.gte": {"2"}, "order": {"-importance"}},
		{"due_at.lte": {"+7d"}, "assignee.is": {"unset"}, "order": {"due_at"}},
		{"tag.in": {"red,blue,green"}, "include_completed": {"true"}},
	} {
		all := url.Values{}
		for k, v := range params {
			all[k] = v
		}
		all.Set("limit", "500")
		want := lstRefs(lstItems(f.list(e, all.Encode())))
		paged := url.Values{}
		for k, v := range params {
			paged[k] = v
		}
		paged.Set("limit", "2")
		if got := f.walk(e, paged); len(want) < 3 || !slices.Equal(got, want) {
			t.Fatalf("%v: walked %v, one page %v", params, got, want)
		}
	}
	page := f.list(e, "importance.gte=2&limit=2")
	cur := lstPage(page)["next_cursor"].(string)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?importance.gte=3&limit=2&cursor="+url.QueryEscape(cur), f.me, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/tasks?limit=2&cursor="+url.QueryEscape(cur), f.me, nil)
}

func hasTagRed(r map[string]any) bool {
	for _, g := range r["tags"].([]any) {
		if strings.EqualFold(g.(string), "red") {
			return true
		}
	}
	return false
}
