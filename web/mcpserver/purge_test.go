package mcpserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"tend/web/webtest"
)

// TestMCPPurge: an agent deletes forever through service_call_api, which
// serves POST /v1/tasks/{ref}/purge and POST /v1/documents/{ref}/purge
// with the route's own handler and Service.Purge: SPEC's fifteen tools
// are the contract, and its write tools never delete, so no tool of its
// own does it. The route's refusals come back as tool failures with the
// same codes: an item still live, a caller who is no administrator of
// the workspace, an item purged already.
func TestMCPPurge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	admin := e.Connect(t, e.Admin, webtest.EraStateless)
	member := e.Connect(t, e.Member("mo", "member"), webtest.EraStateless)
	task := e.TaskRef(e.Admin, map[string]any{"title": "Old plan"})
	e.TaskRef(e.Admin, map[string]any{"title": "Its step", "parent": task})
	doc := int(e.OK(http.StatusCreated, http.MethodPost, "/v1/documents", e.Admin, map[string]any{"title": "Old notes"})["ref"].(float64))
	call := func(method, path string) map[string]any { return map[string]any{"method": method, "path": path} }
	purge := func(kind string, ref int) map[string]any {
		return call("POST", fmt.Sprintf("/v1/%s/%d/purge", kind, ref))
	}

	admin.With(t).Refused("not_in_trash", "service_call_api", purge("tasks", task))
	admin.With(t).OK("service_call_api", call("DELETE", fmt.Sprintf("/v1/tasks/%d", task)))
	admin.With(t).OK("service_call_api", call("DELETE", fmt.Sprintf("/v1/documents/%d", doc)))
	member.With(t).Refused("forbidden", "service_call_api", purge("tasks", task))

	r := admin.With(t).OK("service_call_api", purge("tasks", task))
	if body := r.Structured["body"].(map[string]any); r.Structured["status"] != float64(200) || body["along"] != float64(1) || body["title"] != "Old plan" {
		t.Fatalf("purging the task answered %+v", r.Structured)
	}
	if body := admin.With(t).OK("service_call_api", purge("documents", doc)).Structured["body"].(map[string]any); body["title"] != "Old notes" {
		t.Fatalf("purging the document answered %v", body)
	}
	admin.With(t).Refused("not_found", "service_call_api", purge("tasks", task))
	e.Problem(http.StatusNotFound, "not_found", http.MethodGet, fmt.Sprintf("/v1/tasks/%d?deleted=true", task), e.Admin, nil)
	ev := e.OK(http.StatusOK, http.MethodGet, "/v1/changes", e.Admin, nil)["items"].([]any)
	last := ev[len(ev)-1].(map[string]any)
	if last["action"] != "document.purged" || last["actor_interface"] != "mcp" {
		t.Errorf("the last event is %v; want document.purged through mcp", last)
	}
}
