package web

import (
	"tend/app"
)

// credentialJSON is a credential as GET /v1/me reports the one presented.
type credentialJSON struct {
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

func newCredentialJSON(t app.Token) credentialJSON {
	return credentialJSON{ID: t.ID, Kind: t.Kind, Prefix: t.Prefix, Title: t.Title, Scopes: t.Scopes, Narrows: t.Narrows(),
		WorkspaceID: orNull(t.WorkspaceID), ProjectScope: t.ProjectScope, ProjectScopeKeys: t.ProjectScopeKeys,
		ProjectWriteScope: t.ProjectWriteScope, ProjectWriteScopeKeys: t.ProjectWriteScopeKeys,
		ExpiresAt: stampPtr(t.ExpiresAt), LastUsedAt: stampPtr(t.LastUsedAt)}
}

// callerJSON is the caller's own account, with its email.
type callerJSON struct {
	ID               string  `json:"id"`
	Username         string  `json:"username"`
	DisplayName      *string `json:"display_name"`
	Email            *string `json:"email"`
	IsServiceAccount bool    `json:"is_service_account"`
	IsSuperuser      bool    `json:"is_superuser"`
	Timezone         *string `json:"timezone"`
}

func newCallerJSON(u app.User) callerJSON {
	return callerJSON{ID: u.ID, Username: u.Username, DisplayName: orNull(u.DisplayName), Email: orNull(u.Email),
		IsServiceAccount: u.IsServiceAccount, IsSuperuser: u.IsSuperuser, Timezone: orNull(u.Timezone)}
}

// workspaceRefJSON names a workspace where a record refers to one.
type workspaceRefJSON struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

func newWorkspaceRef(w app.Workspace) workspaceRefJSON {
	return workspaceRefJSON{ID: w.ID, Slug: w.Slug, Name: w.Name}
}

// workspaceAccessJSON is one workspace the caller reaches, with its role and
// effective permissions there.
type workspaceAccessJSON struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Timezone    string   `json:"timezone"`
	Role        string   `json:"role"`
	Permissions []string `json:"permissions"`
}

func newWorkspaceAccess(w app.WorkspaceView) workspaceAccessJSON {
	return workspaceAccessJSON{ID: w.ID, Slug: w.Slug, Name: w.Name, Timezone: w.Timezone, Role: w.Role, Permissions: w.Permissions}
}
