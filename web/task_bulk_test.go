package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// bulkTasks names refs as POST /v1/tasks/bulk takes them.
func bulkTasks(refs ...int) []any {
	out := make([]any, len(refs))
	for i, r := range refs {
		out[i] = map[string]any{"ref": r}
	}
	return out
}

// One change reaches every task named, each with the event its one-task
// write records, and the answer holds them in the order named.
func TestBulkChangesEveryTaskNamed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var refs []int
	for _, title := range []string{"Renew the domain", "Rotate the keys", "Update the wiki"} {
		refs = append(refs, e.TaskRef(e.Admin, map[string]any{"title": title, "tags": []string{"ops"}}))
	}
	out := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{
		"tasks": bulkTasks(refs[2], refs[0], refs[1]), "change": map[string]any{"tags": map[string]any{"add": []string{"q4"}, "remove": []string{"ops"}}}})
	tasks := out["tasks"].([]any)
	if out["count"] != float64(3) || len(tasks) != 3 || tasks[0].(map[string]any)["ref"] != float64(refs[2]) {
		t.Fatalf("answer %v", out)
	}
	for _, ref := range refs {
		task := e.OK(http.StatusOK, http.MethodGet, taskPath(ref, ""), e.Admin, nil)
		if fmt.Sprint(task["tags"]) != "[q4]" {
			t.Errorf("#%d tags %v", ref, task["tags"])
		}
	}
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(refs...), "change": map[string]any{"complete": true}})
	for _, ref := range refs {
		var actions []string
		for _, ev := range e.OK(http.StatusOK, http.MethodGet, taskPath(ref, "/events?order=seq"), e.Admin, nil)["items"].([]any) {
			actions = append(actions, ev.(map[string]any)["action"].(string))
		}
		want := "task.created task.updated task.completed"
		if got := strings.Join(actions, " "); got != want {
			t.Errorf("#%d history: %s, want %s", ref, got, want)
		}
	}
}

// Each field change of a bulk request is the one-task update's.
func TestBulkSetsEachField(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": "ops", "title": "Ops"})
	refs := []int{e.TaskRef(e.Admin, map[string]any{"title": "Book the venue"}), e.TaskRef(e.Admin, map[string]any{"title": "Order the badges"})}
	for _, c := range []struct {
		change map[string]any
		field  string
		want   any
	}{
		{map[string]any{"status": "in_progress"}, "status", "in_progress"},
		{map[string]any{"assignee": "admin"}, "assignee", "admin"},
		{map[string]any{"importance": 4}, "importance", float64(4)},
		{map[string]any{"importance": nil}, "importance", nil},
		{map[string]any{"due": "2027-04-15"}, "due_is_all_day", true},
		{map[string]any{"defer": "2027-04-01"}, "snoozed_is_all_day", true},
		{map[string]any{"project": "ops"}, "project", "ops"},
	} {
		out := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(refs...), "change": c.change})
		for _, task := range out["tasks"].([]any) {
			if got := task.(map[string]any)[c.field]; got != c.want {
				t.Errorf("%v: %s is %v, want %v", c.change, c.field, got, c.want)
			}
		}
	}
}

