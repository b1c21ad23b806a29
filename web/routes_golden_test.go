package web_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/internal/golden"
	"tend/web"
	"tend/web/webtest"
)

// routeCall is the one representative successful request a route's golden
// records. Path and body may name what the seed made as {placeholders}.
type routeCall struct {
	route  string // "METHOD /pattern", as the router registers it
	path   string
	as     caller
	body   any               // JSON for the API; url.Values for a page
	header map[string]string // beyond what the caller sends
	save   string            // the placeholder that names the created record's id from here on
	keep   *regexp.Regexp    // when set, the body's lines a golden holds (the rest vary by run)
	// prep makes what the call needs just before it, where making it in
	// the seed would change the goldens of the calls before.
	prep  func(e *env, vals map[string]string)
	named bool // the route serves path by name (handleNamed), one call and golden per name
	// refused is the status of the refusal the golden records, for a route
	// no test instance answers with success (promote, which only a
	// standby takes: TestStandbyPromote).
	refused int
}

// golden is the name of c's golden: its route's, or for a name a route
// serves, the method and the path.
func (c routeCall) golden() string {
	if c.named {
		method, _, _ := strings.Cut(c.route, " ")
		return method + " " + c.path
	}
	return c.route
}

// caller is who sends a routeCall.
type caller int

const (
	asAdmin   caller = iota // the administrator's bearer token
	asBrowser               // the administrator's session cookie, from the server's origin
	asNobody                // no credential
)

