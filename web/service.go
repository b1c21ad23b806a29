package web

import (
	"context"

	"tend/app"
	"tend/web/calfeed"
	"tend/web/dav"
	"tend/web/mcpserver"
	"tend/web/pages"
)

// Service is the part of app.Service the server calls: the JSON API's
// handlers and authentication, and what it hands to the adapters it mounts
// (the pages, MCP and the calendar feeds), whose parts it embeds. Taking no
// more keeps the server's reach visible in its constructor (issue 33 §4).
type Service interface {
	pages.Service
	mcpserver.Service
	calfeed.Service
	dav.Service
	webhookService
	channelService

	AddLinkType(ctx context.Context, a app.Actor, workspace string, in app.CreateLinkType) (app.LinkType, error)
	AddMember(ctx context.Context, a app.Actor, idOrSlug string, in app.Join) (app.Member, error)
	AddStatus(ctx context.Context, a app.Actor, workspace string, in app.CreateStatus) (app.Status, error)
	AddTag(ctx context.Context, a app.Actor, workspace string, in app.CreateTag) (app.Tag, error)
	AddVerification(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.RecordVerification) (app.Verification, error)
	AuthenticateSession(ctx context.Context, secret string, iface string) (app.Actor, error)
	AuthorizeMetrics(ctx context.Context, a app.Actor) error
	Backups(ctx context.Context, a app.Actor) ([]app.Backup, error)
	ChangeLinkType(ctx context.Context, a app.Actor, id string, in app.UpdateLinkType) (app.LinkType, error)
	ChangeStatus(ctx context.Context, a app.Actor, id string, in app.UpdateStatus) (app.Status, error)
	ChangeTag(ctx context.Context, a app.Actor, id string, in app.UpdateTag) (app.Tag, error)
	CreateLoginLink(ctx context.Context, a app.Actor, in app.LoginLinkCreate) (app.IssuedLoginLink, error)
	StartDevice(ctx context.Context, client, addr string) (app.DeviceAuthorization, error)
	TailscaleSignIn(ctx context.Context, login string, c app.SessionClient) (app.StartedSession, error)
	UsernameAvailable(ctx context.Context, secret, name, addr string) (app.UsernameCheck, error)
	DeviceToken(ctx context.Context, deviceCode string) (app.IssuedToken, error)
	CreateUser(ctx context.Context, a app.Actor, in app.UserCreate) (app.User, error)
	CreateWorkspace(ctx context.Context, a app.Actor, in app.WorkspaceCreate) (app.WorkspaceView, error)
	DeleteComment(ctx context.Context, a app.Actor, id string) error
	DeleteView(ctx context.Context, a app.Actor, workspace, idOrName string) (app.View, error)
	DeleteWorkspace(ctx context.Context, a app.Actor, idOrSlug string) (app.WorkspaceView, error)
	DocumentEvents(ctx context.Context, a app.Actor, workspace string, idOrRef string, q app.EventQuery) (app.EventPage, error)
	DocumentGet(ctx context.Context, a app.Actor, workspace string, idOrRef string) (app.Document, error)
	Export(ctx context.Context, a app.Actor, workspace string, w app.ExportWriter) error
	Instance(ctx context.Context, a app.Actor) (app.Instance, error)
	InstanceWorkspaces(ctx context.Context, a app.Actor) ([]app.WorkspaceOnInstance, error)
	ItemBacklinks(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string) ([]app.Backlink, error)
	ItemComments(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, q app.CommentQuery) (app.CommentPage, error)
	ItemGoverning(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string) ([]app.Governing, error)
	ItemLinks(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string) ([]app.LinkView, error)
	ItemProposedLinks(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string) ([]app.Proposal, error)
	ItemTree(ctx context.Context, a app.Actor, workspace string, entity string, idOrRef string, depth int) ([]app.Beneath, error)
	LinkTypes(ctx context.Context, a app.Actor, workspace string) ([]app.LinkType, error)
	MoveDocument(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.DocumentMove) (app.Document, error)
	MoveTask(ctx context.Context, a app.Actor, workspace string, idOrRef string, in app.TaskMove) (app.Task, error)
	Promote(ctx context.Context, a app.Actor, replica string) error
	ParseRecurrence(ctx context.Context, a app.Actor, in app.RecurrenceParse) (app.Reading, error)
	PreviewTask(ctx context.Context, a app.Actor, workspace string, in app.TaskCreate) (app.TaskPreview, error)
	ProjectRolesHeld(ctx context.Context, a app.Actor) ([]app.ProjectAccess, error)
	ProjectSettings(ctx context.Context, a app.Actor, workspace string, idOrKey string) ([]app.InForce, error)
	ReadRefusals() app.ReadRefusals
	Ready(ctx context.Context) error
	RegradeMember(ctx context.Context, a app.Actor, idOrSlug string, username string, in app.Regrade) (app.Member, error)
	RemoveLinkType(ctx context.Context, a app.Actor, id string) error
	RemoveMember(ctx context.Context, a app.Actor, idOrSlug string, username string) error
	RemoveStatus(ctx context.Context, a app.Actor, id string) error
	RemoveTag(ctx context.Context, a app.Actor, id string) error
	RestoreWorkspace(ctx context.Context, a app.Actor, idOrSlug string) (app.WorkspaceView, error)
	SettingsRegistry() []app.Setting
	Tags(ctx context.Context, a app.Actor, workspace string, limit int, cursor string, total bool) (app.TagPage, error)
	TakeBackup(ctx context.Context, a app.Actor, keep *int) (app.Backup, error)
	TaskEvents(ctx context.Context, a app.Actor, workspace string, idOrRef string, q app.EventQuery) (app.EventPage, error)
	TaskOccurrences(ctx context.Context, a app.Actor, workspace string, idOrRef string, q app.OccurrencesQuery) (app.Occurrences, error)
	UpdateComment(ctx context.Context, a app.Actor, id string, in app.CommentUpdate) (app.Comment, error)
	UpdateInstance(ctx context.Context, a app.Actor, in app.InstanceUpdate) (app.Instance, error)
	UpdateWorkspace(ctx context.Context, a app.Actor, idOrSlug string, in app.WorkspaceUpdate) (app.WorkspaceView, error)
	User(ctx context.Context, a app.Actor, username string) (app.User, error)
	Users(ctx context.Context, a app.Actor, q app.UserQuery) (app.UserPage, error)
	UpdateView(ctx context.Context, a app.Actor, workspace, idOrName string, in app.ViewUpdate) (app.View, error)
	Verifications(ctx context.Context, a app.Actor, workspace string, idOrRef string) ([]app.Verification, error)
	Workspace(ctx context.Context, a app.Actor, idOrSlug string) (app.WorkspaceView, error)
	WorkspaceSettings(ctx context.Context, a app.Actor, workspace string) ([]app.InForce, error)
	Workspaces(ctx context.Context, a app.Actor, deleted bool) ([]app.WorkspaceView, error)
}

var _ Service = (*app.Service)(nil)
