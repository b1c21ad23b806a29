package cli

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// Client is what the terminal commands do, each method one route of the
// JSON API (named beside it) and one Service call. Remote serves it, on a
// server or on the file; a refusal is a *Problem either way. Refs may be written with a
// leading '#'. Requests are web/wire's request records (the bodies the
// routes read) and query parameters (which wire's readers read); answers
// are wire's records.
type Client interface {
	// Me is who the client acts as (GET /v1/me).
	Me(ctx context.Context) (wire.Me, error)
	// AddTask files a task, from a captured line and the fields that win
	// over what it says (POST /v1/tasks).
	AddTask(ctx context.Context, in wire.TaskCreate) (wire.Task, error)
	// Tasks is the task listing with the query parameters of GET /v1/tasks,
	// format full (the default) or compact.
	Tasks(ctx context.Context, q url.Values) (TaskPage, error)
	// Agenda is the caller's day, with the parameters of GET /v1/agenda.
	Agenda(ctx context.Context, q url.Values) (wire.Agenda, error)
	// Task is one task (GET /v1/tasks/{ref}).
	Task(ctx context.Context, ref string) (wire.Task, error)
	// Show is a task or document with what surrounds it (GET /v1/items/{ref}).
	Show(ctx context.Context, ref string) (wire.ItemShow, error)
	// Search finds tasks and documents, with the parameters of GET /v1/search.
	Search(ctx context.Context, q url.Values) (wire.ItemSearch, error)
	// Complete finishes a task, with the verification when there is one
	// (POST /v1/tasks/{ref}/complete).
	Complete(ctx context.Context, ref string, in wire.Completion) (Finished, error)
	// Skip lets one occurrence of a repeat go by (POST /v1/tasks/{ref}/skip).
	Skip(ctx context.Context, ref string) (Finished, error)
	// Claim takes or renews the claim (POST /v1/tasks/{ref}/claim).
	Claim(ctx context.Context, ref string, in wire.Claim) (wire.Task, error)
	// ClaimNext claims the highest-ranked ready task, with the parameters
	// of POST /v1/tasks/next/claim.
	ClaimNext(ctx context.Context, q url.Values) (wire.Task, error)
	// Release lets the claim go (POST /v1/tasks/{ref}/release).
	Release(ctx context.Context, ref string) (wire.Task, error)
	// UpdateTask changes the fields set in in (PATCH /v1/tasks/{ref}).
	UpdateTask(ctx context.Context, ref string, in wire.TaskUpdate) (wire.Task, error)
	// BulkTasks makes one change to many tasks, all or nothing
	// (POST /v1/tasks/bulk).
	BulkTasks(ctx context.Context, in wire.TaskBulk) (wire.TaskBulkResult, error)
	// Statuses are the statuses of entity ("task" or "document"), in
	// display order (GET /v1/statuses).
	Statuses(ctx context.Context, entity string) ([]wire.Status, error)
	// Comment comments on a task or document (POST /v1/items/{ref}/comments).
	Comment(ctx context.Context, ref string, in wire.CommentCreate) (wire.Comment, error)
	// Link links a task or document to another (POST /v1/items/{ref}/links).
	Link(ctx context.Context, ref string, in wire.LinkRequest) (wire.Link, error)
	// AddDocument files a document, already linked when in says so
	// (POST /v1/documents).
	AddDocument(ctx context.Context, in wire.DocumentCreate) (wire.FiledDocument, error)
	// Document is one document (GET /v1/documents/{ref}).
	Document(ctx context.Context, ref string) (wire.Document, error)
	// Views are the caller's views and those shared in the workspace
	// (GET /v1/views).
	Views(ctx context.Context) ([]wire.View, error)
	// SaveView saves a listing's filters and order (POST /v1/views).
	SaveView(ctx context.Context, in wire.ViewCreate) (wire.View, error)
	// DeleteView removes the caller's view (DELETE /v1/views/{name}).
	DeleteView(ctx context.Context, name string) (wire.View, error)
	// Webhooks are the endpoints the caller manages (GET /v1/webhooks).
	Webhooks(ctx context.Context) ([]wire.Webhook, error)
	// AddWebhook adds an endpoint; the answer has its secret (POST /v1/webhooks).
	AddWebhook(ctx context.Context, in wire.WebhookCreate) (wire.IssuedWebhook, error)
	// DeleteWebhook removes an endpoint (DELETE /v1/webhooks/{id}).
	DeleteWebhook(ctx context.Context, id string) (wire.Webhook, error)
	// WebhookLog is an endpoint's delivery log (GET /v1/webhooks/{id}/deliveries).
	WebhookLog(ctx context.Context, id string) ([]wire.WebhookAttempt, error)
	// ReplayWebhook sends an endpoint every matching event from since on
	// (POST /v1/webhooks/{id}/replay).
	ReplayWebhook(ctx context.Context, id string, since int64) (wire.WebhookReplay, error)
	// AddInvite makes an invite; the answer has its link (POST /v1/workspaces/{ws}/invites).
	AddInvite(ctx context.Context, in wire.InviteCreate) (wire.IssuedInvite, error)
	// Invites are the workspace's invites (GET /v1/workspaces/{ws}/invites).
	Invites(ctx context.Context) ([]wire.Invite, error)
	// RevokeInvite revokes an invite (DELETE /v1/workspaces/{ws}/invites/{id}).
	RevokeInvite(ctx context.Context, id string) error
	// Projects are the projects the caller sees (GET /v1/projects).
	Projects(ctx context.Context) ([]wire.Project, error)
	// Project is one project (GET /v1/projects/{id_or_key}).
	Project(ctx context.Context, key string) (wire.Project, error)
	// AddProject starts a project (POST /v1/projects).
	AddProject(ctx context.Context, in wire.ProjectCreate) (wire.Project, error)
	// UpdateProject changes the fields set in in (PATCH /v1/projects/{id_or_key}).
	UpdateProject(ctx context.Context, key string, in wire.ProjectUpdate) (wire.Project, error)
	// Tags are the workspace's tag names, the first page (GET /v1/tags).
	Tags(ctx context.Context) ([]string, error)
	// TrashAct and Trashed are the trash's routes (cli/trash.go).
	TrashAct(ctx context.Context, act, kind, ref string) (json.RawMessage, error)
	Trashed(ctx context.Context, kind string) (json.RawMessage, error)
	// Changes is a page of the change feed, with the parameters of
	// GET /v1/changes (since, wait, action, project, limit).
	Changes(ctx context.Context, q url.Values) (ChangesPage, error)
	// Where says what the client talks to: the server's URL or the file.
	Where() string
	// WebURL is where the web app is served, "" when not known.
	WebURL() string
}

