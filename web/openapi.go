package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"tend/app"
	"tend/web/wire"
)

// The OpenAPI 3.1 document of every route the router serves, built from
// this file's table of operations and the wire types the handlers write
// and read: a field added to a wire type reaches the document by itself.
// TestOpenAPIRoutes requires the table and the router to name the same
// routes, TestOpenAPIGolden keeps docs/openapi.json equal to what
// GET /openapi.json serves, and webtest validates every request and answer
// of the HTTP tests against it.

// op is one operation: a route as the router registers it (:param and
// *rest), what it takes and what it answers on success. Every operation
// may also answer a problem document.
type op struct {
	method, path string
	summary      string
	auth         access
	in           any         // the JSON request body: a zero value of its type; nil for none
	inOptional   bool        // the body may be left out (action routes)
	form         bool        // the body is an HTML form (the web app's writes)
	status       int         // the success status
	out          any         // the success body: a zero value of its type, a listing, a jsonSchema; nil for none
	media        string      // the success body's media types (comma-separated), when not application/json
	also         map[int]any // other answers that are not problems: status to body (nil for none)
	mcpRefusal   bool        // a refusal may also be a JSON-RPC error or plain text (the MCP SDK's own)
	pageRefusal  bool        // a refusal is rendered as a page (the web app)
}

// access is who may call an operation.
type access int

const (
	signedIn access = iota // a bearer credential or a browser session
	public                 // anyone: no credential is read
)

// listing is a listing envelope (wire.List) of items of item's type.
// shaped listings also answer format=ids and format=compact, whose items
// are strings, and fields=, whose items carry some of the fields.
type listing struct {
	item    any
	shaped  bool
	unpaged bool // items alone, no page
}

// shapedOne is a single record that format= and fields= may shape as they
// shape a listing's items.
type shapedOne struct{ item any }

// jsonSchema is a schema written out, for a body no Go type describes.
type jsonSchema map[string]any

// anyOf is a body of one of several types, where one path serves several
// operations by name (/v1/tasks/preview, /v1/tasks/bulk).
type anyOf []any

const (
	mediaHTML     = "text/html"
	mediaMarkdown = "text/markdown"
)

// Page routes answer HTML (200), redirect after a write (303), and render a
// refusal as an HTML page.
func page(method, path, summary string) op {
	o := op{method: method, path: path, summary: summary, media: mediaHTML, status: http.StatusOK, pageRefusal: true}
	if method == http.MethodPost {
		o.form, o.status = true, http.StatusSeeOther
	}
	return o
}