// A refusal of any task named changes none, and names the task.
func TestBulkIsAllOrNothing(t *testing.T) {
	t.Parallel()
	f := newDisFix(t)
	e := f.e
	mine := e.TaskRef(f.alice, map[string]any{"title": "Call the printer", "project": "pub"})
	version := func() any { return e.OK(http.StatusOK, http.MethodGet, taskPath(mine, ""), f.alice, nil)["version"] }
	before := version()
	bob := f.callers["person"]
	for _, c := range []struct {
		name   string
		token  string
		tasks  []any
		change map[string]any
		status int
		code   string
		ref    string
	}{
		{"a task bob cannot see", bob, []any{map[string]any{"ref": mine}, map[string]any{"ref": f.ref("sec")}}, map[string]any{"complete": true}, 404, "not_found", f.ref("sec")},
		{"a task that is not there", bob, []any{map[string]any{"ref": mine}, map[string]any{"ref": 9999}}, map[string]any{"complete": true}, 404, "not_found", "9999"},
		{"a trashed task", f.alice, []any{map[string]any{"ref": mine}, map[string]any{"ref": f.ref("trashed")}}, map[string]any{"delete": true}, 404, "not_found", f.ref("trashed")},
		{"a stale version", f.alice, []any{map[string]any{"ref": mine, "expected_version": 99}}, map[string]any{"tags": map[string]any{"add": []string{"x"}}}, 409, "version_conflict", lstItoa(int64(mine))},
		{"a status unknown", f.alice, bulkTasks(mine), map[string]any{"status": "someday"}, 422, "validation", ""},
		{"an importance out of range", f.alice, bulkTasks(mine), map[string]any{"importance": 9}, 422, "validation", ""},
		{"no task", f.alice, []any{}, map[string]any{"complete": true}, 422, "validation", ""},
		{"a task named twice", f.alice, bulkTasks(mine, mine), map[string]any{"complete": true}, 422, "validation", ""},
		{"no change", f.alice, bulkTasks(mine), map[string]any{}, 422, "validation", ""},
		{"two changes", f.alice, bulkTasks(mine), map[string]any{"complete": true, "delete": true}, 422, "validation", ""},
		{"a delete and its undo", f.alice, bulkTasks(mine), map[string]any{"delete": true, "restore": true}, 422, "validation", ""},
		{"restoring a task not in the trash", f.alice, []any{map[string]any{"ref": f.ref("trashed")}, map[string]any{"ref": mine}}, map[string]any{"restore": true}, 404, "not_found", lstItoa(int64(mine))},
		{"restoring a task that is not there", f.alice, bulkTasks(9999), map[string]any{"restore": true}, 404, "not_found", "9999"},
		{"restoring at a stale version", f.alice, []any{map[string]any{"ref": f.ref("trashed"), "expected_version": 99}}, map[string]any{"restore": true}, 409, "version_conflict", f.ref("trashed")},
		{"an unknown change", f.alice, bulkTasks(mine), map[string]any{"archive": true}, 422, "validation", ""},
		{"tags with no name", f.alice, bulkTasks(mine), map[string]any{"tags": map[string]any{}}, 422, "validation", ""},
		{"a status cleared", f.alice, bulkTasks(mine), map[string]any{"status": nil}, 422, "validation", ""},
	} {
		p := e.Problem(c.status, c.code, http.MethodPost, "/v1/tasks/bulk", c.token, map[string]any{"tasks": c.tasks, "change": c.change})
		if c.ref != "" && p["ref"] != c.ref {
			t.Errorf("%s: the problem names %v, want %s", c.name, p["ref"], c.ref)
		}
	}
	if v := version(); v != before {
		t.Fatalf("a refused bulk change changed the task: version %v, was %v", v, before)
	}
	e.Problem(404, "not_found", http.MethodGet, "/v1/tasks/"+f.ref("trashed"), f.alice, nil) // a refused restore left it in the trash
	// The hidden task answers as the missing one, word for word but the ref.
	missing := e.Problem(404, "not_found", http.MethodPost, "/v1/tasks/bulk", bob, map[string]any{"tasks": bulkTasks(mine + 1000), "change": map[string]any{"complete": true}})
	hidden := e.Problem(404, "not_found", http.MethodPost, "/v1/tasks/bulk", bob, map[string]any{"tasks": []any{map[string]any{"ref": f.ref("sec")}}, "change": map[string]any{"complete": true}})
	if strings.ReplaceAll(missing["detail"].(string), lstItoa(int64(mine+1000)), "N") != strings.ReplaceAll(hidden["detail"].(string), f.ref("sec"), "N") {
		t.Errorf("hidden %q, missing %q", hidden["detail"], missing["detail"])
	}
}

// More tasks than the limit are refused before any is read.
func TestBulkRefusesOverTheLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refs := make([]int, 501)
	for i := range refs {
		refs[i] = i + 1
	}
	e.Problem(422, "over_limit", http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(refs...), "change": map[string]any{"complete": true}})
}

// A task and its subtask trashed together: the subtask goes along with its
// parent, whichever is named first.
func TestBulkTrashesAParentWithItsSubtask(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	parent := e.TaskRef(e.Admin, map[string]any{"title": "Plan the offsite"})
	child := e.TaskRef(e.Admin, map[string]any{"title": "Book the rooms", "parent": parent})
	out := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(parent, child), "change": map[string]any{"delete": true}})
	for _, task := range out["tasks"].([]any) {
		if task.(map[string]any)["deleted_at"] == nil {
			t.Errorf("not trashed: %v", task)
		}
	}
}

// A bulk delete is undone by one bulk restore of the same tasks, in any
// order: each comes back as RestoreTask brings it, a subtask along with
// its parent, each with its task.restored event.
func TestBulkRestoreUndoesABulkDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	parent := e.TaskRef(e.Admin, map[string]any{"title": "Plan the offsite"})
	child := e.TaskRef(e.Admin, map[string]any{"title": "Book the rooms", "parent": parent})
	other := e.TaskRef(e.Admin, map[string]any{"title": "Order the badges"})
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(parent, child, other), "change": map[string]any{"delete": true}})
	out := e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(child, other, parent), "change": map[string]any{"restore": true}})
	if out["count"] != 3.0 {
		t.Fatalf("restored: %v", out)
	}
	for _, task := range out["tasks"].([]any) {
		if task.(map[string]any)["deleted_at"] != nil {
			t.Errorf("still trashed: %v", task)
		}
	}
	for _, ref := range []int{parent, child, other} {
		e.OK(http.StatusOK, http.MethodGet, taskPath(ref, ""), e.Admin, nil)
	}
	ev := e.OK(http.StatusOK, http.MethodGet, taskPath(other, "/events"), e.Admin, nil)
	if !strings.Contains(fmt.Sprint(ev), "task.restored") {
		t.Errorf("no task.restored event: %v", ev)
	}
	e.Problem(404, "not_found", http.MethodPost, "/v1/tasks/bulk", e.Admin, map[string]any{"tasks": bulkTasks(other), "change": map[string]any{"restore": true}})
}
