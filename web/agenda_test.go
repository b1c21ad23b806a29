package web_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// agendaTitles reads each list of an agenda as titles, in order.
func agendaTitles(m map[string]any) map[string][]string {
	out := map[string][]string{}
	for _, k := range []string{"today", "overdue", "upcoming", "unscheduled", "in_progress", "waiting", "occasions", "blocked_by_others"} {
		out[k] = []string{}
		for _, it := range m[k].([]any) {
			out[k] = append(out[k], it.(map[string]any)["title"].(string))
		}
	}
	return out
}

func agendaTotals(m map[string]any) map[string]int {
	out := map[string]int{}
	for _, k := range []string{"unscheduled_total", "blocked_by_others_total", "deferred_total", "later_total", "passed_total",
		"paused_total", "assigned_elsewhere_total"} {
		out[k] = int(m[k].(float64))
	}
	return out
}

// TestAgendaAroundAucklandMidnight places every kind of task for a reader in
// Pacific/Auckland (UTC+13 in November) at 23:30 and at 00:30 local, and
// for a reader in UTC at the same instant.
func TestAgendaAroundAucklandMidnight(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 24, 10, 30, 0, 0, time.UTC)) // Tue Nov 24 23:30 in Auckland
	carol := e.Member("carol", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "shelf", "title": "Shelf"})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/projects/shelf", e.Admin, map[string]any{"status": "on_hold"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", carol, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"})
	refs := map[string]int64{}
	mk := func(token, title string, f map[string]any) {
		body := map[string]any{"title": title, "project": "home", "timezone": "Pacific/Auckland"}
		for k, v := range f {
			body[k] = v
		}
		refs[title] = lstNum(e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", token, body)["ref"])
	}
	allDay := func(at string) map[string]any { return map[string]any{"due_at": at, "due_is_all_day": true} }
	timed := func(at string) map[string]any { return map[string]any{"due_at": at} }
	mk(e.Admin, "all-day Nov 24", allDay("2026-11-23T11:00:00Z"))
	mk(e.Admin, "all-day Nov 23", allDay("2026-11-22T11:00:00Z"))
	mk(e.Admin, "all-day Nov 25", allDay("2026-11-24T11:00:00Z")) // Nov 24 in UTC, Nov 25 in its own zone
	mk(e.Admin, "all-day Dec 1", allDay("2026-11-30T11:00:00Z"))
	mk(e.Admin, "all-day Dec 2", allDay("2026-12-01T11:00:00Z"))
	mk(e.Admin, "timed 22:00", timed("2026-11-24T09:00:00Z"))
	mk(e.Admin, "timed 23:45", timed("2026-11-24T10:45:00Z"))
	mk(e.Admin, "timed 00:15", timed("2026-11-24T11:15:00Z"))
	mk(e.Admin, "event tonight", map[string]any{"type": "event", "due_at": "2026-11-24T07:00:00Z"})
	mk(e.Admin, "event Nov 23", map[string]any{"type": "event", "due_at": "2026-11-22T11:00:00Z", "due_is_all_day": true})
	mk(e.Admin, "someday", map[string]any{"importance": 2})
	mk(e.Admin, "someday important", map[string]any{"importance": 5})
	mk(e.Admin, "in progress", map[string]any{"status": "in_progress", "due_at": "2026-11-24T10:45:00Z"})
	mk(e.Admin, "deferred", allDay("2026-11-23T11:00:00Z"))
	mk(e.Admin, "for carol", map[string]any{"assignee": "carol"})
	mk(e.Admin, "after carol", nil)
	mk(e.Admin, "after a secret", nil)
	mk(e.Admin, "on the shelf", map[string]any{"project": "shelf"})
	mk(carol, "carol's own", map[string]any{"assignee": "carol"})
	mk(carol, "hidden today", map[string]any{"project": "secret", "due_at": "2026-11-24T10:45:00Z"})
	mk(carol, "hidden blocker", map[string]any{"project": "secret", "assignee": "carol"})
	e.OK(http.StatusOK, http.MethodPatch, fmt.Sprintf("/v1/tasks/%d", refs["deferred"]), e.Admin,
		map[string]any{"snoozed_until": "2026-11-26T00:00:00Z"})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", refs["after carol"]), e.Admin,
		map[string]any{"link_type": "blocks", "target": refs["for carol"], "direction": "incoming"})
	e.OK(http.StatusCreated, http.MethodPost, fmt.Sprintf("/v1/tasks/%d/links", refs["hidden blocker"]), carol,
		map[string]any{"link_type": "blocks", "target": refs["after a secret"]})

	unscheduled := []string{"someday important", "after a secret", "someday"}
	totals := map[string]int{"unscheduled_total": 3, "blocked_by_others_total": 1, "deferred_total": 1, "later_total": 1,
		"passed_total": 1, "paused_total": 1, "assigned_elsewhere_total": 2}
	for _, c := range []struct {
		name, query, date, zone string
		advance                 time.Duration
		want                    map[string][]string
	}{
		{"Auckland 23:30", "timezone=Pacific/Auckland", "2026-11-24", "Pacific/Auckland", 0, map[string][]string{
			"overdue":  {"all-day Nov 23"},
			"today":    {"all-day Nov 24", "timed 22:00", "timed 23:45"},
			"upcoming": {"all-day Nov 25", "timed 00:15", "all-day Dec 1"},
		}},
		{"UTC 10:30", "timezone=UTC", "2026-11-24", "UTC", 0, map[string][]string{
			"overdue":  {"all-day Nov 23"},
			"today":    {"all-day Nov 24", "timed 22:00", "timed 23:45", "timed 00:15"},
			"upcoming": {"all-day Nov 25", "all-day Dec 1"},
		}},
		{"Auckland 00:30", "timezone=Pacific/Auckland", "2026-11-25", "Pacific/Auckland", time.Hour, map[string][]string{
			"overdue":  {"all-day Nov 23", "all-day Nov 24", "timed 22:00", "timed 23:45"},
			"today":    {"all-day Nov 25", "timed 00:15"},
			"upcoming": {"all-day Dec 1", "all-day Dec 2"},
		}},
		{"an explicit day", "timezone=Pacific/Auckland&date=2026-11-25", "2026-11-25", "Pacific/Auckland", 0, map[string][]string{
			"overdue":  {"all-day Nov 23", "all-day Nov 24", "timed 22:00", "timed 23:45"},
			"today":    {"all-day Nov 25", "timed 00:15"},
			"upcoming": {"all-day Dec 1", "all-day Dec 2"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.Clock.Advance(c.advance)
			m := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda?"+c.query, e.Admin, nil)
			if m["date"] != c.date || m["timezone"] != c.zone {
				t.Fatalf("date %v timezone %v, want %s %s", m["date"], m["timezone"], c.date, c.zone)
			}
			want := map[string][]string{"unscheduled": unscheduled, "in_progress": {"in progress"}, "waiting": {"for carol"},
				"occasions": {"event tonight"}, "blocked_by_others": {"after carol"}}
			if c.date == "2026-11-25" {
				want["occasions"] = []string{}
			}
			for k, v := range c.want {
				want[k] = v
			}
			got := agendaTitles(m)
			for k, v := range want {
				if !slices.Equal(got[k], v) {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
			wantTotals := maps.Clone(totals)
			if c.date == "2026-11-25" {
				wantTotals["later_total"] = 0 // Dec 2 is within the week now
				wantTotals["passed_total"] = 2
			}
			if g := agendaTotals(m); fmt.Sprint(g) != fmt.Sprint(wantTotals) {
				t.Errorf("totals %v, want %v", g, wantTotals)
			}
		})
	}
}

// TestAgendaDefaultsAndRefusals: without parameters the day is today in
// the reader's zone; a bad date or zone is refused naming the parameter.
func TestAgendaDefaultsAndRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 24, 23, 30, 0, 0, time.UTC))
	m := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda", e.Admin, nil)
	if m["date"] != "2026-11-24" || m["timezone"] != "UTC" {
		t.Fatalf("defaults: %v %v", m["date"], m["timezone"])
	}
	for _, c := range []struct{ query, loc string }{
		{"date=2026-13-01", "date"}, {"date=tomorrow", "date"}, {"date=0001-01-01", "date"},
		{"timezone=Mars/Olympus_Mons", "timezone"}, {"timezone=Local", "timezone"},
	} {
		p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, "/v1/agenda?"+c.query, e.Admin, nil)
		if !strings.Contains(fmt.Sprint(p["detail"]), "query "+c.loc) {
			t.Errorf("%s: detail %v does not name %s", c.query, p["detail"], c.loc)
		}
	}
}

