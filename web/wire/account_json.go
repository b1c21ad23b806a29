package wire

import (
	"tend/app"
)

// Credential is a credential as GET /v1/me reports the one presented.
type Credential struct {
	ID                    string   `json:"id"`
	Kind                  string   `json:"kind"`
	Prefix                string   `json:"prefix"`
	Title                 string   `json:"title"`
	Scopes                []string `json:"scopes"`
	Narrows               bool     `json:"narrows"`
	WorkspaceID           *string  `json:"workspace_id"`
	ProjectScope          []string `json:"project_scope"`
	ProjectScopeKeys      []string `json:"project_scope_keys"`
	ProjectWriteScope     []string `json:"project_write_scope"`
	ProjectWriteScopeKeys []string `json:"project_write_scope_keys"`
	ExpiresAt             *string  `json:"expires_at"`
	LastUsedAt            *string  `json:"last_used_at"`
}

// NewCredential is t as the wire shows a credential: never its secret.
func NewCredential(t app.Token) Credential {
	return Credential{ID: t.ID, Kind: t.Kind, Prefix: t.Prefix, Title: t.Title, Scopes: t.Scopes, Narrows: t.Narrows(),
		WorkspaceID: OrNull(t.WorkspaceID), ProjectScope: t.ProjectScope, ProjectScopeKeys: t.ProjectScopeKeys,
		ProjectWriteScope: t.ProjectWriteScope, ProjectWriteScopeKeys: t.ProjectWriteScopeKeys,
		ExpiresAt: StampPtr(t.ExpiresAt), LastUsedAt: StampPtr(t.LastUsedAt)}
}

// Caller is the caller's own account, with its email.
type Caller struct {
	ID               string  `json:"id"`
	Username         string  `json:"username"`
	DisplayName      *string `json:"display_name"`
	Email            *string `json:"email"`
	IsServiceAccount bool    `json:"is_service_account"`
	IsSuperuser      bool    `json:"is_superuser"`
	Timezone         *string `json:"timezone"`
	// ReminderTime is when an all-day due reminds this account, in its
	// zone; DefaultReminders what a new dated task of theirs takes.
	ReminderTime     string         `json:"reminder_time"`
	DefaultReminders []TaskReminder `json:"default_reminders"`
	// DigestTime is when the daily digest comes, in the account's zone;
	// null when off.
	DigestTime *string `json:"digest_time"`
	// TailscaleLogin is the Tailscale login that signs the account in
	// under tend serve --trust-tailscale; null for none.
	TailscaleLogin *string `json:"tailscale_login"`
}

// NewCaller is the account u as it sees itself.
func NewCaller(u app.User) Caller {
	c := Caller{ID: u.ID, Username: u.Username, DisplayName: OrNull(u.DisplayName), Email: OrNull(u.Email),
		IsServiceAccount: u.IsServiceAccount, IsSuperuser: u.IsSuperuser, Timezone: OrNull(u.Timezone),
		ReminderTime: app.Clock(u.ReminderMinute), DefaultReminders: NewReminders(u.DefaultReminders),
		TailscaleLogin: OrNull(u.TailscaleLogin)}
	if u.DigestMinute != nil {
		t := app.Clock(*u.DigestMinute)
		c.DigestTime = &t
	}
	return c
}

// WorkspaceRef names a workspace where a record refers to one.
type WorkspaceRef struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// NewWorkspaceRef names the workspace w.
func NewWorkspaceRef(w app.Workspace) WorkspaceRef {
	return WorkspaceRef{ID: w.ID, Slug: w.Slug, Name: w.Name}
}

// WorkspaceAccess is one workspace the caller reaches, with its role and
// effective permissions there.
type WorkspaceAccess struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Timezone    string   `json:"timezone"`
	Role        string   `json:"role"`
	Permissions []string `json:"permissions"`
}

// NewWorkspaceAccess is the caller's standing in w.
func NewWorkspaceAccess(w app.WorkspaceView) WorkspaceAccess {
	return WorkspaceAccess{ID: w.ID, Slug: w.Slug, Name: w.Name, Timezone: w.Timezone, Role: w.Role, Permissions: w.Permissions}
}

// Me is GET /v1/me: who the caller is, with what authority, and where.
type Me struct {
	APIVersion          string            `json:"api_version"`
	InstanceVersion     *string           `json:"instance_version"`
	SchemaRevision      *string           `json:"schema_revision"`
	User                Caller            `json:"user"`
	Credential          *Credential       `json:"credential"`
	InstancePermissions []string          `json:"instance_permissions"`
	ReaderTimezone      *string           `json:"reader_timezone"`
	Workspaces          []WorkspaceAccess `json:"workspaces"`
}

// NewMe is me as the wire shows it.
func NewMe(me app.Me) Me {
	out := Me{APIVersion: me.APIVersion, InstanceVersion: OrNull(me.InstanceVersion), SchemaRevision: OrNull(me.SchemaRevision),
		User: NewCaller(me.User), InstancePermissions: me.InstancePermissions, ReaderTimezone: OrNull(me.ReaderTimezone),
		Workspaces: make([]WorkspaceAccess, len(me.Workspaces))}
	if me.Credential != nil {
		c := NewCredential(*me.Credential)
		out.Credential = &c
	}
	for i, ws := range me.Workspaces {
		out.Workspaces[i] = NewWorkspaceAccess(ws)
	}
	return out
}
