package pages

import (
	"context"

	"tend/app"
)

// Service is the part of app.Service the web app's pages call. Taking no
// more keeps the adapter's reach visible in its constructor (issue 33 §4).
type Service interface {
	// ReadOnly is the read_only refusal on a standby, nil on a primary.
	ReadOnly() error
	channelService
	inviteService
	passkeyService
	AddComment(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, in app.CommentCreate) (app.Comment, error)
	AddLinks(ctx context.Context, a app.Actor, workspace string, in app.LinkSet) ([]app.LinkView, error)
	Agenda(ctx context.Context, a app.Actor, in app.AgendaQuery) (app.Agenda, error)
	BulkTasks(ctx context.Context, a app.Actor, workspace string, targets []app.BulkTarget, change app.BulkChange) ([]app.Task, error)
	Calendars(ctx context.Context, a app.Actor) ([]app.Calendar, error)
	CheckLoginLink(ctx context.Context, secret, addr string) (app.LoginLink, error)
	ClaimTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, minutes *int) (app.Task, error)
	CompleteTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.Completion) (app.Completed, error)
	CreateCalendar(ctx context.Context, a app.Actor, in app.CalendarCreate) (app.IssuedCalendar, error)
	CreateDocument(ctx context.Context, a app.Actor, workspace string, in app.DocumentCreate) (app.Document, error)
	CreateProject(ctx context.Context, a app.Actor, workspace string, in app.ProjectCreate) (app.ProjectView, error)
	CreateTask(ctx context.Context, a app.Actor, workspace string, in app.TaskCreate) (app.Task, error)
	CreateToken(ctx context.Context, a app.Actor, in app.TokenCreate) (app.IssuedToken, error)
	DeviceRequest(ctx context.Context, a app.Actor, userCode string) (app.DeviceCode, error)
	DecideDevice(ctx context.Context, a app.Actor, userCode, workspace string, approve bool) error
	CreateWebhook(ctx context.Context, a app.Actor, workspace string, in app.WebhookCreate) (app.Webhook, error)
	CreateView(ctx context.Context, a app.Actor, workspace string, in app.ViewCreate) (app.View, error)
	DeleteDocument(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Document, error)
	DeleteProject(ctx context.Context, a app.Actor, workspace string, idOrKey string) (app.ProjectView, error)
	DeleteTask(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	DeleteWebhook(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	Documents(ctx context.Context, a app.Actor, in app.DocumentListQuery) (app.DocumentList, error)
	EndSession(ctx context.Context, a app.Actor) error
	Frame(ctx context.Context, a app.Actor, workspace string) (app.Frame, error)
	InstanceWorkspaces(ctx context.Context, a app.Actor) ([]app.WorkspaceOnInstance, error)
	Limits() app.Limits
	Me(ctx context.Context, a app.Actor) (app.Me, error)
	Members(ctx context.Context, a app.Actor, idOrSlug string) ([]app.Member, error)
	Meta(ctx context.Context, a app.Actor, workspace string) (app.Meta, error)
	MoveProject(ctx context.Context, a app.Actor, workspace string, idOrKey string, parent app.Patch[string]) (app.ProjectView, error)
	NewestChange(ctx context.Context, a app.Actor, workspace string) (int64, error)
	OpenTaskCounts(ctx context.Context, a app.Actor, workspace string) (map[string]int, error)
	ProjectEvents(ctx context.Context, a app.Actor, workspace string, idOrKey string, q app.EventQuery) (app.EventPage, error)
	ProjectGet(ctx context.Context, a app.Actor, workspace string, idOrKey string) (app.ProjectView, error)
	ProjectMembers(ctx context.Context, a app.Actor, workspace string, idOrKey string) ([]app.ProjectMember, error)
	ProjectRoleHolders(ctx context.Context, a app.Actor, workspace string, idOrKey string) ([]app.ProjectRoleHolder, error)
	Projects(ctx context.Context, a app.Actor, workspace string, deleted bool) ([]app.ProjectView, error)
	ProjectRolesHeld(ctx context.Context, a app.Actor) ([]app.ProjectAccess, error)
	PublicURL() string
	People(ctx context.Context, a app.Actor, workspace string) ([]app.Person, error)
	Purge(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string) (app.Purged, error)
	RedeliverWebhook(ctx context.Context, a app.Actor, workspace, id string, delivery int64) (app.WebhookDelivery, error)
	ReleaseTask(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	ReplayWebhook(ctx context.Context, a app.Actor, workspace, id string, since int64) (app.WebhookReplay, error)
	RegradeMember(ctx context.Context, a app.Actor, idOrSlug, username string, in app.Regrade) (app.Member, error)
	RemoveLink(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, linkID string) error
	RemoveProjectRole(ctx context.Context, a app.Actor, workspace string, idOrKey string, username string) error
	ResetCalendar(ctx context.Context, a app.Actor, idOrPrefix string) (app.IssuedCalendar, error)
	RestoreDocument(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Document, error)
	RestoreProject(ctx context.Context, a app.Actor, workspace string, idOrKey string) (app.ProjectView, error)
	RestoreTask(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	RevokeCalendar(ctx context.Context, a app.Actor, idOrPrefix string) (app.Calendar, error)
	ReadReminder(ctx context.Context, a app.Actor, workspace, ref, text string) (app.Reminder, error)
	RevokeToken(ctx context.Context, a app.Actor, idOrPrefix string) (app.Token, error)
	RotateWebhookSecret(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	WebhookLastAttempts(ctx context.Context, a app.Actor, workspace string) (map[string]app.WebhookAttempt, error)
	SearchItems(ctx context.Context, a app.Actor, in app.ItemSearchQuery) (app.ItemSearch, error)
	SetProjectRole(ctx context.Context, a app.Actor, workspace string, idOrKey string, username string, in app.ProjectRoleGrant) (app.ProjectRole, error)
	ShareProject(ctx context.Context, a app.Actor, workspace string, idOrKey string, username string) (app.ProjectMember, error)
	ShowItem(ctx context.Context, a app.Actor, workspace string, idOrRef string, q app.ShowQuery) (app.ItemShow, error)
	SignIn(ctx context.Context, secret string, c app.SessionClient) (app.StartedSession, error)
	SignOut(ctx context.Context, a app.Actor, username string) (app.SignedOut, error)
	SignOutOthers(ctx context.Context, a app.Actor, username string) (app.SignedOut, error)
	Sessions(ctx context.Context, a app.Actor, username string) ([]app.DeviceSession, error)
	RevokeSession(ctx context.Context, a app.Actor, username, id string) error
	CreateDeviceLink(ctx context.Context, a app.Actor) (app.IssuedLoginLink, error)
	ClaimTailscale(ctx context.Context, a app.Actor, login string) (app.User, error)
	SkipOccurrence(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Completed, error)
	Statuses(ctx context.Context, a app.Actor, workspace string, entity string) ([]app.Status, error)
	TaskGet(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Task, error)
	Tasks(ctx context.Context, a app.Actor, in app.TaskListQuery) (app.TaskList, error)
	Tokens(ctx context.Context, a app.Actor) ([]app.Token, error)
	UnshareProject(ctx context.Context, a app.Actor, workspace string, idOrKey string, username string) error
	UpdateDocument(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.DocumentUpdate) (app.Document, error)
	UpdateProject(ctx context.Context, a app.Actor, workspace string, idOrKey string, in app.ProjectUpdate) (app.ProjectView, error)
	UpdateTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.TaskUpdate) (app.Task, error)
	UpdateWebhook(ctx context.Context, a app.Actor, workspace, id string, in app.WebhookUpdate) (app.Webhook, error)
	UpdateUser(ctx context.Context, a app.Actor, username string, in app.UserUpdate) (app.User, error)
	ViewGet(ctx context.Context, a app.Actor, workspace, idOrName string) (app.View, error)
	Views(ctx context.Context, a app.Actor, workspace string) ([]app.View, error)
	WebhookGet(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	WebhookLog(ctx context.Context, a app.Actor, workspace, id string) ([]app.WebhookAttempt, error)
	Webhooks(ctx context.Context, a app.Actor, workspace string) ([]app.Webhook, error)
	Written() <-chan struct{}
}

var _ Service = (*app.Service)(nil)