// TestAgendaCaps: each list holds at most 50 tasks; its total counts them
// all; the agenda takes the same number of statements whatever the number
// of tasks.
func TestAgendaCaps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	statements := func() int64 {
		before := e.DB.QueryCount()
		e.OK(http.StatusOK, http.MethodGet, "/v1/agenda", e.Admin, nil)
		return e.DB.QueryCount() - before
	}
	var few int64
	for i := range 53 {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": fmt.Sprintf("t%02d", i), "project": "home"})
		if i == 1 {
			statements() // the first fills the caches
			few = statements()
		}
	}
	m := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda", e.Admin, nil)
	if many := statements(); many != few || few == 0 {
		t.Errorf("statements for 2 tasks and for 53: %d and %d; want the same", few, many)
	}
	got := agendaTitles(m)["unscheduled"]
	if len(got) != 50 || got[0] != "t00" || got[49] != "t49" || agendaTotals(m)["unscheduled_total"] != 53 {
		t.Fatalf("unscheduled %d (%v…), total %v", len(got), got[:1], m["unscheduled_total"])
	}
}

// TestDeferralLeavesAndReturns: work deferred to a later instant leaves
// ready, deferred=exclude and the agenda's lists, shows under
// deferred=only, and comes back once the clock reaches it.
func TestDeferralLeavesAndReturns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	ref := lstNum(e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "later", "project": "home"})["ref"])
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "now", "project": "home"})
	e.OK(http.StatusOK, http.MethodPatch, fmt.Sprintf("/v1/tasks/%d", ref), e.Admin, map[string]any{"snoozed_until": "2026-11-24T12:00:00Z"})
	titles := func(query string) []string {
		var out []string
		for _, it := range lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?"+query, e.Admin, nil)) {
			out = append(out, it["title"].(string))
		}
		return out
	}
	for _, step := range []struct {
		advance                       time.Duration
		ready, exclude, only, include []string
		agenda                        []string
		deferred                      int
	}{
		{0, []string{"now"}, []string{"now"}, []string{"later"}, []string{"later", "now"}, []string{"now"}, 1},
		{3*time.Hour - time.Millisecond, []string{"now"}, []string{"now"}, []string{"later"}, []string{"later", "now"}, []string{"now"}, 1},
		{time.Millisecond, []string{"later", "now"}, []string{"later", "now"}, nil, []string{"later", "now"}, []string{"later", "now"}, 0},
	} {
		e.Clock.Advance(step.advance)
		for q, want := range map[string][]string{"ready=true": step.ready, "deferred=exclude": step.exclude,
			"deferred=only": step.only, "deferred=include": step.include} {
			if got := titles(q); !slices.Equal(got, want) {
				t.Errorf("at %s, %s: %q, want %q", e.Clock.Now().Format(time.RFC3339Nano), q, got, want)
			}
		}
		m := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda", e.Admin, nil)
		if got := agendaTitles(m)["unscheduled"]; !slices.Equal(got, step.agenda) || agendaTotals(m)["deferred_total"] != step.deferred {
			t.Errorf("at %s, agenda unscheduled %q deferred %v", e.Clock.Now().Format(time.RFC3339Nano), got, m["deferred_total"])
		}
	}
}

