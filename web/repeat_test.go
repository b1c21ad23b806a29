package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tend/web/webtest"
)

// TestTaskFromLine: a captured line makes the task it says, read at the
// request's moment in the reader's zone; fields sent beside it win.
func TestTaskFromLine(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)) // a Monday
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin,
		map[string]any{"text": "Water plants by friday #garden !4/2 ~15m +home"})
	if task["title"] != "Water plants" || task["due_at"] != "2026-03-06T00:00:00Z" || task["due_is_all_day"] != true ||
		task["project"] != "home" || task["importance"] != 4.0 || task["urgency"] != 2.0 || task["estimate_minutes"] != 15.0 ||
		task["timezone"] != "UTC" {
		t.Fatalf("line read as %v", task)
	}
	if tags := task["tags"].([]any); len(tags) != 1 || tags[0] != "garden" {
		t.Fatalf("tags %v", tags)
	}
	won := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin,
		map[string]any{"text": "Call mum tomorrow !2", "importance": 5, "title": "Call mother"})
	if won["title"] != "Call mother" || won["importance"] != 5.0 || won["due_at"] != "2026-03-03T00:00:00Z" {
		t.Fatalf("structured fields should win: %v", won)
	}
	kept := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"text": "Fix #42 crash"})
	if kept["title"] != "Fix #42 crash" || len(kept["tags"].([]any)) != 0 {
		t.Fatalf("a mention stays in the title: %v", kept)
	}
	rep := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"text": "Pay rent every month on the 1st #home"})
	if rep["recurrence_description"] == nil || rep["due_at"] != "2026-04-01T00:00:00Z" || rep["occurrence"] != 1.0 ||
		rep["series_id"] == nil || rep["repeat_rule"] == nil {
		t.Fatalf("repeat read as %v", rep)
	}
	p := e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"text": "#only +tags"})
	assertLoc(t, p, "body.text")
	p = e.Problem(http.StatusUnprocessableEntity, "recurrence", http.MethodPost, "/v1/tasks", e.Admin,
		map[string]any{"title": "x", "repeat": "every blue moon"})
	assertLoc(t, p, "body.repeat")
}

// series lists the tasks of a series, open and finished.
func (e *env) series(id any) []map[string]any {
	list := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include_completed=true&limit=200", e.Admin, nil)
	var out []map[string]any
	for _, it := range list["items"].([]any) {
		if m := it.(map[string]any); m["series_id"] == id {
			out = append(out, m)
		}
	}
	return out
}

// TestRepeatCompleteSkip: completing brings the next occurrence as a new
// task of the series, skipping cancels this one and brings the next, a
// bounded series ends, and finishing twice brings one next, even when 16
// completions arrive at once.
func TestRepeatCompleteSkip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	first := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin,
		map[string]any{"title": "Stretch", "repeat": "every day for 3 times", "tags": []string{"health"}, "importance": 3})
	sid := first["series_id"]
	done := e.OK(http.StatusOK, http.MethodPost, tskPath(first, "complete"), e.Admin, nil)
	if done["status_category"] != "done" {
		t.Fatalf("completed: %v", done)
	}
	e.OK(http.StatusOK, http.MethodPost, tskPath(first, "complete"), e.Admin, nil)
	s := e.series(sid)
	if len(s) != 2 {
		t.Fatalf("complete twice: %d tasks in the series, want 2", len(s))
	}
	var second map[string]any
	for _, x := range s {
		if x["occurrence"] == 2.0 {
			second = x
		}
	}
	if second == nil || second["title"] != "Stretch" || second["due_at"] != "2026-03-03T00:00:00Z" || second["importance"] != 3.0 ||
		len(second["tags"].([]any)) != 1 || second["status_category"] != "todo" {
		t.Fatalf("next occurrence %v", second)
	}
	skipped := e.OK(http.StatusOK, http.MethodPost, tskPath(second, "skip"), e.Admin, nil)
	if skipped["status_category"] != "cancelled" {
		t.Fatalf("skipped: %v", skipped)
	}
	s = e.series(sid)
	if len(s) != 3 {
		t.Fatalf("after a skip: %d tasks, want 3", len(s))
	}
	for _, x := range s {
		if x["occurrence"] == 3.0 {
			e.OK(http.StatusOK, http.MethodPost, tskPath(x, "complete"), e.Admin, nil)
		}
	}
	if s = e.series(sid); len(s) != 3 {
		t.Fatalf("a series of 3 ends at the third: %d tasks", len(s))
	}

	// Reopened and finished again: the next exists already, nothing new.
	e.OK(http.StatusOK, http.MethodPatch, tskPath(first), e.Admin, map[string]any{"status": "todo"})
	e.OK(http.StatusOK, http.MethodPost, tskPath(first, "complete"), e.Admin, nil)
	if s = e.series(sid); len(s) != 3 {
		t.Fatalf("reopened and completed again: %d tasks, want 3", len(s))
	}

	// From completion: the next counts from the moment it was done.
	filter := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"text": "Change filter every! 3 days"})
	e.Clock.Advance(5 * 24 * time.Hour) // done late, on March 7th
	e.OK(http.StatusOK, http.MethodPost, tskPath(filter, "complete"), e.Admin, nil)
	for _, x := range e.series(filter["series_id"]) {
		if x["occurrence"] == 2.0 && x["due_at"] != "2026-03-10T00:00:00Z" {
			t.Fatalf("3 days after done on March 7th: due %v", x["due_at"])
		}
	}
	// Until a date: the last occurrence ends the series.
	bounded := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Trial", "repeat": "every day until 2026-03-07"})
	e.OK(http.StatusOK, http.MethodPost, tskPath(bounded, "complete"), e.Admin, nil)
	if s := e.series(bounded["series_id"]); len(s) != 1 {
		t.Fatalf("until the day it is due: %d tasks, want 1", len(s))
	}

	plain := e.CreateTask(e.Admin, map[string]any{"title": "Once"})
	e.Problem(http.StatusConflict, "not_repeating", http.MethodPost, tskPath(plain, "skip"), e.Admin, nil)
	e.Problem(http.StatusConflict, "not_repeating", http.MethodGet, tskPath(plain, "occurrences"), e.Admin, nil)

	daily := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Log", "repeat": "every day"})
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Do(http.MethodPost, tskPath(daily, "complete"), e.Admin, nil)
		}()
	}
	wg.Wait()
	if s := e.series(daily["series_id"]); len(s) != 2 {
		t.Fatalf("16 concurrent completions: %d tasks in the series, want 2", len(s))
	}
}