// apiOps is the table of operations: the JSON API, the probes, MCP, the
// feeds, the document itself and the web app's pages; itemOps adds those a
// task and a document share.
var apiOps = []op{
	{method: "GET", path: "/healthz", summary: "Liveness: the process answers", auth: public, status: 200, out: jsonSchema{"type": "object", "properties": map[string]any{"status": map[string]any{"type": "string"}}}},
	{method: "GET", path: "/readyz", summary: "Readiness: the database answers and has room for writes", auth: public, status: 200, out: jsonSchema{"type": "object"},
		also: map[int]any{503: jsonSchema{"type": "object", "properties": map[string]any{"status": map[string]any{"const": "unavailable"}, "code": map[string]any{"type": "string"}}}}},
	{method: "GET", path: "/metrics", summary: "Prometheus metrics (404 unless the server collects them)", status: 200, out: jsonSchema{}, media: "text/plain"},
	{method: "GET", path: "/openapi.json", summary: "This document", auth: public, status: 200, out: jsonSchema{"type": "object"}},
	{method: "POST", path: "/mcp", summary: "The MCP server (streamable HTTP, stateless: JSON-RPC over POST)", status: 200, in: jsonSchema{}, out: jsonSchema{},
		also: map[int]any{202: nil}, mcpRefusal: true}, // 202: a notification or a response, accepted, no body

	{method: "GET", path: "/v1/me", summary: "The caller: account, credential, workspaces", status: 200, out: wire.Me{}},
	{method: "GET", path: "/v1/meta", summary: "What this instance accepts: vocabularies, limits, grammars, error codes", status: 200, out: metaJSON{}},
	{method: "GET", path: "/v1/docs/agent", summary: "The guide for agents (Markdown)", status: 200, out: jsonSchema{"type": "string"}, media: mediaMarkdown},
	{method: "GET", path: "/v1/docs/examples", summary: "Worked calls (Markdown)", status: 200, out: jsonSchema{"type": "string"}, media: mediaMarkdown},

	{method: "GET", path: "/v1/instance", summary: "The instance", status: 200, out: instanceJSON{}},
	{method: "PATCH", path: "/v1/instance", summary: "Change the instance", in: wire.InstanceUpdate{}, status: 200, out: instanceJSON{}},
	{method: "GET", path: "/v1/instance/workspaces", summary: "Every workspace of the instance", status: 200, out: listing{item: workspaceOnInstanceJSON{}}},

	{method: "GET", path: "/v1/users", summary: "List accounts", status: 200, out: listing{item: userJSON{}, shaped: true}},
	{method: "POST", path: "/v1/users", summary: "Create an account", in: wire.UserCreate{}, status: 201, out: userJSON{}},
	{method: "GET", path: "/v1/users/:username", summary: "Read an account", status: 200, out: userJSON{}},
	{method: "PATCH", path: "/v1/users/:username", summary: "Change an account", in: wire.UserUpdate{}, status: 200, out: userJSON{}},
	{method: "POST", path: "/v1/users/:username/signout", summary: "Sign an account out of every browser (keep=current: all but the session calling)", status: 200, out: signedOutJSON{}},

	{method: "GET", path: "/v1/workspaces", summary: "List workspaces", status: 200, out: listing{item: workspaceJSON{}}},
	{method: "POST", path: "/v1/workspaces", summary: "Create a workspace", in: wire.WorkspaceCreate{}, status: 201, out: workspaceJSON{}},
	{method: "GET", path: "/v1/workspaces/:workspace", summary: "Read a workspace", status: 200, out: workspaceJSON{}},
	{method: "PATCH", path: "/v1/workspaces/:workspace", summary: "Change a workspace", in: wire.WorkspaceUpdate{}, status: 200, out: workspaceJSON{}},
	{method: "DELETE", path: "/v1/workspaces/:workspace", summary: "Trash a workspace", status: 200, out: workspaceJSON{}},
	{method: "POST", path: "/v1/workspaces/:workspace/restore", summary: "Restore a trashed workspace", in: struct{}{}, inOptional: true, status: 200, out: workspaceJSON{}},
	{method: "GET", path: "/v1/workspaces/:workspace/members", summary: "List a workspace's members", status: 200, out: listing{item: memberJSON{}}},
	{method: "POST", path: "/v1/workspaces/:workspace/members", summary: "Add a member", in: wire.Join{}, status: 201, out: memberJSON{}},
	{method: "PATCH", path: "/v1/workspaces/:workspace/members/:username", summary: "Change a member's role", in: wire.Regrade{}, status: 200, out: memberJSON{}},
	{method: "DELETE", path: "/v1/workspaces/:workspace/members/:username", summary: "Remove a member", status: 204},
	{method: "GET", path: "/v1/workspaces/:workspace/settings", summary: "The settings in force in a workspace", status: 200, out: listing{item: inForceJSON{}}},

	{method: "POST", path: "/v1/login-links", summary: "Mint a sign-in link for a browser", in: wire.LoginLinkCreate{}, status: 201, out: loginLinkJSON{}},
	{method: "DELETE", path: "/v1/session", summary: "End the browser session presented", status: 204},
	{method: "GET", path: "/v1/me/sessions", summary: "Your browser sessions, as devices (never a secret or an address)", status: 200, out: listing{item: wire.DeviceSession{}}},
	{method: "DELETE", path: "/v1/me/sessions/:session", summary: "Revoke one of your browser sessions", status: 204},
	{method: "POST", path: "/v1/me/device-links", summary: "Mint a ten-minute sign-in link for another device of your own", inOptional: true, in: struct{}{}, status: 201, out: wire.DeviceLink{}},
	{method: "GET", path: "/v1/users/:username/sessions", summary: "An account's browser sessions (instance:user_create)", status: 200, out: listing{item: wire.DeviceSession{}}},
	{method: "DELETE", path: "/v1/users/:username/sessions/:session", summary: "Revoke one of an account's browser sessions (instance:user_create)", status: 204},
	{method: "POST", path: "/v1/auth/device", summary: "Start a terminal's browser sign-in (RFC 8628 device authorization)", auth: public, in: deviceStartIn{}, inOptional: true, status: 200, out: deviceStartJSON{}},
	{method: "POST", path: "/v1/auth/device/token", summary: "Poll for the credential a browser sign-in yields (RFC 8628)", auth: public, in: deviceTokenIn{}, status: 200, out: issuedTokenJSON{}},

	{method: "GET", path: "/v1/tokens", summary: "List credentials", status: 200, out: listing{item: tokenJSON{}}},
	{method: "POST", path: "/v1/tokens", summary: "Issue a credential", in: wire.TokenCreate{}, status: 201, out: issuedTokenJSON{}},
	{method: "DELETE", path: "/v1/tokens/:token", summary: "Revoke a credential", status: 200, out: tokenJSON{}},

	{method: "GET", path: "/v1/calendars", summary: "List calendar feeds", status: 200, out: listing{item: calendarJSON{}}},
	{method: "POST", path: "/v1/calendars", summary: "Create a calendar feed", in: wire.CalendarCreate{}, status: 201, out: issuedCalendarJSON{}},
	{method: "DELETE", path: "/v1/calendars/:calendar", summary: "Revoke a calendar feed", status: 200, out: calendarJSON{}},
	{method: "POST", path: "/v1/calendars/:calendar/reset", summary: "Give a calendar feed a new secret", status: 200, out: issuedCalendarJSON{}},
	{method: "GET", path: "/v1/calendars/:calendar/:secret", summary: "The iCalendar feed (the secret in the path is the credential)", auth: public, status: 200, out: jsonSchema{"type": "string"}, media: "text/calendar",
		also: map[int]any{304: nil}}, // If-None-Match or If-Modified-Since
	{method: "GET", path: "/v1/views", summary: "List your saved views and those shared in the workspace, with their counts", status: 200, out: listing{item: wire.View{}}},
	{method: "POST", path: "/v1/views", summary: "Save a view: the task listing's filters and order under a name", in: wire.ViewCreate{}, status: 201, out: wire.View{}},
	{method: "GET", path: "/v1/views/:view", summary: "Read a view (by id or name)", status: 200, out: wire.View{}},
	{method: "PATCH", path: "/v1/views/:view", summary: "Change your view", in: wire.ViewUpdate{}, status: 200, out: wire.View{}},
	{method: "DELETE", path: "/v1/views/:view", summary: "Remove your view", status: 200, out: wire.View{}},
	{method: "GET", path: "/v1/me/channels", summary: "Your notification channels (never a token or a push subscription's keys)", status: 200, out: listing{item: wire.Channel{}}},
	{method: "POST", path: "/v1/me/channels", summary: "Add an ntfy topic or a browser's Web Push subscription; the same subscription again answers 200 with its channel", in: wire.ChannelCreate{}, status: 201, out: wire.Channel{}, also: map[int]any{200: wire.Channel{}}},
	{method: "DELETE", path: "/v1/me/channels/:channel", summary: "Remove one of your channels", status: 204},
	{method: "POST", path: "/v1/me/channels/:channel/test", summary: "Queue a test notification to a channel", inOptional: true, in: struct{}{}, status: 202, out: wire.Notification{}},
	{method: "GET", path: "/v1/me/notifications", summary: "Your latest notifications, newest first, with why any failed", status: 200, out: listing{item: wire.Notification{}}},
	{method: "GET", path: "/v1/push/key", summary: "The instance's VAPID public key, for a browser to subscribe with", auth: public, status: 200, out: pushKeyJSON{}},
	{method: "GET", path: "/v1/actions/:token", summary: "A notification's action link opened in a browser: a page whose button does it", auth: public, status: 200, out: jsonSchema{"type": "string"}, media: "text/html"},
	{method: "POST", path: "/v1/actions/:token", summary: "Do a notification's action (done, snooze) once; the token is the capability", auth: public, status: 200, out: actionJSON{}, media: "application/json,text/html"},
	{method: "GET", path: "/v1/webhooks", summary: "List the webhooks you manage in the workspace (never their secrets)", status: 200, out: listing{item: wire.Webhook{}}},
	{method: "POST", path: "/v1/webhooks", summary: "Add a webhook; the answer shows its secret, once", in: wire.WebhookCreate{}, status: 201, out: wire.IssuedWebhook{}},
	{method: "GET", path: "/v1/webhooks/:webhook", summary: "Read a webhook, with a notice when it was disabled", status: 200, out: wire.Webhook{}},
	{method: "PATCH", path: "/v1/webhooks/:webhook", summary: "Change a webhook's url, events, description or whether it is active", in: wire.WebhookUpdate{}, status: 200, out: wire.Webhook{}},
	{method: "DELETE", path: "/v1/webhooks/:webhook", summary: "Remove a webhook with its queue and log", status: 200, out: wire.Webhook{}},
	{method: "POST", path: "/v1/webhooks/:webhook/rotate", summary: "A new secret, shown once; the old one signs beside it for 24 h", status: 200, out: wire.IssuedWebhook{}},
	{method: "GET", path: "/v1/webhooks/:webhook/deliveries", summary: "The delivery log, newest first", status: 200, out: listing{item: wire.WebhookAttempt{}}},
	{method: "POST", path: "/v1/webhooks/:webhook/redeliver/:delivery", summary: "Send a delivery's event again", status: 202, out: wire.WebhookDelivery{}},
	{method: "POST", path: "/v1/webhooks/:webhook/replay", summary: "Send again every matching event from seq since on", status: 202, out: wire.WebhookReplay{}},

	{method: "GET", path: "/v1/me/projects", summary: "The projects the caller reaches, with its permissions in each", status: 200, out: listing{item: projectAccessJSON{}}},
	{method: "GET", path: "/v1/projects", summary: "List projects", status: 200, out: listing{item: wire.Project{}, shaped: true}},
	{method: "POST", path: "/v1/projects", summary: "Create a project", in: wire.ProjectCreate{}, status: 201, out: wire.Project{}},
	{method: "GET", path: "/v1/projects/:project", summary: "Read a project", status: 200, out: wire.Project{}},
	{method: "PATCH", path: "/v1/projects/:project", summary: "Change a project", in: wire.ProjectUpdate{}, status: 200, out: wire.Project{}},
	{method: "DELETE", path: "/v1/projects/:project", summary: "Trash a project", status: 200, out: wire.Project{}},
	{method: "POST", path: "/v1/projects/:project/move", summary: "Move a project under another", in: wire.Move{}, status: 200, out: wire.Project{}},
	{method: "POST", path: "/v1/projects/:project/restore", summary: "Restore a trashed project", in: struct{}{}, inOptional: true, status: 200, out: wire.Project{}},
	{method: "GET", path: "/v1/projects/:project/members", summary: "List the people a project is shared with", status: 200, out: listing{item: projectMemberJSON{}}},
	{method: "POST", path: "/v1/projects/:project/members", summary: "Share a project with a person", in: projectShareJSON{}, status: 201, out: projectMemberJSON{}},
	{method: "DELETE", path: "/v1/projects/:project/members/:username", summary: "Stop sharing a project with a person", status: 204},
	{method: "PUT", path: "/v1/projects/:project/roles/:username", summary: "Set a person's role on a project", in: wire.ProjectRoleGrant{}, status: 200, out: jsonSchema{"type": "object", "properties": map[string]any{
		"project_id": map[string]any{"type": "string"}, "user_id": map[string]any{"type": "string"}, "username": map[string]any{"type": "string"}, "role": map[string]any{"type": "string"}}, "additionalProperties": false}},
	{method: "DELETE", path: "/v1/projects/:project/roles/:username", summary: "Remove a person's role on a project", status: 204},
	{method: "GET", path: "/v1/projects/:project/settings", summary: "The settings in force in a project", status: 200, out: listing{item: inForceJSON{}}},
	{method: "GET", path: "/v1/projects/:project/events", summary: "A project's history", status: 200, out: listing{item: wire.Event{}, shaped: true}},
	{method: "GET", path: "/v1/projects/:project/comments", summary: "A project's comments", status: 200, out: listing{item: wire.Comment{}, shaped: true}},
	{method: "POST", path: "/v1/projects/:project/comments", summary: "Comment on a project", in: wire.CommentCreate{}, status: 201, out: wire.Comment{}},

	{method: "GET", path: "/v1/agenda", summary: "The caller's day: today, overdue, upcoming and the rest", status: 200, out: wire.Agenda{}},
	{method: "GET", path: "/v1/tasks", summary: "List tasks", status: 200, out: wire.TaskList{}},
	{method: "POST", path: "/v1/tasks", summary: "Create a task", in: wire.TaskCreate{}, status: 201, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task", summary: "Preview a task (/v1/tasks/preview: what POST /v1/tasks would create) or change many at once (/v1/tasks/bulk)",
		in: anyOf{wire.TaskCreate{}, wire.TaskBulk{}}, status: 200, out: anyOf{wire.TaskPreview{}, wire.TaskBulkResult{}}},
	{method: "GET", path: "/v1/tasks/:task", summary: "Read a task", status: 200, out: shapedOne{item: wire.Task{}}},
	{method: "PATCH", path: "/v1/tasks/:task", summary: "Change a task", in: wire.TaskUpdate{}, status: 200, out: wire.Task{}},
	{method: "DELETE", path: "/v1/tasks/:task", summary: "Trash a task", status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/claim", summary: "Claim a task (/v1/tasks/next/claim: the next ready one)", in: wire.Claim{}, inOptional: true, status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/release", summary: "Release a claim", in: struct{}{}, inOptional: true, status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/complete", summary: "Complete a task", in: wire.Completion{}, inOptional: true, status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/skip", summary: "Skip a repeating task's occurrence", in: struct{}{}, inOptional: true, status: 200, out: wire.Task{}},
	{method: "GET", path: "/v1/tasks/:task/occurrences", summary: "A repeating task's next occurrences", status: 200, out: occurrencesJSON{}},
	{method: "POST", path: "/v1/recurrence/parse", summary: "Read a repeat phrase or rule", in: wire.RecurrenceParse{}, status: 200, out: readingJSON{}},
	{method: "POST", path: "/v1/tasks/:task/move", summary: "Move a task to another project or parent", in: wire.Move{}, status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/restore", summary: "Restore a trashed task", in: struct{}{}, inOptional: true, status: 200, out: wire.Task{}},
	{method: "POST", path: "/v1/tasks/:task/purge", summary: "Delete a trashed task forever, with its subtree (workspace owners and administrators)", in: struct{}{}, inOptional: true, status: 200, out: wire.Purged{}},
	{method: "GET", path: "/v1/tasks/:task/verifications", summary: "A task's verifications", status: 200, out: listing{item: wire.Verification{}}},
	{method: "POST", path: "/v1/tasks/:task/verifications", summary: "Record a verification", in: wire.RecordVerification{}, status: 201, out: wire.Verification{}},

	{method: "GET", path: "/v1/items/:item", summary: "Show any item by ref or id", status: 200, out: wire.ItemShow{}},
	{method: "POST", path: "/v1/items/:item/comments", summary: "Comment on any item", in: wire.CommentCreate{}, status: 201, out: wire.Comment{}},
	{method: "POST", path: "/v1/items/:item/links", summary: "Link any item", in: wire.LinkRequest{}, status: 201, out: wire.Link{}},
	{method: "GET", path: "/v1/search", summary: "Search tasks and documents", status: 200, out: wire.ItemSearch{}},

	{method: "GET", path: "/v1/documents", summary: "List documents", status: 200, out: listing{item: wire.Document{}, shaped: true}},
	{method: "POST", path: "/v1/documents", summary: "Create a document", in: wire.DocumentCreate{}, status: 201, out: wire.FiledDocument{}},
	{method: "GET", path: "/v1/documents/:document", summary: "Read a document", status: 200, out: shapedOne{item: wire.Document{}}},
	{method: "PATCH", path: "/v1/documents/:document", summary: "Change a document", in: wire.DocumentUpdate{}, status: 200, out: wire.Document{}},
	{method: "DELETE", path: "/v1/documents/:document", summary: "Trash a document", status: 200, out: wire.Document{}},
	{method: "POST", path: "/v1/documents/:document/move", summary: "Move a document", in: wire.DocumentMove{}, status: 200, out: wire.Document{}},
	{method: "POST", path: "/v1/documents/:document/restore", summary: "Restore a trashed document", in: struct{}{}, inOptional: true, status: 200, out: wire.Document{}},
	{method: "POST", path: "/v1/documents/:document/purge", summary: "Delete a trashed document forever, with its sub-documents (workspace owners and administrators)", in: struct{}{}, inOptional: true, status: 200, out: wire.Purged{}},

	{method: "PATCH", path: "/v1/comments/:comment", summary: "Edit a comment", in: wire.CommentUpdate{}, status: 200, out: wire.Comment{}},
	{method: "DELETE", path: "/v1/comments/:comment", summary: "Delete a comment", status: 204},

	{method: "GET", path: "/v1/statuses", summary: "List statuses", status: 200, out: listing{item: wire.Status{}}},
	{method: "POST", path: "/v1/statuses", summary: "Create a status", in: wire.CreateStatus{}, status: 201, out: wire.Status{}},
	{method: "PATCH", path: "/v1/statuses/:which", summary: "Change a status", in: wire.UpdateStatus{}, status: 200, out: wire.Status{}},
	{method: "DELETE", path: "/v1/statuses/:which", summary: "Remove a status", status: 204},
	{method: "GET", path: "/v1/link-types", summary: "List link types", status: 200, out: listing{item: linkTypeJSON{}}},
	{method: "POST", path: "/v1/link-types", summary: "Create a link type", in: wire.CreateLinkType{}, status: 201, out: linkTypeJSON{}},
	{method: "PATCH", path: "/v1/link-types/:which", summary: "Change a link type", in: wire.UpdateLinkType{}, status: 200, out: linkTypeJSON{}},
	{method: "DELETE", path: "/v1/link-types/:which", summary: "Remove a link type", status: 204},
	{method: "GET", path: "/v1/tags", summary: "List tags", status: 200, out: listing{item: wire.Tag{}}},
	{method: "POST", path: "/v1/tags", summary: "Create a tag", in: wire.CreateTag{}, status: 201, out: wire.Tag{}},
	{method: "PATCH", path: "/v1/tags/:which", summary: "Rename or change a tag", in: wire.UpdateTag{}, status: 200, out: wire.Tag{}},
	{method: "DELETE", path: "/v1/tags/:which", summary: "Remove a tag", status: 204},

	{method: "GET", path: "/v1/changes", summary: "The change feed", status: 200, out: changesJSON{}},
	{method: "GET", path: "/v1/journal", summary: "The journal: what people did", status: 200, out: changesJSON{}},

	{method: "POST", path: "/v1/admin/promote", summary: "Make this standby (tend serve --follow) the primary: it stops following, checks the copy's integrity, replicates and takes writes", in: promoteJSON{}, inOptional: true, status: 200, out: promotedJSON{}},
	{method: "GET", path: "/v1/admin/backups", summary: "List backups", status: 200, out: listing{item: backupJSON{}, unpaged: true}},
	{method: "POST", path: "/v1/admin/backups", summary: "Take a backup", in: backupCreateJSON{}, inOptional: true, status: 201, out: backupJSON{}},
	{method: "GET", path: "/v1/export", summary: "Export a workspace or the instance (JSON Lines, streamed)", status: 200, out: jsonSchema{"type": "string"}, media: wire.ExportMediaType},

	{method: "GET", path: "/v1/workspaces/:workspace/invites", summary: "A workspace's invites, pending and past, with who used each (its owners and admins)", status: 200, out: listing{item: wire.Invite{}}},
	{method: "POST", path: "/v1/workspaces/:workspace/invites", summary: "Make an invite; the answer shows its link, once", in: wire.InviteCreate{}, status: 201, out: wire.IssuedInvite{}},
	{method: "DELETE", path: "/v1/workspaces/:workspace/invites/:invite", summary: "Revoke an invite; those who joined by it stay", status: 204},
	{method: "POST", path: "/v1/invites/accept", summary: "Join by an invite: make the account, join the workspace, set the session cookie", auth: public, in: wire.InviteAccept{}, status: 201, out: joinedJSON{}},
	{method: "POST", path: "/v1/invites/check", summary: "Whether a username can be taken, and if not why (the join form's live check); only for a usable invite", auth: public, in: wire.UsernameAsk{}, status: 200, out: wire.UsernameCheck{}},

	{method: "GET", path: "/static/:version/*file", summary: "The web app's static files", auth: public, status: 200, out: jsonSchema{"type": "string"}, media: "text/css,text/javascript"},
	{method: "GET", path: "/manifest.webmanifest", summary: "The web app manifest: what a browser installs the app from", auth: public, status: 200, out: jsonSchema{"type": "object"}, media: "application/manifest+json"},
	{method: "GET", path: "/sw.js", summary: "The web app's service worker: pushes, and the pages kept for reading offline", auth: public, status: 200, out: jsonSchema{"type": "string"}, media: "text/javascript"},
	withAuth(page("GET", "/signin", "The sign-in confirmation page (the link's secret is in the query)"), public),
	withAuth(page("POST", "/signin", "Sign in: spend a sign-in link, set the session cookie"), public),
	page("GET", "/", "Today"),
	page("POST", "/workspace", "Choose the workspace the pages show"),
	{method: "GET", path: "/live", summary: "Wait until what a page shows may have changed (the live refresh)", pageRefusal: true, status: 200,
		out: jsonSchema{"type": "object", "properties": map[string]any{"seq": map[string]any{"type": "integer"}}, "additionalProperties": false}},
	page("GET", "/tasks", "Tasks"),
	page("POST", "/tasks", "Add a task"),
	page("GET", "/tasks/:ref", "A task"),
	page("POST", "/tasks/:ref", "Edit a task"),
	page("POST", "/tasks/:ref/status", "Set a task's status"),
	page("POST", "/tasks/:ref/comments", "Comment on a task"),
	page("POST", "/tasks/:ref/claim", "Claim a task"),
	page("POST", "/tasks/:ref/release", "Release a task"),
	page("POST", "/tasks/:ref/complete", "Complete a task"),
	page("POST", "/tasks/:ref/skip", "Skip a task's occurrence"),
	page("POST", "/tasks/:ref/subtasks", "Add a subtask"),
	page("POST", "/tasks/:ref/links", "Link a task"),
	page("POST", "/tasks/:ref/links/:link/remove", "Remove a task's link"),
	page("POST", "/tasks/:ref/done", "Row action: done"),
	page("POST", "/tasks/:ref/reopen", "Row action: reopen"),
	page("POST", "/tasks/:ref/assign", "Row action: assign"),
	page("POST", "/tasks/:ref/due", "Row action: due date"),
	page("POST", "/tasks/:ref/delete", "Move a task and its subtasks to the trash"),
	page("GET", "/trash", "The trash: deleted tasks and documents"),
	page("POST", "/trash/:ref/restore", "Restore a task or document from the trash"),
	page("POST", "/trash/:ref/purge", "Delete a trashed task or document forever"),
	page("GET", "/device", "Approve or deny a terminal's sign-in (the user code is in the query)"),
	page("POST", "/device", "Approve or deny a terminal's sign-in"),
	page("GET", "/board", "The board"),
	page("GET", "/documents", "Documents"),
	page("POST", "/documents", "Create a document"),
	page("GET", "/documents/:ref", "A document"),
	page("POST", "/documents/:ref", "Edit a document"),
	page("POST", "/documents/:ref/comments", "Comment on a document"),
	page("POST", "/documents/:ref/links", "Link a document"),
	page("POST", "/documents/:ref/links/:link/remove", "Remove a document's link"),
	page("GET", "/items/:ref", "Any item"),
	page("GET", "/pick", "Pick an item"),
	page("POST", "/preview", "Preview a captured line"),
	page("POST", "/bulk", "Make one change to the tasks a list selected"),
	page("GET", "/projects", "Projects"),
	page("POST", "/projects", "Create a project"),
	page("GET", "/projects/:key", "A project"),
	page("POST", "/projects/:key", "Edit a project"),
	page("POST", "/projects/:key/move", "Move a project"),
	page("POST", "/projects/:key/trash", "Trash a project"),
	page("POST", "/projects/:key/restore", "Restore a project"),
	page("POST", "/projects/:key/tasks", "Add a task to a project"),
	page("POST", "/projects/:key/members", "Share a project"),
	page("POST", "/projects/:key/members/:username/remove", "Stop sharing a project"),
	page("POST", "/projects/:key/roles", "Set a role on a project"),
	page("GET", "/search", "Search"),
	page("GET", "/account", "The account"),
	page("POST", "/account", "Edit the account"),
	page("POST", "/account/tokens", "Issue a credential"),
	page("POST", "/account/tokens/:token/revoke", "Revoke a credential"),
	page("POST", "/views", "Save the Tasks page's filters and order as a view"),
	page("POST", "/account/calendars", "Create a calendar feed"),
	page("POST", "/account/calendars/:calendar/revoke", "Revoke a calendar feed"),
	page("POST", "/account/calendars/:calendar/reset", "Reset a calendar feed"),
	page("POST", "/account/channels", "Add an ntfy channel"),
	page("POST", "/account/digest", "Set the daily digest time"),
	page("POST", "/account/channels/:channel/remove", "Remove a notification channel"),
	page("POST", "/account/channels/:channel/test", "Send a test notification to a channel"),
	page("POST", "/signout", "Sign out"),
	page("GET", "/webhooks", "The webhooks the caller manages"),
	page("POST", "/webhooks", "Add a webhook (the answer shows its secret, once)"),
	page("GET", "/webhooks/:webhook", "A webhook, with its delivery log"),
	page("POST", "/webhooks/:webhook", "Edit a webhook"),
	page("POST", "/webhooks/:webhook/active", "Turn a webhook on or off"),
	page("POST", "/webhooks/:webhook/rotate", "Rotate a webhook's secret (the answer shows the new one, once)"),
	page("POST", "/webhooks/:webhook/delete", "Delete a webhook"),
	page("POST", "/webhooks/:webhook/redeliver/:delivery", "Send a delivery's event again"),
	page("POST", "/webhooks/:webhook/replay", "Send again every event from a seq on"),
	page("GET", "/people", "A workspace's people and agents, for those who manage its members"),
	page("POST", "/people", "Issue a token for an agent (the answer shows its secret, once)"),
	page("POST", "/people/:username/role", "Change a member's role"),
	page("POST", "/people/:username/active", "Deactivate or reactivate an account"),
	page("POST", "/people/:username/tokens/:token/revoke", "Revoke a person's token"),
	page("POST", "/people/:username/sessions/:session/revoke", "Revoke a person's session"),
	page("POST", "/people-invites/:invite/revoke", "Revoke a pending invite from the People page"),
	withAuth(page("GET", "/join/:secret", "Join by an invite: the workspace, the role and the form (the invite's secret is in the path)"), public),
	withAuth(page("POST", "/join/:secret", "Join by an invite: make the account, set the session cookie"), public),
	page("GET", "/invites", "The workspace's invites (its owners and admins)"),
	page("POST", "/invites", "Make an invite (the answer shows its link, once)"),
	page("POST", "/invites/:invite/revoke", "Revoke an invite"),

	{method: "GET", path: "/v1/me/passkeys", summary: "Your passkeys: name, when added, when last used", status: 200, out: listing{item: wire.Passkey{}}},
	{method: "POST", path: "/v1/me/passkeys/options", summary: "Begin adding a passkey (a browser session only): WebAuthn creation options and the challenge id, valid 5 minutes", inOptional: true, in: struct{}{}, status: 200, out: wire.PasskeyOptions{}},
	{method: "POST", path: "/v1/me/passkeys", summary: "Finish adding a passkey: the browser's PublicKeyCredential, the challenge id and a name", in: wire.PasskeyCreate{}, status: 201, out: wire.Passkey{}},
	{method: "PATCH", path: "/v1/me/passkeys/:passkey", summary: "Rename one of your passkeys", in: wire.PasskeyRename{}, status: 200, out: wire.Passkey{}},
	{method: "DELETE", path: "/v1/me/passkeys/:passkey", summary: "Remove one of your passkeys", status: 204},
	{method: "POST", path: "/v1/passkeys/signin/options", summary: "Begin signing in with a passkey: WebAuthn request options naming no account, and the challenge id", auth: public, inOptional: true, in: struct{}{}, status: 200, out: wire.PasskeyOptions{}},
	{method: "POST", path: "/v1/passkeys/signin", summary: "Sign in with a passkey: the browser's assertion and the challenge id; sets the session cookie", auth: public, in: wire.PasskeySignIn{}, status: 200, out: userJSON{}},
	page("POST", "/account/passkeys/:passkey/rename", "Rename a passkey"),
	page("POST", "/account/passkeys/:passkey/remove", "Remove a passkey"),
	page("POST", "/account/sessions/:session/revoke", "Revoke one of your sessions"),
	page("POST", "/account/signout-others", "Sign out everywhere else"),
	page("POST", "/account/device-link", "Make a sign-in link for another device (the answer shows it once, with its QR code)"),
	page("POST", "/account/tailscale", "Link the Tailscale login this request carries to your account"),
}

// itemOps are the operations a task and a document share, under
// /v1/{kind}s/:{kind} (Server.itemRoutes).
func itemOps(kind string) []op {
	at, a := "/v1/"+kind+"s/:"+kind, "a "+kind
	return []op{
		{method: "GET", path: at + "/links", summary: "A " + kind + "'s links", status: 200, out: listing{item: wire.Link{}}},
		{method: "POST", path: at + "/links", summary: "Link " + a, in: wire.LinkRequest{}, status: 201, out: wire.Link{}},
		{method: "DELETE", path: at + "/links/:link", summary: "Remove " + a + "'s link", status: 204},
		{method: "GET", path: at + "/backlinks", summary: "What mentions " + a, status: 200, out: listing{item: backlinkJSON{}}},
		{method: "GET", path: at + "/governing", summary: "The documents in force that bind " + a, status: 200, out: listing{item: wire.Governing{}}},
		{method: "GET", path: at + "/proposed-links", summary: "Governing documents nobody has linked to " + a + " yet", status: 200, out: listing{item: proposalJSON{}}},
		{method: "GET", path: at + "/tree", summary: "What follows " + a + " through sequencing links", status: 200, out: listing{item: wire.Beneath{}}},
		{method: "GET", path: at + "/events", summary: "A " + kind + "'s history", status: 200, out: listing{item: wire.Event{}, shaped: true}},
		{method: "GET", path: at + "/comments", summary: "A " + kind + "'s comments", status: 200, out: listing{item: wire.Comment{}, shaped: true}},
		{method: "POST", path: at + "/comments", summary: "Comment on " + a, in: wire.CommentCreate{}, status: 201, out: wire.Comment{}},
	}
}

func withAuth(o op, a access) op { o.auth = a; return o }

// OpenAPI is the OpenAPI 3.1 document (JSON), built once.
func OpenAPI() []byte {
	openapiOnce.Do(func() {
		doc, err := buildOpenAPI()
		if err != nil {
			panic(err) // the table and the wire types are code: TestOpenAPIGolden fails first
		}
		openapiDoc = doc
		sum := sha256.Sum256(doc)
		openapiETag = `"` + hex.EncodeToString(sum[:12]) + `"`
	})
	return openapiDoc
}

var (
	openapiOnce sync.Once
	openapiDoc  []byte
	openapiETag string
)

// handleOpenAPI serves the document, with an ETag: a client that has it
// already is answered 304.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	doc := OpenAPI()
	h := w.Header()
	h.Set("ETag", openapiETag)
	h.Set("Cache-Control", "no-cache")
	if etagMatch(r.Header.Get("If-None-Match"), openapiETag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "application/json")
	_, _ = w.Write(doc)
}