// routeCalls holds one call per route, in the order they run: a call that
// trashes, revokes or removes something acts on what the seed made for it
// alone, so that every later call still finds what it reads.
var routeCalls = []routeCall{
	{route: "GET /healthz", path: "/healthz", as: asNobody},
	{route: "GET /readyz", path: "/readyz", as: asNobody},
	{route: "GET /openapi.json", path: "/openapi.json", as: asNobody},
	{route: "GET /metrics", path: "/metrics", keep: regexp.MustCompile(`^# TYPE `)},
	{route: "GET /v1/me", path: "/v1/me"},
	{route: "GET /v1/meta", path: "/v1/meta"},
	{route: "GET /v1/docs/agent", path: "/v1/docs/agent"},
	{route: "GET /v1/docs/examples", path: "/v1/docs/examples"},
	{route: "POST /mcp", path: "/mcp", header: map[string]string{"Accept": "application/json, text/event-stream"},
		body: map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "golden", "version": "1"}}}},
	{route: "GET /v1/instance", path: "/v1/instance"},
	{route: "PATCH /v1/instance", path: "/v1/instance", body: map[string]any{"name": "Golden"}},
	{route: "GET /v1/instance/workspaces", path: "/v1/instance/workspaces"},
	{route: "GET /v1/users", path: "/v1/users"},
	{route: "POST /v1/users", path: "/v1/users", body: map[string]any{"username": "bea", "display_name": "Bea"}},
	{route: "GET /v1/users/:username", path: "/v1/users/ann"},
	{route: "PATCH /v1/users/:username", path: "/v1/users/bea", body: map[string]any{"display_name": "Bea B."}},
	{route: "POST /v1/users/:username/signout", path: "/v1/users/bea/signout"},
	{route: "GET /v1/workspaces", path: "/v1/workspaces"},
	{route: "GET /v1/workspaces/:workspace", path: "/v1/workspaces/default"},
	{route: "GET /v1/workspaces/:workspace/members", path: "/v1/workspaces/default/members"},
	{route: "POST /v1/workspaces/:workspace/members", path: "/v1/workspaces/default/members", body: map[string]any{"username": "bea", "role": "member"}},
	{route: "PATCH /v1/workspaces/:workspace/members/:username", path: "/v1/workspaces/default/members/bea", body: map[string]any{"role": "admin"}},
	{route: "DELETE /v1/workspaces/:workspace/members/:username", path: "/v1/workspaces/default/members/bea"},
	{route: "GET /v1/workspaces/:workspace/settings", path: "/v1/workspaces/default/settings"},
	{route: "POST /v1/login-links", path: "/v1/login-links", body: map[string]any{}},
	{route: "POST /v1/auth/device", path: "/v1/auth/device", as: asNobody, body: map[string]any{"client_name": "golden"}},
	{route: "GET /device", path: "/device?user_code={user_code}", as: asBrowser},
	{route: "POST /device", path: "/device", as: asBrowser, body: url.Values{"user_code": {"{user_code}"}, "workspace": {"default"}, "decision": {"approve"}}},
	{route: "POST /v1/auth/device/token", path: "/v1/auth/device/token", as: asNobody, body: map[string]any{"device_code": "{device_code}"}},
	{route: "GET /v1/tokens", path: "/v1/tokens"},
	{route: "POST /v1/tokens", path: "/v1/tokens", body: map[string]any{"title": "laptop"}},
	{route: "DELETE /v1/tokens/:token", path: "/v1/tokens/{spare_token}"},
	{route: "GET /v1/calendars", path: "/v1/calendars"},
	{route: "POST /v1/calendars", path: "/v1/calendars", body: map[string]any{"title": "Second"}},
	{route: "GET /v1/calendars/:calendar/:secret", path: "{feed}", as: asNobody},
	{route: "POST /v1/calendars/:calendar/reset", path: "/v1/calendars/{spare_calendar}/reset"},
	{route: "DELETE /v1/calendars/:calendar", path: "/v1/calendars/{spare_calendar}"},
	{route: "POST /v1/views", path: "/v1/views", body: map[string]any{"name": "Boiler work", "query": "project=ops&order=-due_at"}, save: "view"},
	{route: "GET /v1/views", path: "/v1/views"},
	{route: "GET /v1/views/:view", path: "/v1/views/{view}"},
	{route: "PATCH /v1/views/:view", path: "/v1/views/{view}", body: map[string]any{"shared": true, "expected_version": 1}},
	{route: "DELETE /v1/views/:view", path: "/v1/views/{view}"},
	{route: "POST /v1/webhooks", path: "/v1/webhooks", body: map[string]any{"url": "https://93.184.216.34/hook", "events": []string{"task.*", "comment.created"}, "description": "CI"}, save: "webhook"},
	{route: "GET /v1/webhooks", path: "/v1/webhooks"},
	{route: "GET /v1/webhooks/:webhook", path: "/v1/webhooks/{webhook}"},
	{route: "PATCH /v1/webhooks/:webhook", path: "/v1/webhooks/{webhook}", body: map[string]any{"events": []string{"*"}}},
	{route: "POST /v1/webhooks/:webhook/rotate", path: "/v1/webhooks/{webhook}/rotate"},
	{route: "POST /v1/webhooks/:webhook/replay", path: "/v1/webhooks/{webhook}/replay?since=1"},
	{route: "GET /v1/webhooks/:webhook/deliveries", path: "/v1/webhooks/{webhook}/deliveries"},
	{route: "POST /v1/webhooks/:webhook/redeliver/:delivery", path: "/v1/webhooks/{webhook}/redeliver/1"},
	{route: "GET /v1/me/projects", path: "/v1/me/projects"},
	{route: "GET /v1/projects", path: "/v1/projects"},
	{route: "POST /v1/projects", path: "/v1/projects", body: map[string]any{"key": "lab", "title": "Lab"}},
	{route: "GET /v1/projects/:project", path: "/v1/projects/ops"},
	{route: "PATCH /v1/projects/:project", path: "/v1/projects/lab", body: map[string]any{"description": "Trials"}},
	{route: "POST /v1/projects/:project/move", path: "/v1/projects/lab/move", body: map[string]any{"parent": "ops"}},
	{route: "DELETE /v1/projects/:project", path: "/v1/projects/lab"},
	{route: "POST /v1/projects/:project/restore", path: "/v1/projects/lab/restore"},
	{route: "GET /v1/projects/:project/members", path: "/v1/projects/ops/members"},
	{route: "POST /v1/projects/:project/members", path: "/v1/projects/ops/members", body: map[string]any{"username": "ann"}},
	{route: "DELETE /v1/projects/:project/members/:username", path: "/v1/projects/ops/members/ann"},
	{route: "PUT /v1/projects/:project/roles/:username", path: "/v1/projects/ops/roles/ann", body: map[string]any{"role": "viewer"}},
	{route: "DELETE /v1/projects/:project/roles/:username", path: "/v1/projects/ops/roles/ann"},
	{route: "GET /v1/projects/:project/settings", path: "/v1/projects/ops/settings"},
	{route: "GET /v1/projects/:project/events", path: "/v1/projects/ops/events"},
	{route: "POST /v1/projects/:project/comments", path: "/v1/projects/ops/comments", body: map[string]any{"body": "Kick-off on Monday"}},
	{route: "GET /v1/projects/:project/comments", path: "/v1/projects/ops/comments"},
	{route: "GET /v1/agenda", path: "/v1/agenda"},
	{route: "GET /v1/tasks", path: "/v1/tasks?project=ops"},
	{route: "POST /v1/tasks", path: "/v1/tasks", body: map[string]any{"title": "Order parts", "project": "ops", "tags": []string{"shop"}}},
	{route: "POST /v1/tasks/:task", path: "/v1/tasks/preview", body: map[string]any{"text": "Call the vendor tomorrow #ops"}},
	{route: "POST /v1/tasks/:task", path: "/v1/tasks/bulk", named: true, body: map[string]any{"tasks": []any{map[string]any{"ref": "{spare_task}"}},
		// Its status already: a change that changes nothing, for the goldens after it.
		"change": map[string]any{"status": "todo"}}},
	{route: "GET /v1/tasks/:task", path: "/v1/tasks/{task}"},
	{route: "PATCH /v1/tasks/:task", path: "/v1/tasks/{task}", body: map[string]any{"importance": 4}},
	{route: "POST /v1/tasks/:task/claim", path: "/v1/tasks/{task}/claim", body: map[string]any{"minutes": 30}},
	{route: "POST /v1/tasks/:task/release", path: "/v1/tasks/{task}/release"},
	{route: "POST /v1/tasks/:task/skip", path: "/v1/tasks/{repeating}/skip"},
	{route: "GET /v1/tasks/:task/occurrences", path: "/v1/tasks/{repeating}/occurrences"},
	{route: "POST /v1/recurrence/parse", path: "/v1/recurrence/parse", body: map[string]any{"text": "every monday"}},
	{route: "POST /v1/tasks/:task/move", path: "/v1/tasks/{spare_task}/move", body: map[string]any{"project": "lab"}},
	{route: "DELETE /v1/tasks/:task", path: "/v1/tasks/{spare_task}"},
	{route: "POST /v1/tasks/:task/restore", path: "/v1/tasks/{spare_task}/restore"},
	{route: "POST /v1/tasks/:task/purge", path: "/v1/tasks/{trashed_task}/purge"},
	{route: "POST /v1/tasks/:task/complete", path: "/v1/tasks/{spare_task}/complete"},
	{route: "POST /v1/tasks/:task/verifications", path: "/v1/tasks/{task}/verifications", body: map[string]any{"passed": true, "summary": "go test ./... passes"}},
	{route: "GET /v1/tasks/:task/verifications", path: "/v1/tasks/{task}/verifications"},
	{route: "POST /v1/tasks/:task/links", path: "/v1/tasks/{task}/links", body: map[string]any{"link_type": "blocks", "target": "{subtask}"}, save: "task_link"},
	{route: "GET /v1/tasks/:task/links", path: "/v1/tasks/{task}/links"},
	{route: "DELETE /v1/tasks/:task/links/:link", path: "/v1/tasks/{task}/links/{task_link}"},
	{route: "GET /v1/tasks/:task/backlinks", path: "/v1/tasks/{task}/backlinks"},
	{route: "GET /v1/tasks/:task/governing", path: "/v1/tasks/{task}/governing"},
	{route: "GET /v1/tasks/:task/proposed-links", path: "/v1/tasks/{task}/proposed-links"},
	{route: "GET /v1/tasks/:task/tree", path: "/v1/tasks/{task}/tree"},
	{route: "GET /v1/tasks/:task/events", path: "/v1/tasks/{task}/events"},
	{route: "POST /v1/tasks/:task/comments", path: "/v1/tasks/{task}/comments", body: map[string]any{"body": "Parts ordered"}},
	{route: "GET /v1/tasks/:task/comments", path: "/v1/tasks/{task}/comments"},
	{route: "GET /v1/items/:item", path: "/v1/items/{doc}"},
	{route: "POST /v1/items/:item/comments", path: "/v1/items/{doc}/comments", body: map[string]any{"body": "Reviewed"}},
	{route: "POST /v1/items/:item/links", path: "/v1/items/{doc}/links", body: map[string]any{"link_type": "relates_to", "target": "{subtask}"}},
	{route: "GET /v1/search", path: "/v1/search?q=runbook"},
	{route: "GET /v1/documents", path: "/v1/documents"},
	{route: "POST /v1/documents", path: "/v1/documents", body: map[string]any{"title": "Notes", "body": "Loose notes", "project": "ops"}},
	{route: "GET /v1/documents/:document", path: "/v1/documents/{doc}"},
	{route: "PATCH /v1/documents/:document", path: "/v1/documents/{doc}", body: map[string]any{"body": "# Steps\n\n1. Stop\n2. Start\n"}},
	{route: "POST /v1/documents/:document/move", path: "/v1/documents/{spare_doc}/move", body: map[string]any{"parent": "{doc}"}},
	{route: "DELETE /v1/documents/:document", path: "/v1/documents/{spare_doc}"},
	{route: "POST /v1/documents/:document/restore", path: "/v1/documents/{spare_doc}/restore"},
	{route: "POST /v1/documents/:document/purge", path: "/v1/documents/{trashed_doc}/purge"},
	{route: "GET /v1/documents/:document/events", path: "/v1/documents/{doc}/events"},
	{route: "POST /v1/documents/:document/links", path: "/v1/documents/{doc}/links", body: map[string]any{"link_type": "documents", "target": "{task}"}, save: "doc_link"},
	{route: "GET /v1/documents/:document/links", path: "/v1/documents/{doc}/links"},
	{route: "DELETE /v1/documents/:document/links/:link", path: "/v1/documents/{doc}/links/{doc_link}"},
	{route: "GET /v1/documents/:document/backlinks", path: "/v1/documents/{doc}/backlinks"},
	{route: "GET /v1/documents/:document/governing", path: "/v1/documents/{doc}/governing"},
	{route: "GET /v1/documents/:document/proposed-links", path: "/v1/documents/{doc}/proposed-links"},
	{route: "GET /v1/documents/:document/tree", path: "/v1/documents/{doc}/tree"},
	{route: "POST /v1/documents/:document/comments", path: "/v1/documents/{doc}/comments", body: map[string]any{"body": "Step 2 needs a check"}},
	{route: "GET /v1/documents/:document/comments", path: "/v1/documents/{doc}/comments"},
	{route: "PATCH /v1/comments/:comment", path: "/v1/comments/{comment}", body: map[string]any{"body": "Half the parts ordered"}},
	{route: "DELETE /v1/comments/:comment", path: "/v1/comments/{comment}"},
	{route: "GET /v1/statuses", path: "/v1/statuses"},
	{route: "POST /v1/statuses", path: "/v1/statuses", body: map[string]any{"entity_type": "task", "key": "parked", "label": "Parked", "category": "todo"}, save: "status"},
	{route: "PATCH /v1/statuses/:which", path: "/v1/statuses/{status}", body: map[string]any{"label": "Shelved"}},
	{route: "DELETE /v1/statuses/:which", path: "/v1/statuses/{status}"},
	{route: "GET /v1/link-types", path: "/v1/link-types"},
	{route: "POST /v1/link-types", path: "/v1/link-types", body: map[string]any{"key": "inspires", "title": "inspires", "inverse_title": "inspired by", "category": "association"}, save: "link_type"},
	{route: "PATCH /v1/link-types/:which", path: "/v1/link-types/{link_type}", body: map[string]any{"inverse_title": "was inspired by"}},
	{route: "DELETE /v1/link-types/:which", path: "/v1/link-types/{link_type}"},
	{route: "GET /v1/tags", path: "/v1/tags"},
	{route: "POST /v1/tags", path: "/v1/tags", body: map[string]any{"name": "later"}, save: "tag"},
	{route: "PATCH /v1/tags/:which", path: "/v1/tags/{tag}", body: map[string]any{"name": "someday"}},
	{route: "DELETE /v1/tags/:which", path: "/v1/tags/{tag}"},
	{route: "GET /v1/changes", path: "/v1/changes?since=0&limit=3"},
	{route: "GET /v1/journal", path: "/v1/journal?limit=3"},
	{route: "POST /v1/admin/backups", path: "/v1/admin/backups"},
	{route: "POST /v1/admin/promote", path: "/v1/admin/promote", refused: http.StatusConflict},
	{route: "GET /v1/admin/backups", path: "/v1/admin/backups"},
	{route: "GET /v1/export", path: "/v1/export?workspace=default"},

	{route: "GET /static/:version/*file", path: "/static/{static}/app.css", as: asNobody},
	{route: "GET /manifest.webmanifest", path: "/manifest.webmanifest", as: asNobody},
	{route: "GET /sw.js", path: "/sw.js", as: asNobody, keep: regexp.MustCompile(`^var VERSION|addEventListener\(`)},
	{route: "GET /signin", path: "/signin?link={link}", as: asNobody},
	{route: "POST /signin", path: "/signin", as: asNobody, header: map[string]string{"Origin": "{origin}"}, body: url.Values{"link": {"{link}"}}},
	{route: "GET /", path: "/", as: asBrowser},
	{route: "POST /workspace", path: "/workspace", as: asBrowser, body: url.Values{"workspace": {"default"}}},
	{route: "GET /live", path: "/live", as: asBrowser},
	{route: "GET /tasks", path: "/tasks", as: asBrowser},
	{route: "POST /tasks", path: "/tasks", as: asBrowser, body: url.Values{"text": {"Sweep the floor #ops"}}},
	{route: "GET /tasks/:ref", path: "/tasks/{task}", as: asBrowser},
	{route: "POST /tasks/:ref", path: "/tasks/{page_task}", as: asBrowser, body: url.Values{"title": {"Sweep both floors"}}},
	{route: "POST /tasks/:ref/status", path: "/tasks/{page_task}/status", as: asBrowser, body: url.Values{"status": {"in_progress"}}},
	{route: "POST /tasks/:ref/comments", path: "/tasks/{page_task}/comments", as: asBrowser, body: url.Values{"body": {"Broom found"}}},
	{route: "POST /tasks/:ref/claim", path: "/tasks/{page_task}/claim", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/release", path: "/tasks/{page_task}/release", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/subtasks", path: "/tasks/{page_task}/subtasks", as: asBrowser, body: url.Values{"text": {"Mop after"}}},
	{route: "POST /tasks/:ref/links", path: "/tasks/{page_task}/links", as: asBrowser, body: url.Values{"link_type": {"blocks"}, "target": {"{task}"}}},
	{route: "POST /tasks/:ref/links/:link/remove", path: "/tasks/{page_task}/links/{page_link}/remove", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/assign", path: "/tasks/{page_task}/assign", as: asBrowser, body: url.Values{"assignee": {"ann"}}},
	{route: "POST /tasks/:ref/due", path: "/tasks/{page_task}/due", as: asBrowser, body: url.Values{"due": {"2030-01-02"}}},
	{route: "POST /tasks/:ref/skip", path: "/tasks/{repeating}/skip", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/done", path: "/tasks/{page_task}/done", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/reopen", path: "/tasks/{page_task}/reopen", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/complete", path: "/tasks/{page_task}/complete", as: asBrowser, body: url.Values{}},
	{route: "POST /tasks/:ref/delete", path: "/tasks/{page_trash}/delete", as: asBrowser, body: url.Values{"back": {"/tasks"}, "subtasks": {"0"}}},
	{route: "GET /trash", path: "/trash", as: asBrowser},
	{route: "POST /trash/:ref/restore", path: "/trash/{page_trash}/restore", as: asBrowser, body: url.Values{"kind": {"task"}}},
	{route: "POST /trash/:ref/purge", path: "/trash/{page_purge}/purge", as: asBrowser, body: url.Values{"kind": {"task"}}},
	{route: "GET /board", path: "/board", as: asBrowser},
	{route: "GET /documents", path: "/documents", as: asBrowser},
	{route: "POST /documents", path: "/documents", as: asBrowser, body: url.Values{"title": {"Page notes"}, "body": {"From the page"}, "project": {"ops"}}},
	{route: "GET /documents/:ref", path: "/documents/{doc}", as: asBrowser},
	{route: "POST /documents/:ref", path: "/documents/{page_doc}", as: asBrowser, body: url.Values{"expected_version": {"{page_doc_version}"}, "title": {"Spare notes"}}},
	{route: "POST /documents/:ref/comments", path: "/documents/{doc}/comments", as: asBrowser, body: url.Values{"body": {"Seen"}}},
	{route: "POST /documents/:ref/links", path: "/documents/{doc}/links", as: asBrowser, body: url.Values{"link_type": {"relates_to"}, "target": {"{page_task}"}}},
	{route: "POST /documents/:ref/links/:link/remove", path: "/documents/{doc}/links/{page_doc_link}/remove", as: asBrowser, body: url.Values{}},
	{route: "GET /items/:ref", path: "/items/{doc}", as: asBrowser},
	{route: "GET /pick", path: "/pick?q=runbook", as: asBrowser},
	{route: "POST /preview", path: "/preview", as: asBrowser, body: url.Values{"text": {"**bold** #1"}}},
	// It has no due already: a change that changes nothing, for the goldens after it.
	{route: "POST /bulk", path: "/bulk", as: asBrowser, body: url.Values{"action": {"due"}, "value": {""}, "ref": {"{spare_task}"}, "back": {"/tasks"}}},
	{route: "GET /projects", path: "/projects", as: asBrowser},
	{route: "POST /projects", path: "/projects", as: asBrowser, body: url.Values{"key": {"yard"}, "title": {"Yard"}}},
	{route: "GET /projects/:key", path: "/projects/ops", as: asBrowser},
	{route: "POST /projects/:key", path: "/projects/yard", as: asBrowser, body: url.Values{"expected_version": {"1"}, "title": {"Back yard"}}},
	{route: "POST /projects/:key/move", path: "/projects/yard/move", as: asBrowser, body: url.Values{"parent": {"ops"}}},
	{route: "POST /projects/:key/tasks", path: "/projects/yard/tasks", as: asBrowser, body: url.Values{"text": {"Rake leaves"}}},
	{route: "POST /projects/:key/members", path: "/projects/yard/members", as: asBrowser, body: url.Values{"username": {"ann"}}},
	{route: "POST /projects/:key/roles", path: "/projects/yard/roles", as: asBrowser, body: url.Values{"username": {"ann"}, "role": {"viewer"}}},
	{route: "POST /projects/:key/members/:username/remove", path: "/projects/yard/members/ann/remove", as: asBrowser, body: url.Values{}},
	{route: "POST /projects/:key/trash", path: "/projects/yard/trash", as: asBrowser, body: url.Values{}},
	{route: "POST /projects/:key/restore", path: "/projects/yard/restore", as: asBrowser, body: url.Values{}},
	{route: "GET /search", path: "/search?q=runbook", as: asBrowser},
	{route: "GET /account", path: "/account", as: asBrowser},
	{route: "POST /account", path: "/account", as: asBrowser, body: url.Values{"display_name": {"The admin"}}},
	{route: "POST /account/tokens", path: "/account/tokens", as: asBrowser, body: url.Values{"title": {"phone"}}},
	{route: "POST /account/tokens/:token/revoke", path: "/account/tokens/{page_token}/revoke", as: asBrowser, body: url.Values{}},
	{route: "POST /views", path: "/views", as: asBrowser, body: url.Values{"name": {"Ops"}, "query": {"project=ops"}, "shared": {"1"}}},
	{route: "POST /account/calendars", path: "/account/calendars", as: asBrowser, body: url.Values{"title": {"Phone"}}},
	{route: "POST /account/calendars/:calendar/reset", path: "/account/calendars/{calendar}/reset", as: asBrowser, body: url.Values{}},
	{route: "POST /account/calendars/:calendar/revoke", path: "/account/calendars/{calendar}/revoke", as: asBrowser, body: url.Values{}},
	{route: "POST /account/channels", path: "/account/channels", as: asBrowser, body: url.Values{"url": {"https://93.184.216.34/phone"}, "name": {"phone"}}},
	{route: "POST /account/channels/:channel/test", path: "/account/channels/{page_channel}/test", as: asBrowser, body: url.Values{}},
	{route: "POST /account/channels/:channel/remove", path: "/account/channels/{page_channel}/remove", as: asBrowser, body: url.Values{}},
	{route: "POST /account/digest", path: "/account/digest", as: asBrowser, body: url.Values{"digest_time": {"07:30"}}},
	{route: "POST /v1/workspaces", path: "/v1/workspaces", body: map[string]any{"slug": "spare", "name": "Spare"}},
	{route: "PATCH /v1/workspaces/:workspace", path: "/v1/workspaces/spare", body: map[string]any{"name": "Spare room"}},
	{route: "DELETE /v1/workspaces/:workspace", path: "/v1/workspaces/spare"},
	{route: "POST /v1/workspaces/:workspace/restore", path: "/v1/workspaces/spare/restore"},
	{route: "DELETE /v1/session", path: "/v1/session", as: asNobody, header: map[string]string{"Cookie": "tend_session={other_session}", "Origin": "{origin}"}},
	{route: "GET /webhooks", path: "/webhooks?workspace_id=default", as: asBrowser},
	{route: "POST /webhooks", path: "/webhooks?workspace_id=default", as: asBrowser, body: url.Values{"url": {"https://93.184.216.34/added"}, "events": {"task.*, comment.created"},
		"description": {"Bot"}}, save: "page_webhook"},
	{route: "GET /webhooks/:webhook", path: "/webhooks/{webhook}?workspace_id=default", as: asBrowser},
	{route: "POST /webhooks/:webhook", path: "/webhooks/{webhook}?workspace_id=default", as: asBrowser, body: url.Values{"url": {"https://93.184.216.34/edited"}, "events": {"*"},
		"description": {"CI"}}},
	{route: "POST /webhooks/:webhook/active", path: "/webhooks/{webhook}/active?workspace_id=default", as: asBrowser, body: url.Values{"active": {"false"}}},
	{route: "POST /webhooks/:webhook/rotate", path: "/webhooks/{webhook}/rotate?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "POST /webhooks/:webhook/replay", path: "/webhooks/{webhook}/replay?workspace_id=default", as: asBrowser, body: url.Values{"since": {"1"}}},
	{route: "POST /webhooks/:webhook/redeliver/:delivery", path: "/webhooks/{webhook}/redeliver/1?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "POST /webhooks/:webhook/delete", path: "/webhooks/{page_webhook}/delete?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "DELETE /v1/webhooks/:webhook", path: "/v1/webhooks/{webhook}?workspace_id=default"},
	{route: "GET /people", path: "/people?workspace_id=default", as: asBrowser},
	{route: "POST /people", path: "/people?workspace_id=default", as: asBrowser, body: url.Values{"new_agent": {"scout"}, "answers_to": {"admin"},
		"scopes": {"project:read", "item:read"}, "title": {"scout"}}, save: "people_token"},
	{route: "POST /people/:username/role", path: "/people/ann/role?workspace_id=default", as: asBrowser, body: url.Values{"role": {"viewer"}}},
	{route: "POST /people/:username/active", path: "/people/scout/active?workspace_id=default", as: asBrowser, body: url.Values{"active": {"true"}}},
	{route: "POST /people/:username/tokens/:token/revoke", path: "/people/scout/tokens/{people_token}/revoke?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "GET /v1/push/key", path: "/v1/push/key", as: asNobody},
	{route: "POST /v1/me/channels", path: "/v1/me/channels", body: map[string]any{"type": "webpush", "name": "laptop",
		"endpoint": "https://93.184.216.34/push/abc", "keys": map[string]any{"p256dh": "B" + b64(65)[1:], "auth": b64(16)}}, save: "channel"},
	{route: "GET /v1/me/channels", path: "/v1/me/channels"},
	{route: "POST /v1/me/channels/:channel/test", path: "/v1/me/channels/{channel}/test"},
	{route: "GET /v1/me/notifications", path: "/v1/me/notifications"},
	{route: "GET /v1/actions/:token", path: "/v1/actions/{action}", as: asNobody, prep: seedAction},
	{route: "POST /v1/actions/:token", path: "/v1/actions/{action}", as: asNobody},
	{route: "DELETE /v1/me/channels/:channel", path: "/v1/me/channels/{channel}"},
	{route: "POST /v1/workspaces/:workspace/invites", path: "/v1/workspaces/default/invites", body: map[string]any{"role": "member", "max_uses": 3, "note": "Welcome"}, save: "invite"},
	{route: "GET /v1/workspaces/:workspace/invites", path: "/v1/workspaces/default/invites"},
	{route: "POST /v1/invites/check", path: "/v1/invites/check", as: asNobody, prep: seedInvite, body: map[string]any{"invite": "{invite_secret}", "username": "newcomer"}},
	{route: "GET /join/:secret", path: "/join/{invite_secret}", as: asNobody, prep: seedInvite},
	{route: "POST /join/:secret", path: "/join/{invite_secret}", as: asNobody, header: map[string]string{"Origin": "{origin}"}, body: url.Values{"username": {"joiner"}, "timezone": {"UTC"}}},
	{route: "POST /v1/invites/accept", path: "/v1/invites/accept", as: asNobody, body: map[string]any{"invite": "{invite_secret}", "username": "accepter", "timezone": "UTC"}},
	{route: "GET /invites", path: "/invites?workspace_id=default", as: asBrowser},
	{route: "POST /invites", path: "/invites?workspace_id=default", as: asBrowser, body: url.Values{"role": {"member"}, "expires_in": {"7d"}, "max_uses": {"1"}, "note": {"For Bo"}}},
	{route: "POST /invites/:invite/revoke", path: "/invites/{invite}/revoke?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "DELETE /v1/workspaces/:workspace/invites/:invite", path: "/v1/workspaces/default/invites/{invite}"},
	{route: "GET /v1/me/passkeys", path: "/v1/me/passkeys"},
	{route: "POST /v1/me/passkeys/options", path: "/v1/me/passkeys/options", as: asBrowser, header: passkeyHeaders},
	{route: "POST /v1/me/passkeys", path: "/v1/me/passkeys", as: asBrowser, header: passkeyHeaders, prep: passkeyRegistrationPrep,
		body: `{"challenge_id":"{passkey_challenge}","name":"laptop","credential":{passkey_credential}}`, save: "passkey"},
	{route: "PATCH /v1/me/passkeys/:passkey", path: "/v1/me/passkeys/{passkey}", body: map[string]any{"name": "work laptop"}},
	{route: "POST /account/passkeys/:passkey/rename", path: "/account/passkeys/{passkey}/rename", as: asBrowser, body: url.Values{"name": {"old laptop"}}},
	{route: "POST /v1/passkeys/signin/options", path: "/v1/passkeys/signin/options", as: asNobody, header: passkeyHeaders},
	{route: "POST /v1/passkeys/signin", path: "/v1/passkeys/signin", as: asNobody, header: passkeyHeaders, prep: passkeySignInPrep,
		body: `{"challenge_id":"{passkey_challenge}","credential":{passkey_credential}}`},
	{route: "POST /account/passkeys/:passkey/remove", path: "/account/passkeys/{passkey}/remove", as: asBrowser, body: url.Values{}},
	{route: "DELETE /v1/me/passkeys/:passkey", path: "/v1/me/passkeys/{spare_passkey}", prep: passkeySparePrep},
	{route: "GET /v1/me/sessions", path: "/v1/me/sessions", as: asBrowser},
	{route: "POST /v1/me/device-links", path: "/v1/me/device-links", as: asBrowser},
	{route: "GET /v1/users/:username/sessions", path: "/v1/users/admin/sessions"},
	{route: "DELETE /v1/me/sessions/:session", path: "/v1/me/sessions/{spare_session}", as: asBrowser, prep: seedSpareSession},
	{route: "DELETE /v1/users/:username/sessions/:session", path: "/v1/users/admin/sessions/{spare_session}", prep: seedSpareSession},
	{route: "POST /account/device-link", path: "/account/device-link", as: asBrowser, body: url.Values{},
		keep: regexp.MustCompile(`device-link|id="devices"`)}, // the QR code draws the secret
	{route: "POST /account/sessions/:session/revoke", path: "/account/sessions/{spare_session}/revoke", as: asBrowser, body: url.Values{}, prep: seedSpareSession},
	{route: "POST /account/signout-others", path: "/account/signout-others", as: asBrowser, body: url.Values{}},
	{route: "POST /account/tailscale", path: "/account/tailscale", as: asBrowser, body: url.Values{}, header: map[string]string{"Tailscale-User-Login": "admin@example.com"},
		prep: func(e *env, _ map[string]string) { e.TrustTailscale() }},
	{route: "POST /people/:username/sessions/:session/revoke", path: "/people/admin/sessions/{spare_session}/revoke?workspace_id=default", as: asBrowser,
		body: url.Values{}, prep: seedSpareSession},
	{route: "POST /people-invites/:invite/revoke", path: "/people-invites/{invite}/revoke?workspace_id=default", as: asBrowser, body: url.Values{}},
	{route: "POST /signout", path: "/signout", as: asBrowser, body: url.Values{}},
}

// seedSpareSession signs the administrator in in another browser, for a
// call to revoke.
func seedSpareSession(e *env, vals map[string]string) {
	spare := e.SignIn(e.MintLink(e.Admin, nil)).Value
	for _, s := range e.sessionsOf("/v1/me/sessions", spare, "") {
		if s["current"] == true {
			vals["spare_session"] = s["id"].(string)
		}
	}
}

// seedInvite makes an invite for three and keeps its secret as
// {invite_secret}, for the join page and the redemptions.
func seedInvite(e *env, vals map[string]string) {
	_, vals["invite_secret"] = e.invite(e.Admin, map[string]any{"role": "member", "max_uses": 3, "note": "Come in"})
}

// seedAction makes a reminder fire for the administrator (whose channel
// the calls before made) and keeps the Done link of its notification as
// {action}. The clock goes back after, so no later golden moves.
func seedAction(e *env, vals map[string]string) {
	now := e.Clock.Now()
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks?workspace_id=default", e.Admin, map[string]any{"title": "Call the plumber",
		"project": "ops", "reminders": []any{map[string]any{"at": now.Add(time.Minute).Format(time.RFC3339)}}})
	e.Clock.Advance(time.Minute)
	defer e.Clock.Set(now)
	sends, _, err := e.Svc.NotifyLease(context.Background(), 10, time.Minute)
	for _, s := range sends {
		if len(s.Actions) > 0 {
			_, vals["action"], _ = strings.Cut(s.Actions[0].URL, "/v1/actions/")
			return
		}
	}
	e.T.Fatalf("no notification with actions: %v, %v", sends, err)
}

// routeSeed fills the one fixture every route's call reads and returns the
// values its placeholders stand for.
func routeSeed(e *env) map[string]string {
	e.T.Helper()
	vals := map[string]string{"origin": e.Srv.URL}
	ref := func(m map[string]any) string { return itoaRef(m["ref"]) }
	e.tskProject("ops", "")
	ann := e.Member("ann", "member")
	task := e.CreateTask(e.Admin, map[string]any{"title": "Fix the boiler", "project": "ops", "tags": []string{"home"},
		"description": "It clanks", "due_at": "2030-01-05T09:00:00Z", "importance": 3})
	vals["task"] = ref(task)
	vals["subtask"] = ref(e.CreateTask(e.Admin, map[string]any{"title": "Find the manual", "parent": task["ref"]}))
	vals["repeating"] = ref(e.CreateTask(e.Admin, map[string]any{"text": "Water the plants every monday #ops"}))
	vals["spare_task"] = ref(e.CreateTask(e.Admin, map[string]any{"title": "Spare", "project": "ops"}))
	vals["page_task"] = ref(e.CreateTask(e.Admin, map[string]any{"title": "Sweep the floor", "project": "ops"}))
	vals["page_channel"] = e.OK(http.StatusCreated, http.MethodPost, "/v1/me/channels", e.Admin,
		map[string]any{"type": "ntfy", "url": "https://93.184.216.34/seed", "name": "tablet"})["id"].(string)
	doc := e.docCreate(e.Admin, map[string]any{"title": "Runbook", "body": "# Steps\n\nsee #" + vals["task"], "project": "ops"})
	vals["doc"] = ref(doc)
	vals["spare_doc"] = ref(e.docCreate(e.Admin, map[string]any{"title": "Spare doc", "body": "x", "project": "ops"}))
	pageDoc := e.docCreate(e.Admin, map[string]any{"title": "Page doc", "body": "y", "project": "ops"})
	vals["page_doc"] = ref(pageDoc)
	vals["page_doc_version"] = fmt.Sprint(lstNum(e.OK(http.StatusOK, http.MethodGet, "/v1/documents/"+ref(pageDoc), e.Admin, nil)["version"]))
	vals["comment"] = e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks/"+vals["task"]+"/comments", e.Admin, map[string]any{"body": "Parts?"})["id"].(string)
	vals["spare_token"] = e.Issue(e.Admin, map[string]any{"title": "spare"})["id"].(string)
	feed, cal := e.Calendar(ann, map[string]any{"title": "Ann's"})
	vals["feed"] = strings.TrimPrefix(feed, e.Srv.URL)
	_ = cal
	_, spareCal := e.Calendar(e.Admin, map[string]any{"title": "Spare"})
	vals["spare_calendar"] = spareCal["prefix"].(string)
	_, pageCal := e.Calendar(e.Admin, map[string]any{"title": "Page"})
	vals["calendar"] = pageCal["prefix"].(string)
	link := func(from, kind, to string) string {
		return e.OK(http.StatusCreated, http.MethodPost, "/v1/items/"+from+"/links", e.Admin, map[string]any{"link_type": kind, "target": to})["id"].(string)
	}
	vals["page_link"] = link(vals["page_task"], "relates_to", vals["subtask"])
	vals["page_doc_link"] = link(vals["doc"], "relates_to", vals["spare_task"])
	vals["page_token"] = e.Issue(e.Admin, map[string]any{"title": "page"})["id"].(string)
	vals["session"] = e.SignIn(e.MintLink(e.Admin, nil)).Value
	vals["other_session"] = e.SignIn(e.MintLink(ann, nil)).Value
	vals["link"] = e.MintLink(ann, nil)
	device := e.OK(http.StatusOK, http.MethodPost, "/v1/auth/device", "", map[string]any{})
	vals["device_code"], vals["user_code"] = device["device_code"].(string), device["user_code"].(string)
	// Last, so that the refs of everything above stay as they were: what
	// the trash's routes act on, two of them already in the trash.
	trashed := func(path string, m map[string]any) string {
		e.OK(http.StatusOK, http.MethodDelete, path+ref(m), e.Admin, nil)
		return ref(m)
	}
	vals["trashed_task"] = trashed("/v1/tasks/", e.CreateTask(e.Admin, map[string]any{"title": "Old plan", "project": "ops"}))
	vals["trashed_doc"] = trashed("/v1/documents/", e.docCreate(e.Admin, map[string]any{"title": "Old notes", "body": "z", "project": "ops"}))
	vals["page_purge"] = trashed("/v1/tasks/", e.CreateTask(e.Admin, map[string]any{"title": "Older plan", "project": "ops"}))
	vals["page_trash"] = ref(e.CreateTask(e.Admin, map[string]any{"title": "Tidy the shelf", "project": "ops"}))
	vals["static"] = regexp.MustCompile(`/static/([^/]+)/`).FindStringSubmatch(string(e.Browser(http.MethodGet, "/", vals["session"], "", nil).Body))[1]
	return vals
}

// TestRouteGoldens makes one representative successful request to every
// route the router registers, from one seeded fixture, and compares its
// status, the headers a client relies on and its body with
// testdata/routes/<METHOD>_<path>.golden (ids, secrets, ports and the
// static files' version stand in as placeholders); go test ./web -run
// TestRouteGoldens -update rewrites them. A route without a call here fails
// the test, so a new route cannot go without its golden.
func TestRouteGoldens(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Handler().ServeMetrics(web.NewMetrics(slog.New(slog.DiscardHandler), "test"))
	vals := routeSeed(e)

	var covered, goldens []string
	for _, c := range routeCalls {
		covered = append(covered, c.route)
		goldens = append(goldens, c.golden())
	}
	registered := web.Registered(e.Handler())
	for _, r := range registered {
		if !slices.Contains(covered, r) {
			t.Errorf("route %s has no call in routeCalls, so no golden", r)
		}
	}
	for _, c := range covered {
		if !slices.Contains(registered, c) {
			t.Errorf("routeCalls names %s, which is not a route", c)
		}
	}
	if c := slices.Compact(slices.Sorted(slices.Values(goldens))); len(c) != len(goldens) {
		t.Errorf("routeCalls names a route twice")
	}

	fill := filler(vals)
	for _, c := range routeCalls {
		if c.prep != nil {
			c.prep(e, vals)
		}
		r := routeSend(e, c, fill, vals["session"])
		if r.Status >= 400 && r.Status != c.refused {
			t.Errorf("%s (%s): status %d\n%s", c.route, fill(c.path), r.Status, r.Body)
			continue
		}
		if c.save != "" {
			vals[c.save] = savedID(t, r)
		}
		if c.keep != nil {
			var kept []string
			for _, l := range strings.Split(string(r.Body), "\n") {
				if c.keep.MatchString(l) {
					kept = append(kept, l)
				}
			}
			r.Body = []byte(strings.Join(kept, "\n"))
		}
		routeGolden(t, c.golden(), routeRecord(r, vals))
	}
}

// savedID is the id of the record a call created: the API's answer's
// id, or on a page the data-id of what it made.
func savedID(t *testing.T, r webtest.Response) string {
	t.Helper()
	if strings.Contains(r.Header.Get("Content-Type"), "json") {
		return r.JSON(t)["id"].(string)
	}
	m := regexp.MustCompile(`data-id="([^"]+)"`).FindSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the page names no data-id:\n%s", r.Body)
	}
	return string(m[1])
}

// routeSend sends c as its caller would, its placeholders filled.
func routeSend(e *env, c routeCall, fill func(string) string, session string) webtest.Response {
	e.T.Helper()
	method, _, _ := strings.Cut(c.route, " ")
	var req *http.Request
	switch b := c.body.(type) {
	case url.Values:
		form := url.Values{}
		for k, vs := range b {
			for _, v := range vs {
				form.Add(k, fill(v))
			}
		}
		req = e.Request(method, fill(c.path), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case nil:
		req = e.Request(method, fill(c.path), nil)
	case string: // JSON text, for a body that holds JSON a prep made
		req = e.Request(method, fill(c.path), strings.NewReader(fill(b)))
		req.Header.Set("Content-Type", "application/json")
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			e.T.Fatal(err)
		}
		req = e.Request(method, fill(c.path), strings.NewReader(fill(string(buf))))
		req.Header.Set("Content-Type", "application/json")
	}
	switch c.as {
	case asAdmin:
		req.Header.Set("Authorization", "Bearer "+e.Admin)
	case asBrowser:
		req.AddCookie(&http.Cookie{Name: "tend_session", Value: session})
		req.Header.Set("Origin", e.Srv.URL)
	}
	for k, v := range c.header {
		if k == "Host" {
			req.Host = fill(v)
			continue
		}
		req.Header.Set(k, fill(v))
	}
	return e.Exchange(req)
}

// routeHeaders are the answer's headers a golden records: what a client
// acts on. An ETag is recorded as present, not by its value.
var routeHeaders = []string{"Allow", "Cache-Control", "Content-Disposition", "Content-Type", "ETag", "Location", "Set-Cookie", "WWW-Authenticate"}

// routeBodyMax is the longest body a golden holds as text; a longer one
// (the OpenAPI document, the guides, a stylesheet) is recorded by its
// length and digest, as the file that holds it is pinned elsewhere.
const routeBodyMax = 160 << 10

// routeRecord is the golden text of an answer.
func routeRecord(r webtest.Response, vals map[string]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "status: %d\n", r.Status)
	for _, h := range routeHeaders {
		for _, v := range r.Header.Values(h) {
			if h == "ETag" {
				v = "(present)"
			}
			fmt.Fprintf(&b, "%s: %s\n", h, v)
		}
	}
	body := r.Body
	if strings.Contains(r.Header.Get("Content-Type"), "json") && json.Valid(body) {
		var ind bytes.Buffer
		if json.Indent(&ind, bytes.TrimSpace(body), "", "  ") == nil {
			body = ind.Bytes()
		}
	}
	b.WriteByte('\n')
	b.Write(body)
	out := routeStable(b.Bytes(), vals)
	if len(out) > routeBodyMax {
		head, stable, _ := bytes.Cut(out, []byte("\n\n"))
		out = fmt.Appendf(head, "\n\n(%d bytes, sha256 %x)", len(body), sha256.Sum256(stable))
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

// routeSecrets are a credential's whole secret (or a device code, or a
// webhook's signing secret, as JSON or a page writes it), a
// session cookie, a listing's cursor, an exported feed's ETag, a
// device sign-in's user code and a passkey ceremony's challenge and user
// handle, which a run makes anew; routePrefix is a credential's
// public prefix, which differs from run to run too but tells two
// credentials apart, so each becomes a numbered stand-in.
var (
	routeSecrets = regexp.MustCompile(`tend_[a-z0-9]{10}_[a-z0-9]+|tend_session=[^;]+|eyJ[A-Za-z0-9_-]{20,}|"etag":"\\"[0-9a-f]{32}\\""|[B-Z]{4}-[B-Z]{4}|whsec_(?:[A-Za-z0-9+/=]|&#43;)+|"vapid_public_key": ?"[A-Za-z0-9_-]+"|"challenge": ?"[A-Za-z0-9_-]{43}"|"id": ?"[A-Za-z0-9_-]{48}"`)
	routePrefix  = regexp.MustCompile(`tend_[a-z0-9]{10}`)
)

// routeStable replaces what differs from run to run by stand-ins.
func routeStable(b []byte, vals map[string]string) []byte {
	b = bytes.ReplaceAll(b, []byte(vals["origin"]), []byte("http://tend.test"))
	b = bytes.ReplaceAll(b, []byte(vals["static"]), []byte("{static}"))
	b = routeSecrets.ReplaceAllFunc(b, func(s []byte) []byte {
		switch {
		case bytes.HasPrefix(s, []byte("tend_session=")):
			return []byte("tend_session={session}")
		case bytes.HasPrefix(s, []byte("eyJ")):
			return []byte("{cursor}")
		case bytes.HasPrefix(s, []byte(`"etag"`)):
			return []byte(`"etag":"{etag}"`)
		case bytes.HasPrefix(s, []byte(`"vapid_public_key"`)):
			return []byte(`"vapid_public_key": "{key}"`)
		case bytes.HasPrefix(s, []byte(`"challenge"`)):
			return []byte(`"challenge": "{challenge}"`)
		case bytes.HasPrefix(s, []byte(`"id"`)): // a passkey's user handle, the account's id in base64url
			return []byte(`"id": "{user_handle}"`)
		}
		return []byte("{secret}")
	})
	b = numbered(b, routePrefix, "tend_p%09d")
	return numbered(b, uuidRe, "00000000-0000-0000-0000-%012d")
}

// numbered replaces each distinct match of re in b by format's stand-in,
// numbered in order of first appearance.
func numbered(b []byte, re *regexp.Regexp, format string) []byte {
	seen := map[string]string{}
	return re.ReplaceAllFunc(b, func(id []byte) []byte {
		s, ok := seen[string(id)]
		if !ok {
			s = fmt.Sprintf(format, len(seen)+1)
			seen[string(id)] = s
		}
		return []byte(s)
	})
}

// routeGolden compares got with testdata/routes/<METHOD>_<path>.golden.
func routeGolden(t *testing.T, route string, got []byte) {
	t.Helper()
	name := strings.NewReplacer(" /", "_", "/", "_", ":", "", "*", "").Replace(route)
	golden.Check(t, filepath.Join("testdata", "routes", name+".golden"), got)
}

// filler puts the seeded values in a route call's {placeholders}.
func filler(vals map[string]string) func(string) string {
	return func(s string) string {
		for k, v := range vals {
			s = strings.ReplaceAll(s, "{"+k+"}", v)
		}
		return s
	}
}