// TestAgendaFollowsEveryChange reads the agenda after each kind of change
// to what it places tasks by: the open tasks behind it are cached between
// requests, and no change may leave a stale copy in use.
func TestAgendaFollowsEveryChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	e.Member("carol", "member")
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	a := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "a", "project": "home"})
	b := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "b", "project": "home"})
	// where names the list a is in, else the totals that count it.
	where := func() string {
		t.Helper()
		m := e.OK(http.StatusOK, http.MethodGet, "/v1/agenda?timezone=UTC", e.Admin, nil)
		for list, titles := range agendaTitles(m) {
			if slices.Contains(titles, "a") {
				return list
			}
		}
		tot := agendaTotals(m)
		return fmt.Sprintf("deferred %d, elsewhere %d", tot["deferred_total"], tot["assigned_elsewhere_total"])
	}
	step := func(name, want string) {
		t.Helper()
		if got := where(); got != want {
			t.Fatalf("after %s: a is in %s, want %s", name, got, want)
		}
	}
	step("creating", "unscheduled")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(a), e.Admin, map[string]any{"due_at": "2026-11-24T15:00:00Z"})
	step("a due today", "today")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(b), e.Admin, map[string]any{"assignee": "carol"})
	link := e.OK(http.StatusCreated, http.MethodPost, tskPath(b, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": a["ref"]})
	step("b, carol's, blocking a", "blocked_by_others")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(b), e.Admin, map[string]any{"assignee": nil})
	step("b unassigned", "today")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(b), e.Admin, map[string]any{"assignee": "carol"})
	step("b carol's again", "blocked_by_others")
	e.OK(http.StatusOK, http.MethodPost, tskPath(b, "complete"), e.Admin, nil)
	step("b done", "today")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(b), e.Admin, map[string]any{"status": "todo"})
	step("b open again", "blocked_by_others")
	if r := e.Do(http.MethodDelete, tskPath(b), e.Admin, nil); r.Status != http.StatusOK {
		t.Fatalf("delete b: %d %s", r.Status, r.Body)
	}
	step("b in the trash", "today")
	e.OK(http.StatusOK, http.MethodPost, tskPath(b, "restore"), e.Admin, nil)
	step("b restored", "blocked_by_others")
	if r := e.Do(http.MethodDelete, tskPath(b, "links", link["id"].(string)), e.Admin, nil); r.Status != http.StatusNoContent {
		t.Fatalf("unlink: %d %s", r.Status, r.Body)
	}
	step("the link removed", "today")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(a), e.Admin, map[string]any{"status": "in_progress"})
	step("a started", "in_progress")
	e.OK(http.StatusOK, http.MethodPatch, tskPath(a), e.Admin, map[string]any{"snoozed_until": "2026-11-25T00:00:00Z"})
	step("a deferred", "deferred 1, elsewhere 1")
	e.Clock.Advance(16 * time.Hour)
	step("the deferral passed", "in_progress")
	e.OK(http.StatusOK, http.MethodPost, tskPath(a, "complete"), e.Admin, nil)
	step("a completed", "deferred 0, elsewhere 1")
}