// TestRepeatUpdate: applies_to decides whether a change reaches the next
// occurrence; its absence and its presence on a plain task are refused.
func TestRepeatUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Review", "repeat": "every week"})
	p := e.Problem(http.StatusUnprocessableEntity, "applies_to_required", http.MethodPatch, tskPath(task), e.Admin, map[string]any{"title": "x"})
	assertLoc(t, p, "body.applies_to")
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, tskPath(task), e.Admin,
		map[string]any{"title": "x", "applies_to": "always"})
	// Status, plan and deferral belong to the occurrence: no applies_to.
	planned := e.OK(http.StatusOK, http.MethodPatch, tskPath(task), e.Admin, map[string]any{"plan": "tomorrow", "defer": "wednesday"})
	if planned["starts_at"] != "2026-03-03T00:00:00Z" || planned["starts_is_all_day"] != true || planned["snoozed_until"] != "2026-03-04T00:00:00Z" {
		t.Fatalf("plan and defer: %v", planned)
	}
	this := e.OK(http.StatusOK, http.MethodPatch, tskPath(task), e.Admin, map[string]any{"title": "Review (short)", "applies_to": "this_one"})
	if this["title"] != "Review (short)" {
		t.Fatalf("this_one: %v", this)
	}
	e.OK(http.StatusOK, http.MethodPatch, tskPath(task), e.Admin, map[string]any{"importance": 4, "applies_to": "from_now_on"})
	e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
	var next map[string]any
	for _, x := range e.series(task["series_id"]) {
		if x["occurrence"] == 2.0 {
			next = x
		}
	}
	if next == nil || next["title"] != "Review" || next["importance"] != 4.0 || next["starts_at"] != nil || next["snoozed_until"] != nil {
		t.Fatalf("the next occurrence keeps the series' title and takes from_now_on changes: %v", next)
	}
	until := e.OK(http.StatusOK, http.MethodPatch, tskPath(next), e.Admin, map[string]any{"until": "2026-03-20", "applies_to": "from_now_on"})
	if until["due_at"] != "2026-03-20T00:00:00Z" || until["due_is_all_day"] != true {
		t.Fatalf("until sets the due: %v", until)
	}
	stopped := e.OK(http.StatusOK, http.MethodPatch, tskPath(next), e.Admin, map[string]any{"repeat": ""})
	if stopped["repeat_rule"] != nil || stopped["recurrence_description"] != nil {
		t.Fatalf("repeat \"\" stops it: %v", stopped)
	}
	// A due moved for this one keeps the schedule; moved from now on, the
	// schedule follows it.
	next2 := func(task map[string]any) any {
		e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
		for _, x := range e.series(task["series_id"]) {
			if x["occurrence"] == task["occurrence"].(float64)+1 {
				return x["due_at"]
			}
		}
		return nil
	}
	moved := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Bins", "repeat": "every monday"})
	moved = e.OK(http.StatusOK, http.MethodPatch, tskPath(moved), e.Admin, map[string]any{"until": "wednesday", "applies_to": "this_one"})
	if due := next2(moved); due != "2026-03-09T00:00:00Z" {
		t.Fatalf("this_one due change: next due %v, want the schedule's Monday", due)
	}
	shifted := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Gym", "repeat": "every week"})
	shifted = e.OK(http.StatusOK, http.MethodPatch, tskPath(shifted), e.Admin, map[string]any{"until": "wednesday", "applies_to": "from_now_on"})
	if due := next2(shifted); due != "2026-03-11T00:00:00Z" {
		t.Fatalf("from_now_on due change: next due %v, want a week after the new due", due)
	}

	plain := e.CreateTask(e.Admin, map[string]any{"title": "Once"})
	if got := e.OK(http.StatusOK, http.MethodPatch, tskPath(plain), e.Admin, map[string]any{"until": "friday"}); got["timezone"] != "UTC" {
		t.Fatalf("a due given takes the reader's zone: %v", got["timezone"])
	}
	p = e.Problem(http.StatusUnprocessableEntity, "applies_to_not_repeating", http.MethodPatch, tskPath(plain), e.Admin,
		map[string]any{"title": "y", "applies_to": "this_one"})
	assertLoc(t, p, "body.applies_to")
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPatch, tskPath(plain), e.Admin, map[string]any{"defer": "someday soon"})
	e.Problem(http.StatusUnprocessableEntity, "recurrence", http.MethodPatch, tskPath(plain), e.Admin, map[string]any{"repeat": "every blue moon"})
	started := e.OK(http.StatusOK, http.MethodPatch, tskPath(plain), e.Admin, map[string]any{"repeat": "every monday"})
	if started["due_at"] != "2026-03-09T00:00:00Z" || started["series_id"] == nil {
		t.Fatalf("a repeat started: %v", started)
	}
}