// etagMatch reports whether an If-None-Match header names etag (or is *).
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// openapiPath is a router pattern as OpenAPI writes it: /a/:b/*c is /a/{b}/{c}.
func openapiPath(p string) (string, []string) {
	segs := strings.Split(p, "/")
	var params []string
	for i, s := range segs {
		if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "*") {
			params = append(params, s[1:])
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/"), params
}

// schemaSet collects the named schemas the operations refer to.
type schemaSet struct {
	named map[string]any
	names map[reflect.Type]string
}

// ref is the schema of v: a $ref to a named schema for a Go type, the
// envelope of a listing, or a schema written out.
func (sc *schemaSet) ref(v any) (any, error) {
	switch v := v.(type) {
	case jsonSchema:
		return map[string]any(v), nil
	case listing:
		item, err := sc.ref(v.item)
		if err != nil {
			return nil, err
		}
		if v.shaped {
			item = map[string]any{"anyOf": []any{item, map[string]any{"type": "string"}}}
		}
		props := map[string]any{"items": map[string]any{"type": "array", "items": item}}
		if !v.unpaged {
			props["page"] = schemaRef("Page")
		}
		return map[string]any{"type": "object", "properties": props, "additionalProperties": false}, nil
	case anyOf:
		var alts []any
		for _, alt := range v {
			s, err := sc.ref(alt)
			if err != nil {
				return nil, err
			}
			alts = append(alts, s)
		}
		return map[string]any{"anyOf": alts}, nil
	case shapedOne:
		item, err := sc.ref(v.item)
		if err != nil {
			return nil, err
		}
		return map[string]any{"anyOf": []any{item, map[string]any{"type": "string"}}}, nil
	}
	return sc.record(reflect.TypeOf(v))
}

// record is a $ref to the named schema of the Go type t, made on first use.
func (sc *schemaSet) record(t reflect.Type) (any, error) {
	if name, ok := sc.names[t]; ok {
		return schemaRef(name), nil
	}
	name := schemaName(t)
	for other, n := range sc.names {
		if n == name {
			return nil, fmt.Errorf("openapi: %v and %v are both named %s", t, other, name)
		}
	}
	sc.names[t] = name // before its schema: two records may hold each other
	s, err := sc.goSchema(t)
	if err != nil {
		return nil, err
	}
	sc.named[name] = s
	return schemaRef(name), nil
}

// schemasAt is where the named schemas are, for a $ref.
const schemasAt = "#/components/schemas/"

// schemaRef refers to the named schema name.
func schemaRef(name string) map[string]any {
	return map[string]any{"$ref": schemasAt + name}
}

// schemaName names a Go type's schema: its name without a JSON suffix or
// type arguments, capitalised (userJSON is User).
func schemaName(t reflect.Type) string {
	n, _, _ := strings.Cut(t.Name(), "[")
	n = strings.TrimSuffix(strings.TrimSuffix(n, "JSON"), "Of")
	if n == "" {
		return "Empty"
	}
	return strings.ToUpper(n[:1]) + n[1:]
}

// goSchema is the JSON Schema of a wire type, as encoding/json writes and
// reads it. No property is required: fields= answers carry some of a
// record's fields, and a request leaves out what it does not set.
// Additional properties stay refused, so a field the wire type lacks fails
// the validation of every test that meets it.
func (sc *schemaSet) goSchema(t reflect.Type) (any, error) {
	types := map[reflect.Type]*jsonschema.Schema{}
	if err := customSchemas(t, types, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	// Every record t holds is a component of its own, referred to: the
	// task is described once, however many answers carry it.
	for _, r := range heldRecords(t, types) {
		if _, err := sc.record(r); err != nil {
			return nil, err
		}
		types[r] = &jsonschema.Schema{Ref: schemasAt + sc.names[r]}
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: types})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	loosen(m)
	return m, nil
}

// heldRecords lists the named structs t's fields hold (directly, or in a
// pointer, a list or a map), in field order, once each; an embedded
// struct's fields count as t's own, as encoding/json flattens them, and a
// type with a schema in custom is no record.
func heldRecords(t reflect.Type, custom map[reflect.Type]*jsonschema.Schema) []reflect.Type {
	var out []reflect.Type
	var walk func(reflect.Type)
	walk = func(st reflect.Type) {
		for i := range st.NumField() {
			f := st.Field(i)
			if f.Tag.Get("json") == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			r := f.Type
			for r.Kind() == reflect.Pointer || r.Kind() == reflect.Slice || r.Kind() == reflect.Array || r.Kind() == reflect.Map {
				r = r.Elem()
			}
			if r.Kind() == reflect.Struct && r.Name() != "" && r != t && custom[r] == nil && r.PkgPath() != "time" && !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	walk(t)
	return out
}

// customSchemas finds the types under t that encode themselves
// (json.Marshaler or json.Unmarshaler) and gives each the schema of what
// it writes: a Patch its value or null, a FlexRef a ref or an id, the
// rest anything.
func customSchemas(t reflect.Type, out map[reflect.Type]*jsonschema.Schema, seen map[reflect.Type]bool) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if seen[t] {
		return nil
	}
	seen[t] = true
	marshaler, unmarshaler := reflect.TypeFor[json.Marshaler](), reflect.TypeFor[json.Unmarshaler]()
	custom := t.Implements(marshaler) || reflect.PointerTo(t).Implements(unmarshaler)
	switch {
	case t.PkgPath() == "time" || !custom && t.Kind() != reflect.Struct:
		return nil
	case t == reflect.TypeFor[wire.FlexRef]():
		out[t] = &jsonschema.Schema{Types: []string{"null", "integer", "string"}}
		return nil
	case strings.HasPrefix(t.Name(), "Patch["):
		v, _ := t.FieldByName("Value")
		if err := customSchemas(v.Type, out, seen); err != nil {
			return err
		}
		types := maps.Clone(out)
		s, err := jsonschema.ForType(v.Type, &jsonschema.ForOptions{TypeSchemas: types})
		if err != nil {
			return err
		}
		s.Types = append([]string{"null"}, append(s.Types, s.Type)...)
		s.Types = slices.DeleteFunc(s.Types, func(x string) bool { return x == "" })
		s.Types = slices.Compact(s.Types)
		s.Type = ""
		if e := v.Type; e.Kind() == reflect.Slice && e.Elem().Kind() == reflect.Struct && e.Elem().PkgPath() != "time" {
			// A list of records (Patch[[]Reminder]) refers to the record's
			// component, as a field holding the list does.
			s.Items = &jsonschema.Schema{Ref: schemasAt + schemaName(e.Elem())}
		}
		out[t] = s
		return nil
	case custom:
		out[t] = &jsonschema.Schema{}
		return nil
	}
	for i := range t.NumField() {
		if err := customSchemas(t.Field(i).Type, out, seen); err != nil {
			return err
		}
	}
	return nil
}

// loosen removes every "required" from a schema, however deep, and lets
// a map (an object schema whose additional properties are not refused, as
// a struct's are) be null, as encoding/json writes a nil map. A pointer to
// a record comes out of jsonschema-go as its $ref beside a type of null,
// which would have to hold both at once: it becomes either.
func loosen(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "required")
		if ap, ok := v["additionalProperties"]; ok && v["type"] == "object" && ap != false {
			v["type"] = []any{"null", "object"}
		}
		if ref, ok := v["$ref"]; ok && v["type"] != nil {
			delete(v, "$ref")
			delete(v, "type")
			v["anyOf"] = []any{map[string]any{"$ref": ref}, map[string]any{"type": "null"}}
		}
		for _, x := range v {
			loosen(x)
		}
	case []any:
		for _, x := range v {
			loosen(x)
		}
	}
}

