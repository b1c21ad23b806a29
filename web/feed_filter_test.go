package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"tend/app"
)

// TestChangesFilters is the change feed's action and project filters: each
// admits exactly the events a filter written in the test over the whole
// feed admits, a project reaches the projects under it and never the
// workspace-level events, and the refusals are 422 validation, a project
// the caller cannot see in the same words as one that does not exist.
func TestChangesFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bob := e.Person("bob")
	e.Join("bob", "member")
	for _, p := range []map[string]any{{"key": "home", "title": "Home"}, {"key": "attic", "title": "Attic", "parent": "home"},
		{"key": "work", "title": "Work"}, {"key": "vault", "title": "Vault", "visibility": "private"}} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, p)
	}
	for _, p := range []string{"home", "attic", "work", "vault"} {
		task := e.prjTask(e.Admin, "Paint the "+p, p)
		e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
	}
	e.OK(http.StatusOK, http.MethodPatch, "/v1/workspaces/default", e.Admin, map[string]any{"name": "Home and work"})

	all := e.feed("/v1/changes?since=0&limit=500", e.Admin).items
	projectOf := map[string]string{}
	for _, p := range e.OK(http.StatusOK, http.MethodGet, "/v1/projects", e.Admin, nil)["items"].([]any) {
		pm := p.(map[string]any)
		projectOf[pm["id"].(string)] = pm["key"].(string)
	}
	tasks := map[string]string{}
	for _, tk := range e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?include_completed=true&limit=100", e.Admin, nil)["items"].([]any) {
		tm := tk.(map[string]any)
		tasks[tm["id"].(string)] = projectOf[tm["project_id"].(string)]
	}
	// inProject is the key of the project an event is filed in, from the
	// records the events are about.
	inProject := func(it map[string]any) string {
		if it["entity_type"] == "project" {
			return projectOf[it["entity_id"].(string)]
		}
		return tasks[it["entity_id"].(string)]
	}
	cases := []struct {
		query string
		want  func(map[string]any) bool
	}{
		{"action=task.completed", func(it map[string]any) bool { return it["action"] == "task.completed" }},
		{"action=task.completed,project.created", func(it map[string]any) bool {
			return it["action"] == "task.completed" || it["action"] == "project.created"
		}},
		{"action=task.*", func(it map[string]any) bool { return strings.HasPrefix(it["action"].(string), "task.") }},
		{"action=+task.created+,,task.created", func(it map[string]any) bool { return it["action"] == "task.created" }},
		{"project=home", func(it map[string]any) bool { p := inProject(it); return p == "home" || p == "attic" }},
		{"project=attic", func(it map[string]any) bool { return inProject(it) == "attic" }},
		{"project=ATTIC&action=task.completed", func(it map[string]any) bool {
			return inProject(it) == "attic" && it["action"] == "task.completed"
		}},
		{"project=work&action=workspace.updated", func(map[string]any) bool { return false }},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			e := e.sub(t)
			var want []any
			for _, it := range all {
				if c.want(it) {
					want = append(want, it["seq"])
				}
			}
			var got []any
			for _, it := range e.allChanges("&"+c.query, e.Admin) {
				got = append(got, it["seq"])
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: seqs %v, want %v", c.query, got, want)
			}
			newest := e.feed("/v1/changes?limit=1&"+c.query, e.Admin).items
			if len(want) > 0 && (len(newest) != 1 || newest[0]["seq"] != want[len(want)-1]) {
				t.Fatalf("%s, newest first: %v, want seq %v", c.query, newest, want[len(want)-1])
			}
		})
	}
	cursor := e.feed("/v1/changes?since=0&limit=1&action=task.created", e.Admin).cursor
	for _, q := range []string{"action=task.nonsense", "action=nope.*", "action=task.", "action=*", "project=nope", "project=vault",
		"since=0&limit=1&action=task.completed&cursor=" + cursor, "since=0&limit=1&cursor=" + cursor} {
		t.Run(q, func(t *testing.T) {
			e.sub(t).Problem(http.StatusUnprocessableEntity, string(app.CodeValidation), http.MethodGet, "/v1/changes?"+q, bob, nil)
		})
	}
	hidden := e.Problem(http.StatusUnprocessableEntity, string(app.CodeValidation), http.MethodGet, "/v1/changes?project=vault", bob, nil)
	missing := e.Problem(http.StatusUnprocessableEntity, string(app.CodeValidation), http.MethodGet, "/v1/changes?project=nope", bob, nil)
	hj, _ := json.Marshal(hidden)
	mj, _ := json.Marshal(missing)
	if strings.ReplaceAll(string(hj), "vault", "nope") != string(mj) {
		t.Errorf("a project bob cannot see answers\n%s\nnot as a missing one does:\n%s", hj, mj)
	}
}

// TestChangesWaitFiltered: a wait with a filter is woken by every commit
// but answers only when an event it admits has committed.
func TestChangesWaitFiltered(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, app.Options{Version: "test"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "home", "title": "Home"})
	newest := int64(e.feed("/v1/changes?limit=1", e.Admin).items[0]["seq"].(float64))
	got := make(chan feedPage, 1)
	go func() {
		got <- e.feed(fmt.Sprintf("/v1/changes?since=%d&wait=60&action=task.completed&project=home", newest+1), e.Admin)
	}()
	for e.Svc.Waiting() == 0 {
		select {
		case p := <-got:
			t.Fatalf("answered before anything was written: %v", p.items)
		default:
			runtime.Gosched()
		}
	}
	elsewhere := e.prjTask(e.Admin, "Elsewhere", "")
	e.OK(http.StatusOK, http.MethodPost, tskPath(elsewhere, "complete"), e.Admin, nil)
	task := e.prjTask(e.Admin, "Paint", "home")
	e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
	if p := <-got; len(p.items) != 1 || p.items[0]["action"] != "task.completed" || p.items[0]["entity_id"] != task["id"] {
		t.Fatalf("the filtered wait answered %v, want the completion in home alone", p.items)
	}
}
