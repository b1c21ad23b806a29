package web_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"tend/web/webtest"
)

func TestTaskCreate(t *testing.T) {
	t.Parallel()
	e := newProjectsEnv(t)

	t.Run("defaults", func(t *testing.T) {
		got := e.CreateTask(e.Admin, map[string]any{"title": "  Water the plants  "})
		tskWant(t, got, map[string]any{"title": "Water the plants", "project": "inbox", "project_path": "inbox", "type": "task",
			"type_label": "Task", "type_category": "work", "type_is_default": true, "status": "todo", "status_label": "To do",
			"status_category": "todo", "status_is_default": true, "is_complete": false, "completed_at": nil, "version": 1,
			"workspace": "default", "tags": []any{}, "assignee": nil, "claimed_by": nil, "parent": nil, "deleted_at": nil,
			"blocked": false, "blocking": false, "sub_tasks_done": true, "priority_score": 6, "description": nil})
		if _, ok := got["ref"].(float64); !ok {
			t.Errorf("ref is sent as an integer: %v", got["ref"])
		}
		if got["created_by"] == nil || got["created_at"] == nil {
			t.Errorf("created_by and created_at are stamped: %v", got)
		}
	})
	t.Run("structured fields", func(t *testing.T) {
		got := e.CreateTask(e.Admin, map[string]any{"title": "Fix login", "project": "web", "type": "bug", "status": "in_progress",
			"tags": []string{"Urgent", "#backend", "urgent"}, "importance": 5, "urgency": 5, "estimate_minutes": 90,
			"due_at": "2030-01-02T03:04:05+01:00", "description": "it breaks", "assignee": "admin"})
		tskWant(t, got, map[string]any{"project": "web", "project_path": "alpha/web", "type": "bug", "status": "in_progress",
			"status_category": "in_progress", "importance": 5, "urgency": 5, "estimate_minutes": 90, "due_at": "2030-01-02T02:04:05Z",
			"description": "it breaks", "assignee": "admin", "assignee_is_agent": false, "assignee_answers_to": nil})
		if tags := fmt.Sprint(got["tags"]); tags != "[backend Urgent]" {
			t.Errorf("tags = %s, want [backend Urgent] (deduplicated ignoring case, without '#', in name order)", tags)
		}
		if score := got["priority_score"].(float64); score <= 16 {
			t.Errorf("priority_score %v: importance and urgency 5 and in progress score above 16", score)
		}
	})
	t.Run("subtask inherits its parent's project", func(t *testing.T) {
		parent := e.CreateTask(e.Admin, map[string]any{"title": "Parent", "project": "beta"})
		child := e.CreateTask(e.Admin, map[string]any{"title": "Child", "parent": parent["ref"]})
		tskWant(t, child, map[string]any{"project": "beta", "parent": parent["id"], "parent_ref": parent["ref"]})
		same := e.CreateTask(e.Admin, map[string]any{"title": "Child by id", "parent": parent["id"], "project": "beta"})
		tskWant(t, same, map[string]any{"project": "beta", "parent_ref": parent["ref"]})
	})
	// The domain's refusals are app's TestTaskCreate; here one of them, and
	// the body's own, as the wire answers them.
	refusals := []struct {
		name string
		body map[string]any
		loc  string
	}{
		{"title missing", map[string]any{"description": "no title"}, "body.title"},
		{"unknown field", map[string]any{"title": "x", "colour": "red"}, "body.colour"},
		{"title of the wrong type", map[string]any{"title": 42}, "body.title"},
	}
	for _, c := range refusals {
		t.Run("refused: "+c.name, func(t *testing.T) {
			p := e.sub(t).Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, "/v1/tasks", e.Admin, c.body)
			assertLoc(t, p, c.loc)
		})
	}
}

func TestTaskGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Read me"})
	byRef := e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)
	byID := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+task["id"].(string), e.Admin, nil)
	if byRef["id"] != task["id"] || byID["ref"] != task["ref"] || byID["title"] != "Read me" {
		t.Fatalf("by ref %v, by id %v", byRef, byID)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/9999", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/0b7c9a52-7a39-4b8e-9d4c-4f1d2c0d8e11", e.Admin, nil)
	e.Problem(http.StatusUnauthorized, "unauthorized", http.MethodGet, tskPath(task), "", nil)
}

func TestTaskUpdate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Plan", "description": "first", "importance": 4, "urgency": 2,
		"due_at": "2030-05-01T10:00:00Z", "assignee": "admin", "tags": []string{"home"}, "estimate_minutes": 30})
	path := tskPath(task)

	t.Run("omitted fields are untouched", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"title": "Plan the week"})
		tskWant(t, got, map[string]any{"title": "Plan the week", "description": "first", "importance": 4, "urgency": 2,
			"due_at": "2030-05-01T10:00:00Z", "assignee": "admin", "tags": []any{"home"}, "estimate_minutes": 30, "version": 2})
	})
	t.Run("null clears", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin,
			map[string]any{"due_at": nil, "assignee": nil, "importance": nil, "tags": nil, "description": nil})
		tskWant(t, got, map[string]any{"title": "Plan the week", "due_at": nil, "assignee": nil, "importance": nil, "tags": []any{},
			"description": nil, "urgency": 2, "estimate_minutes": 30, "version": 3})
		if again := e.tskGet(task); fmt.Sprint(again) != fmt.Sprint(got) {
			t.Errorf("the stored task differs from the answer:\n%v\n%v", again, got)
		}
	})
	t.Run("a PATCH that changes nothing keeps the version", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"urgency": 2, "title": " Plan the week "})
		tskWant(t, got, map[string]any{"version": 3, "title": "Plan the week"})
	})
	t.Run("status done completes and back reopens", func(t *testing.T) {
		done := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"status": "done"})
		tskWant(t, done, map[string]any{"status": "done", "status_category": "done", "is_complete": true, "version": 4})
		if done["completed_at"] == nil {
			t.Errorf("completed_at is set on a finished status: %v", done)
		}
		back := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"status": "todo"})
		tskWant(t, back, map[string]any{"status": "todo", "is_complete": false, "completed_at": nil, "version": 5})
		cancelled := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"status": "cancelled"})
		tskWant(t, cancelled, map[string]any{"is_complete": true, "status_category": "cancelled"})
		e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"status": "todo"})
	})
	t.Run("expected_version", func(t *testing.T) {
		cur := e.tskGet(task)
		v := int(cur["version"].(float64))
		p := e.Problem(http.StatusConflict, "version_conflict", http.MethodPatch, path, e.Admin,
			map[string]any{"title": "stale", "expected_version": v - 1})
		if p["detail"] == "" {
			t.Errorf("the conflict says why: %v", p)
		}
		if e.tskGet(task)["title"] != cur["title"] {
			t.Fatal("a refused write changed the task")
		}
		got := e.OK(http.StatusOK, http.MethodPatch, path, e.Admin, map[string]any{"title": "fresh", "expected_version": v})
		tskWant(t, got, map[string]any{"title": "fresh", "version": v + 1})
	})
	// The domain's refusals are app's TestTaskUpdate; here the nulls a
	// PATCH may not send and the bodies the wire refuses.
	refusals := []struct {
		name string
		body any
	}{
		{"title null", map[string]any{"title": nil}},
		{"status null", map[string]any{"status": nil}},
		{"type null", map[string]any{"type": nil}},
		{"unknown field", map[string]any{"colour": "red"}},
		{"empty body", ""},
	}
	for _, c := range refusals {
		t.Run("refused: "+c.name, func(t *testing.T) {
			before := e.tskGet(task)
			webtest.AssertProblem(t, e.Do(http.MethodPatch, path, e.Admin, c.body), http.StatusUnprocessableEntity, "validation")
			if after := e.tskGet(task); after["version"] != before["version"] {
				t.Fatalf("a refused PATCH moved the version from %v to %v", before["version"], after["version"])
			}
		})
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, "/v1/tasks/9999", e.Admin, map[string]any{"title": "x"})
}

