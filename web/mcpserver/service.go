package mcpserver

import (
	"context"

	"tend/app"
)

// Service is the part of app.Service the MCP tools call directly; every
// other operation goes through the API (CallAPI). Taking no more keeps the
// adapter's reach visible in its constructor (issue 33 §4).
type Service interface {
	AddComment(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, in app.CommentCreate) (app.Comment, error)
	Agenda(ctx context.Context, a app.Actor, in app.AgendaQuery) (app.Agenda, error)
	Authenticate(ctx context.Context, secret string, iface string) (app.Actor, error)
	BulkTasks(ctx context.Context, a app.Actor, workspace string, targets []app.BulkTarget, change app.BulkChange) ([]app.Task, error)
	Changes(ctx context.Context, a app.Actor, q app.FeedQuery) (app.FeedPage, error)
	ClaimNextTask(ctx context.Context, a app.Actor, in app.NextClaim) (app.Task, error)
	ClaimTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, minutes *int) (app.Task, error)
	CompleteTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.Completion) (app.Completed, error)
	Conventions(ctx context.Context, a app.Actor, workspace string) (app.Conventions, error)
	CreateDocument(ctx context.Context, a app.Actor, workspace string, in app.DocumentCreate) (app.Document, error)
	CreateTask(ctx context.Context, a app.Actor, workspace string, in app.TaskCreate) (app.Task, error)
	Journal(ctx context.Context, a app.Actor, q app.FeedQuery) (app.JournalPage, error)
	Limits() app.Limits
	LinkItems(ctx context.Context, a app.Actor, in app.LinkItems) ([]app.LinkView, error)
	Me(ctx context.Context, a app.Actor) (app.Me, error)
	Projects(ctx context.Context, a app.Actor, workspace string, deleted bool) ([]app.ProjectView, error)
	PublicURL() string
	PutProject(ctx context.Context, a app.Actor, workspace string, in app.ProjectPut) (out app.ProjectView, created bool, err error)
	ReleaseTask(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	SearchItems(ctx context.Context, a app.Actor, in app.ItemSearchQuery) (app.ItemSearch, error)
	ShowItem(ctx context.Context, a app.Actor, workspace string, idOrRef string, q app.ShowQuery) (app.ItemShow, error)
	SkipTask(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	Tasks(ctx context.Context, a app.Actor, in app.TaskListQuery) (app.TaskList, error)
	UpdateDocument(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.DocumentUpdate) (app.Document, error)
	UpdateTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.TaskUpdate) (app.Task, error)
	Version() string
	WithdrawCommentByWords(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, words string) (app.Comment, error)
}

var _ Service = (*app.Service)(nil)
