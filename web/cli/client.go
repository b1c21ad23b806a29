package cli

import (
	"context"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// Client is what the terminal commands do, each method one route of the
// JSON API (named beside it) and one Service call. Remote and Local serve
// it; a refusal is a *Problem either way. Refs may be written with a
// leading '#'.
type Client interface {
	// Me is who the client acts as (GET /v1/me).
	Me(ctx context.Context) (Me, error)
	// AddTask files a task, from a captured line and the fields that win
	// over what it says (POST /v1/tasks).
	AddTask(ctx context.Context, in app.TaskCreate) (wire.Task, error)
	// Tasks is the task listing with the query parameters of GET /v1/tasks,
	// format full (the default) or compact.
	Tasks(ctx context.Context, q url.Values) (TaskPage, error)
	// Agenda is the caller's day (GET /v1/agenda).
	Agenda(ctx context.Context, in app.AgendaQuery) (wire.Agenda, error)
	// Task is one task (GET /v1/tasks/{ref}).
	Task(ctx context.Context, ref string) (wire.Task, error)
	// Show is a task or document with what surrounds it (GET /v1/items/{ref}).
	Show(ctx context.Context, ref string) (wire.ItemShow, error)
	// Search finds tasks and documents (GET /v1/search).
	Search(ctx context.Context, in app.ItemSearchQuery) (wire.ItemSearch, error)
	// Complete finishes a task, with the verification when there is one
	// (POST /v1/tasks/{ref}/complete).
	Complete(ctx context.Context, ref string, in app.Completion) (wire.Task, error)
	// Skip lets one occurrence of a repeat go by (POST /v1/tasks/{ref}/skip).
	Skip(ctx context.Context, ref string) (wire.Task, error)
	// Claim takes or renews the claim, for minutes or the setting in force
	// (POST /v1/tasks/{ref}/claim).
	Claim(ctx context.Context, ref string, minutes *int) (wire.Task, error)
	// ClaimNext claims the highest-ranked ready task (POST /v1/tasks/next/claim).
	ClaimNext(ctx context.Context, in app.NextClaim) (wire.Task, error)
	// Release lets the claim go (POST /v1/tasks/{ref}/release).
	Release(ctx context.Context, ref string) (wire.Task, error)
	// UpdateTask changes the fields set in in (PATCH /v1/tasks/{ref}).
	UpdateTask(ctx context.Context, ref string, in app.TaskUpdate) (wire.Task, error)
	// Statuses are the statuses of entity ("task" or "document"), in
	// display order (GET /v1/statuses).
	Statuses(ctx context.Context, entity string) ([]Status, error)
	// Comment comments on a task or document (POST /v1/items/{ref}/comments).
	Comment(ctx context.Context, ref string, in app.CommentCreate) (wire.Comment, error)
	// Link links a task or document to another (POST /v1/items/{ref}/links).
	Link(ctx context.Context, ref string, in app.LinkRequest) (wire.Link, error)
	// AddDocument files a document, already linked when in says so
	// (POST /v1/documents).
	AddDocument(ctx context.Context, in app.DocumentCreate) (FiledDocument, error)
	// Document is one document (GET /v1/documents/{ref}).
	Document(ctx context.Context, ref string) (wire.Document, error)
	// Projects are the projects the caller sees (GET /v1/projects).
	Projects(ctx context.Context) ([]wire.Project, error)
	// Tags are the workspace's tag names, the first page (GET /v1/tags).
	Tags(ctx context.Context) ([]string, error)
	// Where says what the client talks to: the server's URL or the file.
	Where() string
	// WebURL is where the web app is served, "" when not known.
	WebURL() string
}

// Me is who a client acts as.
type Me struct {
	Username         string `json:"username"`
	IsServiceAccount bool   `json:"is_service_account"`
	// ReaderTimezone is the zone the caller's dates are read in: compact
	// lines show a timed due in it.
	ReaderTimezone string `json:"reader_timezone"`
}

// TaskPage is a page of the task listing: full records, or compact lines
// when the query asked for format=compact.
type TaskPage struct {
	Tasks []wire.Task
	Lines []string
	Page  wire.Page
}

// FiledDocument is a document as POST /v1/documents answers: the document
// and, when it was filed with links, those links seen from it.
type FiledDocument struct {
	wire.Document
	Links []wire.Link `json:"links,omitempty"`
}

// Status is a status as completion and reopening need it.
type Status struct {
	Key       string `json:"key"`
	Label     string `json:"label"`
	Category  string `json:"category"`
	IsDefault bool   `json:"is_default"`
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
			return c.UpdateTask(ctx, ref, app.TaskUpdate{Status: app.PatchOf(st.Key)})
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
			zone = me.ReaderTimezone
		}
		ts[i] = t.ReadIn(zone)
	}
	return ts, nil
}