// TestOccurrencesAndParse: the schedule is computed on request and cut
// by limit and until; a phrase is read without storing anything.
func TestOccurrencesAndParse(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Clock.Set(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Standup", "repeat": "every weekday at 9am"})
	o := e.OK(http.StatusOK, http.MethodGet, tskPath(task, "occurrences")+"?limit=3", e.Admin, nil)
	occ := o["occurrences"].([]any)
	if len(occ) != 3 || o["has_more"] != true || occ[0] != "2026-03-02T09:00:00Z" || o["description"] == "" {
		t.Fatalf("occurrences %v", o)
	}
	o = e.OK(http.StatusOK, http.MethodGet, tskPath(task, "occurrences")+"?until=2026-03-06", e.Admin, nil)
	if n := len(o["occurrences"].([]any)); n != 5 || o["has_more"] != false {
		t.Fatalf("until a friday: %d occurrences, has_more %v", n, o["has_more"])
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, tskPath(task, "occurrences")+"?limit=100000", e.Admin, nil)
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, tskPath(task, "occurrences")+"?until=whenever", e.Admin, nil)

	rd := e.OK(http.StatusOK, http.MethodPost, "/v1/recurrence/parse", e.Admin,
		map[string]any{"text": "every other friday at 9am", "from": "2026-03-02T00:00:00Z", "timezone": "Europe/Berlin"})
	if rd["text"] != "every other friday at 9am" || len(rd["occurrences"].([]any)) == 0 ||
		rd["occurrences"].([]any)[0] != "2026-03-06T08:00:00Z" || rd["rule"] == "" {
		t.Fatalf("reading %v", rd)
	}
	p := e.Problem(http.StatusUnprocessableEntity, "recurrence", http.MethodPost, "/v1/recurrence/parse", e.Admin, map[string]any{"text": "every blue moon"})
	assertLoc(t, p, "body.text")
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/recurrence/parse", e.Admin, map[string]any{"text": ""})
}

// TestMetaGrammars: GET /v1/meta describes each written language, from the
// parsers' own tables, beside the search syntax.
func TestMetaGrammars(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	meta := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)
	gs, _ := meta["grammars"].(map[string]any)
	for _, name := range []string{"search", "line", "date", "repeat", "duration", "filter"} {
		g, _ := gs[name].(map[string]any)
		if g == nil || g["description"] == "" || len(g["examples"].([]any)) == 0 {
			t.Errorf("grammar %s: %v", name, g)
		}
	}
}