// tagLimit is how many tags completion offers: the first page of that many.
const tagLimit = 200

// Finished is a task completed or skipped, and the ref of the next
// occurrence it brought ("" when it brought none), which the answer's Link
// header names.
type Finished struct {
	Task wire.Task
	Next string
}

// ChangesPage is a page of the change feed.
type ChangesPage struct {
	Items []wire.Event `json:"items"`
	Page  wire.Page    `json:"page"`
}

// TaskPage is a page of the task listing: full records, or compact lines
// when the query asked for format=compact.
type TaskPage struct {
	Tasks []wire.Task
	Lines []string
	Page  wire.Page
}

// trimRef is a ref as a path names it: without the '#' people write.
func trimRef(ref string) string { return strings.TrimPrefix(strings.TrimSpace(ref), "#") }

// Reopen moves a finished or cancelled task back to the default status of
// its kind: two calls, the statuses read, then the task updated.
func Reopen(ctx context.Context, c Client, ref string) (wire.Task, error) {
	sts, err := c.Statuses(ctx, "task")
	if err != nil {
		return wire.Task{}, err
	}
	for _, st := range sts {
		if st.IsDefault {
			return c.UpdateTask(ctx, ref, wire.TaskUpdate{Status: wire.PatchOf(st.Key)})
		}
	}
	return wire.Task{}, problemOf(app.Errorf(app.CodeNotFound, "this workspace names no default task status to reopen into; set one with tend edit --status"))
}

// ReadIn sets the reader's zone on the tasks that show a timed due in
// their compact line and lack one (tasks decoded from JSON), asking the
// client for it only when one of them needs it.
func ReadIn(ctx context.Context, c Client, ts []wire.Task) ([]wire.Task, error) {
	zone := ""
	for i, t := range ts {
		if t.DueAt == nil || t.DueIsAllDay || t.ReaderZone() != "" {
			continue
		}
		if zone == "" {
			me, err := c.Me(ctx)
			if err != nil {
				return nil, err
			}
			zone = wire.Deref(me.ReaderTimezone)
		}
		ts[i] = t.ReadIn(zone)
	}
	return ts, nil
}