// problemSchema is the RFC 9457 problem document: its code is one of
// app.AllCodes, and members beside the standard ones (a claim's holder)
// are allowed.
func problemSchema() map[string]any {
	codes := make([]any, len(app.AllCodes))
	for i, c := range app.AllCodes {
		codes[i] = string(c)
	}
	str := map[string]any{"type": "string"}
	return map[string]any{
		"type":     "object",
		"required": []any{"type", "title", "status", "code"},
		"properties": map[string]any{
			"type":     str,
			"title":    str,
			"status":   map[string]any{"type": "integer", "minimum": 400, "maximum": 599},
			"instance": str,
			"code":     map[string]any{"type": "string", "enum": codes},
			"detail": map[string]any{"anyOf": []any{str, map[string]any{"type": "array", "items": map[string]any{
				"type": "object", "required": []any{"loc", "msg", "type"}, "additionalProperties": false,
				"properties": map[string]any{"loc": map[string]any{"type": "array", "items": str}, "msg": str, "type": str},
			}}}},
		},
	}
}

// buildOpenAPI writes the document.
func buildOpenAPI() ([]byte, error) {
	sc := &schemaSet{named: map[string]any{}, names: map[reflect.Type]string{}}
	if _, err := sc.ref(wire.Page{}); err != nil {
		return nil, err
	}
	sc.named["Problem"] = problemSchema()
	// The refusals every operation (or every page) may answer are
	// components too, referred to by each.
	refusals := map[string]any{
		"Problem": map[string]any{"description": "A refusal: an RFC 9457 problem document",
			"content": map[string]any{"application/problem+json": map[string]any{"schema": schemaRef("Problem")}}},
		"PageRefusal": map[string]any{"description": "A refusal, as a page or a problem document",
			"content": map[string]any{mediaHTML: map[string]any{"schema": map[string]any{"type": "string"}},
				"application/problem+json": map[string]any{"schema": schemaRef("Problem")}}},
	}
	paths := map[string]any{}
	for _, o := range slices.Concat(apiOps, itemOps("task"), itemOps("document")) {
		path, params := openapiPath(o.path)
		item, _ := paths[path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[path] = item
		}
		m := strings.ToLower(o.method)
		if _, dup := item[m]; dup {
			return nil, fmt.Errorf("openapi: %s %s twice in the table", o.method, o.path)
		}
		operation := map[string]any{"summary": o.summary, "operationId": operationID(o.method, o.path)}
		if o.auth == public {
			operation["security"] = []any{}
		}
		if len(params) > 0 {
			ps := make([]any, len(params))
			for i, p := range params {
				ps[i] = map[string]any{"name": p, "in": "path", "required": true, "schema": map[string]any{"type": "string"}}
			}
			operation["parameters"] = ps
		}
		switch {
		case o.form:
			operation["requestBody"] = map[string]any{"required": false, "content": map[string]any{
				"application/x-www-form-urlencoded": map[string]any{"schema": map[string]any{"type": "object"}}}}
		case o.in != nil:
			s, err := sc.ref(o.in)
			if err != nil {
				return nil, err
			}
			// encoding/json reads a body of null into a record as {}:
			// the API takes it as the empty body it is.
			s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
			operation["requestBody"] = map[string]any{"required": !o.inOptional, "content": map[string]any{"application/json": map[string]any{"schema": s}}}
		}
		ok := map[string]any{"description": http.StatusText(o.status)}
		if o.out != nil {
			s, err := sc.ref(o.out)
			if err != nil {
				return nil, err
			}
			media := o.media
			if media == "" {
				media = "application/json"
			}
			content := map[string]any{}
			for _, m := range strings.Split(media, ",") {
				content[m] = map[string]any{"schema": s}
			}
			ok["content"] = content
		}
		responses := map[string]any{fmt.Sprint(o.status): ok}
		for status, body := range o.also {
			r := map[string]any{"description": http.StatusText(status)}
			if body != nil {
				s, err := sc.ref(body)
				if err != nil {
					return nil, err
				}
				r["content"] = map[string]any{"application/json": map[string]any{"schema": s}}
			}
			responses[fmt.Sprint(status)] = r
		}
		if o.pageRefusal {
			// A page answers a refusal as a page, and the pages' writes
			// redirect; a page that renders a form again after a refusal
			// answers 4xx with HTML.
			if o.media == mediaHTML {
				responses["200"] = map[string]any{"description": "A page", "content": map[string]any{mediaHTML: map[string]any{"schema": map[string]any{"type": "string"}}}}
			}
			responses["303"] = map[string]any{"description": "See other: the page to show next"}
			responses["default"] = map[string]any{"$ref": "#/components/responses/PageRefusal"}
		} else {
			if o.method == http.MethodGet && o.path == "/openapi.json" {
				responses["304"] = map[string]any{"description": "Not modified: the If-None-Match names this document's ETag"}
			}
			responses["default"] = map[string]any{"$ref": "#/components/responses/Problem"}
			if o.mcpRefusal {
				responses["default"] = map[string]any{"description": "A refusal: a problem document, a JSON-RPC error, or plain text",
					"content": map[string]any{"application/problem+json": map[string]any{"schema": schemaRef("Problem")},
						"application/json": map[string]any{"schema": map[string]any{"type": "object"}},
						"text/plain":       map[string]any{"schema": map[string]any{"type": "string"}}}}
			}
		}
		operation["responses"] = responses
		item[m] = operation
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "tend", "version": "v1",
			"description": "tend's HTTP interface: the JSON API under /v1, MCP, the calendar feeds, the probes and the web app. Generated from the code (web/openapi.go); docs/api.md says what each part means.",
			"license":     map[string]any{"name": "MIT", "identifier": "MIT"}},
		"security": []any{map[string]any{"bearer": []any{}}, map[string]any{"session": []any{}}},
		"paths":    paths,
		"components": map[string]any{
			"schemas":   sc.named,
			"responses": refusals,
			"securitySchemes": map[string]any{
				"bearer":  map[string]any{"type": "http", "scheme": "bearer", "description": "A credential: Authorization: Bearer tend_…"},
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": wire.SessionCookie, "description": "A browser session (the web app)"},
			},
		},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// operationID names an operation after its method and path:
// GET /v1/tasks/:task/links is getTasksTaskLinks.
func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.FieldsFunc(strings.TrimPrefix(path, "/v1"), func(r rune) bool { return r == '/' || r == '-' || r == '.' || r == '_' }) {
		seg = strings.TrimLeft(seg, ":*")
		b.WriteString(strings.ToUpper(seg[:1]) + seg[1:])
	}
	if b.Len() == len(method) {
		b.WriteString("Root")
	}
	return b.String()
}