func TestTaskDeleteRestore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Throw away"})
	gone := e.OK(http.StatusOK, http.MethodDelete, tskPath(task), e.Admin, nil)
	if gone["id"] != task["id"] || gone["deleted_at"] == nil {
		t.Fatalf("DELETE returns the trashed task: %v", gone)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, tskPath(task), e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPatch, tskPath(task), e.Admin, map[string]any{"title": "x"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodDelete, tskPath(task), e.Admin, nil)
	trash := e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?deleted=true", e.Admin, nil)["items"].([]any)
	if len(trash) != 1 || trash[0].(map[string]any)["id"] != task["id"] {
		t.Fatalf("the trash lists the task: %v", trash)
	}

	back := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "restore"), e.Admin, nil)
	tskWant(t, back, map[string]any{"id": task["id"], "deleted_at": nil, "title": "Throw away"})
	e.OK(http.StatusOK, http.MethodGet, tskPath(task), e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, tskPath(task, "restore"), e.Admin, nil)
	got := tskActions(e.tskEvents(e.Admin, task, "seq"))
	if want := []string{"task.created", "task.deleted", "task.restored"}; !slices.Equal(got, want) {
		t.Fatalf("events %v, want %v", got, want)
	}
}

func TestTaskMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.tskProject("alpha", "")
	e.tskProject("beta", "")
	e.tskProject("deep", "beta")
	a := e.CreateTask(e.Admin, map[string]any{"title": "A", "project": "alpha"})
	b := e.CreateTask(e.Admin, map[string]any{"title": "B", "project": "alpha"})
	b1 := e.CreateTask(e.Admin, map[string]any{"title": "B1", "parent": b["ref"]})
	b11 := e.CreateTask(e.Admin, map[string]any{"title": "B1.1", "parent": b1["ref"]})

	t.Run("under another task, with the subtree", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"parent": a["ref"]})
		tskWant(t, got, map[string]any{"parent": a["id"], "parent_ref": a["ref"], "project": "alpha"})
		tskWant(t, e.tskGet(b1), map[string]any{"parent_ref": b["ref"]})
		tskWant(t, e.tskGet(b11), map[string]any{"parent_ref": b1["ref"]})
		under := e.OK(http.StatusOK, http.MethodGet, fmt.Sprintf("/v1/tasks?parent=%v&subtree=true", a["ref"]), e.Admin, nil)["items"].([]any)
		if len(under) != 3 {
			t.Fatalf("the subtree of A holds B, B1 and B1.1: %v", under)
		}
	})
	t.Run("a cycle is refused", func(t *testing.T) {
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, tskPath(a, "move"), e.Admin, map[string]any{"parent": a["ref"]})
		e.Problem(http.StatusConflict, "cycle", http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"parent": b11["id"]})
		e.Problem(http.StatusConflict, "cycle", http.MethodPatch, tskPath(b), e.Admin, map[string]any{"parent": b1["ref"]})
		tskWant(t, e.tskGet(a), map[string]any{"parent": nil})
	})
	t.Run("refiled into another project with the subtree", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"project": "deep"})
		tskWant(t, got, map[string]any{"project": "deep", "project_path": "beta/deep", "parent": nil})
		for _, sub := range []map[string]any{b1, b11} {
			tskWant(t, e.tskGet(sub), map[string]any{"project": "deep", "project_path": "beta/deep"})
		}
		tskWant(t, e.tskGet(b1), map[string]any{"parent_ref": b["ref"]})
		tskWant(t, e.tskGet(a), map[string]any{"project": "alpha", "sub_tasks": 0})
	})
	t.Run("under a task in another project follows its project", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"parent": a["ref"]})
		tskWant(t, got, map[string]any{"project": "alpha", "parent_ref": a["ref"]})
		tskWant(t, e.tskGet(b11), map[string]any{"project": "alpha", "project_path": "alpha"})
	})
	t.Run("to the top level", func(t *testing.T) {
		got := e.OK(http.StatusOK, http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"parent": nil})
		tskWant(t, got, map[string]any{"parent": nil, "parent_ref": nil, "project": "alpha"})
	})
	t.Run("refusals", func(t *testing.T) { // the rest are app's TestTaskMove
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{})
		e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, tskPath(b, "move"), e.Admin, map[string]any{"project": nil})
	})
	moved := 0
	for _, a := range tskActions(e.tskEvents(e.Admin, b, "")) {
		if a == "task.moved" {
			moved++
		}
	}
	if moved != 4 {
		t.Errorf("%d task.moved events on B, want 4 (one per move that changed something)", moved)
	}
}

