package mcpserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"tend/web/webtest"
)

// service_update and service_done take an array of refs: one change to
// each task, through the same bulk change as POST /v1/tasks/bulk, all or
// nothing.
func TestMCPSeveralRefs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	m := e.Connect(t, e.Admin, webtest.EraHandshake)
	a := e.TaskRef(e.Admin, map[string]any{"title": "Renew the domain"})
	b := e.TaskRef(e.Admin, map[string]any{"title": "Rotate the keys"})
	r := m.OK("service_update", map[string]any{"ref": []any{a, "#" + strconv.Itoa(b)}, "importance": 4})
	tasks := r.Structured["tasks"].([]any)
	if len(tasks) != 2 || tasks[1].(map[string]any)["importance"] != float64(4) || !strings.HasPrefix(r.Text, "updated #"+strconv.Itoa(a)) {
		t.Fatalf("update of two: %+v", r)
	}
	version := func(ref int) any {
		return e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+strconv.Itoa(ref), e.Admin, nil)["version"]
	}
	before := version(a)
	for _, c := range []struct {
		tool, code string
		args       map[string]any
		loc        string
	}{
		{"service_update", "not_found", map[string]any{"ref": []any{a, 9999}, "status": "done"}, ""},
		{"service_update", "validation", map[string]any{"ref": []any{a, b}, "title": "Same"}, "arguments.title"},
		{"service_update", "validation", map[string]any{"ref": []any{a, b}, "importance": 4, "status": "done"}, "arguments.change"},
		{"service_update", "validation", map[string]any{"ref": []any{a, b}, "until": "no such day at all"}, "arguments.until"},
		{"service_update", "validation", map[string]any{"ref": []any{}, "status": "done"}, "arguments.ref"},
		{"service_done", "validation", map[string]any{"ref": []any{a, b}, "skip": true}, "arguments.ref"},
		{"service_done", "not_found", map[string]any{"ref": []any{a, 9999}}, ""},
	} {
		text := m.Refused(c.code, c.tool, c.args)
		if c.loc != "" && !strings.Contains(text, c.loc) {
			t.Errorf("%s %v: %s, want it to name %s", c.tool, c.args, text, c.loc)
		}
		if c.code == "not_found" && !strings.Contains(text, "task 9999") {
			t.Errorf("%s %v: %s does not name the task", c.tool, c.args, text)
		}
	}
	if v := version(a); v != before {
		t.Fatalf("a refused change of several tasks changed #%d", a)
	}
	r = m.OK("service_done", map[string]any{"ref": []any{a, b}})
	for _, task := range r.Structured["tasks"].([]any) {
		if task.(map[string]any)["is_complete"] != true {
			t.Errorf("not done: %v", task)
		}
	}
}