// TestFinishNamesTheNextOccurrence: completing or skipping an occurrence
// answers the task as every task action does, and a Link header naming the
// occurrence it brought; the last of a series, a task finished again and a
// task that does not repeat answer no Link.
func TestFinishNamesTheNextOccurrence(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	first := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Stretch", "repeat": "every day for 3 times"})
	ref := first["ref"].(float64)
	for i, step := range []struct{ action, link string }{
		{"complete", fmt.Sprintf(`</v1/tasks/%v>; rel="next"`, ref+1)},
		{"skip", fmt.Sprintf(`</v1/tasks/%v>; rel="next"`, ref+2)},
		{"complete", ""}, // the third ends the series
	} {
		res := e.Do(http.MethodPost, fmt.Sprintf("/v1/tasks/%v/%s", ref+float64(i), step.action), e.Admin, nil)
		if res.Status != http.StatusOK || res.Header.Get("Link") != step.link {
			t.Errorf("%s #%v: %d, Link %q; want 200, %q", step.action, ref+float64(i), res.Status, res.Header.Get("Link"), step.link)
		}
	}
	again := e.Do(http.MethodPost, fmt.Sprintf("/v1/tasks/%v/complete", ref), e.Admin, nil)
	once := e.Do(http.MethodPost, tskPath(e.CreateTask(e.Admin, map[string]any{"title": "Once"}), "complete"), e.Admin, nil)
	for _, res := range []webtest.Response{again, once} {
		if res.Status != http.StatusOK || res.Header.Get("Link") != "" {
			t.Errorf("%d, Link %q; want 200 and none", res.Status, res.Header.Get("Link"))
		}
	}
}

// TestRepeatCarriesBlocks: finishing an occurrence gives the next one its
// "blocks" links with open tasks, both ways, so a task waiting on the
// repeat stays blocked by the series; a finished far end and other link
// types stay behind with the occurrence, which keeps its own links.
func TestRepeatCarriesBlocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rep := e.CreateTask(e.Admin, map[string]any{"title": "Weekly backup", "repeat": "every week"})
	deploy := e.CreateTask(e.Admin, map[string]any{"title": "Deploy"})
	upstream := e.CreateTask(e.Admin, map[string]any{"title": "Renew the disk"})
	shipped := e.CreateTask(e.Admin, map[string]any{"title": "Shipped already"})
	related := e.CreateTask(e.Admin, map[string]any{"title": "Related"})
	link := func(from map[string]any, typ string, to map[string]any) {
		e.OK(http.StatusCreated, http.MethodPost, tskPath(from, "links"), e.Admin, map[string]any{"link_type": typ, "target": to["ref"]})
	}
	link(rep, "blocks", deploy)
	link(upstream, "blocks", rep)
	link(rep, "blocks", shipped)
	link(rep, "relates_to", related)
	e.OK(http.StatusOK, http.MethodPost, tskPath(shipped, "complete"), e.Admin, nil)

	prev := rep
	for _, action := range []string{"complete", "skip"} {
		had := len(e.tskLinks(e.Admin, prev))
		res := e.Do(http.MethodPost, tskPath(prev, action), e.Admin, nil)
		if res.Status != http.StatusOK || res.Header.Get("Link") == "" {
			t.Fatalf("%s: %d, Link %q", action, res.Status, res.Header.Get("Link"))
		}
		next := e.OK(http.StatusOK, http.MethodGet, strings.TrimSuffix(strings.TrimPrefix(res.Header.Get("Link"), "<"), `>; rel="next"`), e.Admin, nil)
		var got []string
		for _, m := range e.tskLinks(e.Admin, next) {
			got = append(got, fmt.Sprintf("%s %s #%v", m["direction"], m["link_type"], m["other"].(map[string]any)["ref"]))
		}
		want := []string{fmt.Sprintf("outgoing blocks #%v", deploy["ref"]), fmt.Sprintf("incoming blocks #%v", upstream["ref"])}
		if !slices.Equal(got, want) {
			t.Errorf("after %s the next occurrence's links are %q; want %q", action, got, want)
		}
		tskWant(t, e.tskGet(deploy), map[string]any{"blocked": true})
		tskWant(t, next, map[string]any{"blocked": true, "blocking": true})
		if n := len(e.tskLinks(e.Admin, prev)); n != had {
			t.Errorf("after %s the finished occurrence kept %d links; want its %d", action, n, had)
		}
		prev = next
	}
	history := e.OK(http.StatusOK, http.MethodGet, tskPath(prev, "events")+"?order=seq", e.Admin, nil)
	var actions []any
	for _, ev := range history["items"].([]any) {
		actions = append(actions, ev.(map[string]any)["action"])
	}
	if fmt.Sprint(actions) != "[task.created link.created link.created]" {
		t.Errorf("the carried links' history: %v", actions)
	}
}