func TestTaskComplete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "Finish"})
	got := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
	tskWant(t, got, map[string]any{"status": "done", "status_category": "done", "is_complete": true, "version": 2})
	if got["completed_at"] == nil {
		t.Fatalf("completed_at is stamped: %v", got)
	}
	again := e.OK(http.StatusOK, http.MethodPost, tskPath(task, "complete"), e.Admin, nil)
	tskWant(t, again, map[string]any{"status": "done", "version": 2, "completed_at": got["completed_at"]})
	if acts := tskActions(e.tskEvents(e.Admin, task, "seq")); !slices.Equal(acts, []string{"task.created", "task.completed"}) {
		t.Fatalf("events %v", acts)
	}
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/complete", e.Admin, nil)
}

func TestTaskVerifications(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bot := e.tskAgent("bot")
	task := e.CreateTask(e.Admin, map[string]any{"title": "Verify"})
	path := tskPath(task, "verifications")
	first := e.OK(http.StatusCreated, http.MethodPost, path, bot, map[string]any{"passed": true, "summary": "go test ./...", "commit_sha": "abc123"})
	tskWant(t, first, map[string]any{"passed": true, "summary": "go test ./...", "commit_sha": "abc123", "actor": "bot",
		"task_id": task["id"], "tree_hash": nil})
	ran, err := time.Parse(time.RFC3339Nano, first["ran_at"].(string))
	if err != nil || !ran.Equal(e.Clock.Now()) {
		t.Fatalf("ran_at %v is stamped by the service now (%v)", first["ran_at"], err)
	}
	if first["actor_user_id"] == nil || first["actor_token_id"] == nil {
		t.Fatalf("the actor is recorded: %v", first)
	}
	second := e.OK(http.StatusCreated, http.MethodPost, path, e.Admin, map[string]any{"passed": false, "output_excerpt": "FAIL"})
	tskWant(t, second, map[string]any{"passed": false, "actor": "admin", "summary": nil})

	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"summary": "no verdict"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"passed": true, "ran_at": "2020-01-01T00:00:00Z"})
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodPost, path, e.Admin, map[string]any{"passed": "yes"})
	e.Problem(http.StatusNotFound, "not_found", http.MethodPost, "/v1/tasks/9999/verifications", e.Admin, map[string]any{"passed": true})

	list := e.OK(http.StatusOK, http.MethodGet, path, e.Admin, nil)
	items := list["items"].([]any)
	if len(items) != 2 || items[0].(map[string]any)["id"] != second["id"] || items[1].(map[string]any)["id"] != first["id"] {
		t.Fatalf("verifications newest first: %v", items)
	}
	if page := list["page"].(map[string]any); page["has_more"] != false {
		t.Fatalf("page %v", page)
	}
	evs := e.tskEvents(e.Admin, task, "")
	if evs[0]["action"] != "task.verified" || evs[0]["subject_type"] != "verification" || evs[0]["subject_id"] != second["id"] {
		t.Fatalf("a verification is recorded in the task's history: %v", evs[0])
	}
}

func TestTaskComputedFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.tskAgent("bot")
	e.tskProject("alpha", "")
	e.tskProject("web", "alpha")

	t.Run("agent assignee", func(t *testing.T) {
		got := e.CreateTask(e.Admin, map[string]any{"title": "For the bot", "assignee": "bot", "project": "web"})
		tskWant(t, got, map[string]any{"assignee": "bot", "assignee_is_agent": true, "assignee_answers_to": "admin",
			"project_path": "alpha/web"})
		if got["assignee_id"] == nil {
			t.Errorf("assignee_id is set: %v", got)
		}
	})
	t.Run("sub_tasks_done", func(t *testing.T) {
		parent := e.CreateTask(e.Admin, map[string]any{"title": "Parent"})
		c1 := e.CreateTask(e.Admin, map[string]any{"title": "C1", "parent": parent["ref"]})
		c2 := e.CreateTask(e.Admin, map[string]any{"title": "C2", "parent": parent["ref"]})
		tskWant(t, e.tskGet(parent), map[string]any{"sub_tasks_done": false, "sub_tasks": 2})
		e.OK(http.StatusOK, http.MethodPost, tskPath(c1, "complete"), e.Admin, nil)
		tskWant(t, e.tskGet(parent), map[string]any{"sub_tasks_done": false})
		e.OK(http.StatusOK, http.MethodPatch, tskPath(c2), e.Admin, map[string]any{"status": "cancelled"})
		tskWant(t, e.tskGet(parent), map[string]any{"sub_tasks_done": true, "sub_tasks": 2})
		e.OK(http.StatusOK, http.MethodPatch, tskPath(c2), e.Admin, map[string]any{"status": "todo"})
		tskWant(t, e.tskGet(parent), map[string]any{"sub_tasks_done": false})
		e.OK(http.StatusOK, http.MethodDelete, tskPath(c2), e.Admin, nil)
		tskWant(t, e.tskGet(parent), map[string]any{"sub_tasks_done": true, "sub_tasks": 1})
	})
	t.Run("blocked and blocking", func(t *testing.T) {
		blocker := e.CreateTask(e.Admin, map[string]any{"title": "Blocker"})
		blocked := e.CreateTask(e.Admin, map[string]any{"title": "Blocked"})
		e.OK(http.StatusCreated, http.MethodPost, tskPath(blocker, "links"), e.Admin, map[string]any{"link_type": "blocks", "target": blocked["ref"]})
		tskWant(t, e.tskGet(blocker), map[string]any{"blocking": true, "blocked": false})
		tskWant(t, e.tskGet(blocked), map[string]any{"blocking": false, "blocked": true})
		if a, b := e.tskGet(blocker)["priority_score"].(float64), e.tskGet(blocked)["priority_score"].(float64); a <= b {
			t.Errorf("a blocker outranks what it blocks: %v <= %v", a, b)
		}
		e.OK(http.StatusOK, http.MethodPost, tskPath(blocker, "complete"), e.Admin, nil)
		tskWant(t, e.tskGet(blocked), map[string]any{"blocked": false})
		tskWant(t, e.tskGet(blocker), map[string]any{"blocking": false})
		e.OK(http.StatusOK, http.MethodPatch, tskPath(blocker), e.Admin, map[string]any{"status": "todo"})
		tskWant(t, e.tskGet(blocked), map[string]any{"blocked": true})
		e.OK(http.StatusOK, http.MethodDelete, tskPath(blocker), e.Admin, nil)
		tskWant(t, e.tskGet(blocked), map[string]any{"blocked": false})
		// relates_to is not a block.
		other := e.CreateTask(e.Admin, map[string]any{"title": "Related"})
		e.OK(http.StatusCreated, http.MethodPost, tskPath(other, "links"), e.Admin, map[string]any{"link_type": "relates_to", "target": blocked["ref"]})
		tskWant(t, e.tskGet(blocked), map[string]any{"blocked": false, "blocking": false})
	})
}

func TestTaskEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	task := e.CreateTask(e.Admin, map[string]any{"title": "History"})
	other := e.CreateTask(e.Admin, map[string]any{"title": "Other"})
	steps := []struct {
		method, path string
		body         any
		want         int
		action       string
	}{
		{http.MethodPatch, tskPath(task), map[string]any{"title": "History, renamed"}, http.StatusOK, "task.updated"},
		{http.MethodPost, tskPath(task, "claim"), nil, http.StatusOK, "task.claimed"},
		{http.MethodPost, tskPath(task, "claim"), nil, http.StatusOK, "task.claim_renewed"},
		{http.MethodPost, tskPath(task, "release"), nil, http.StatusOK, "task.released"},
		{http.MethodPost, tskPath(task, "links"), map[string]any{"link_type": "precedes", "target": other["ref"]}, http.StatusCreated, "link.created"},
		{http.MethodPost, tskPath(task, "verifications"), map[string]any{"passed": true}, http.StatusCreated, "task.verified"},
		{http.MethodPost, tskPath(task, "complete"), nil, http.StatusOK, "task.completed"},
		{http.MethodDelete, tskPath(task), nil, http.StatusOK, "task.deleted"},
		{http.MethodPost, tskPath(task, "restore"), nil, http.StatusOK, "task.restored"},
	}
	want := []string{"task.created"}
	for _, s := range steps {
		e.OK(s.want, s.method, s.path, e.Admin, s.body)
		want = append(want, s.action)
		if s.action == "task.deleted" {
			// A trashed task's history answers like the task: not found, until it is restored.
			e.Problem(http.StatusNotFound, "not_found", http.MethodGet, tskPath(task, "events"), e.Admin, nil)
			continue
		}
		if got := tskActions(e.tskEvents(e.Admin, task, "seq")); !slices.Equal(got, want) {
			t.Fatalf("after %s %s: events %v, want %v (one per change)", s.method, s.path, got, want)
		}
	}
	oldest := e.tskEvents(e.Admin, task, "seq")
	newest := e.tskEvents(e.Admin, task, "")
	for i := range oldest {
		if i > 0 && oldest[i]["seq"].(float64) <= oldest[i-1]["seq"].(float64) {
			t.Fatalf("order=seq is oldest first with increasing seq: %v then %v", oldest[i-1]["seq"], oldest[i]["seq"])
		}
		if newest[len(newest)-1-i]["seq"] != oldest[i]["seq"] {
			t.Fatalf("the default order is newest first")
		}
		ev := oldest[i]
		if ev["entity_id"] != task["id"] || ev["entity_type"] != "task" || ev["actor_user_id"] == nil || ev["item_ref"] != task["ref"] {
			t.Fatalf("malformed event %v", ev)
		}
	}
	// seq is global: the other task's creation, after this one's, has a later seq.
	if o := e.tskEvents(e.Admin, other, "seq"); o[0]["seq"].(float64) <= oldest[0]["seq"].(float64) {
		t.Fatalf("seq is global: %v after %v", o[0]["seq"], oldest[0]["seq"])
	}
	page := e.OK(http.StatusOK, http.MethodGet, tskPath(task, "events")+"?order=seq&limit=4", e.Admin, nil)
	pg := page["page"].(map[string]any)
	if len(page["items"].([]any)) != 4 || pg["has_more"] != true || pg["next_cursor"] == nil {
		t.Fatalf("a short page says there is more: %v", pg)
	}
	rest := e.OK(http.StatusOK, http.MethodGet, tskPath(task, "events")+"?order=seq&limit=100&cursor="+pg["next_cursor"].(string), e.Admin, nil)
	if n := len(rest["items"].([]any)); n != len(oldest)-4 {
		t.Fatalf("the cursor continues after the page: %d items, want %d", n, len(oldest)-4)
	}
	e.Problem(http.StatusUnprocessableEntity, "validation", http.MethodGet, tskPath(task, "events")+"?order=title", e.Admin, nil)
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/tasks/9999/events", e.Admin, nil)
}
