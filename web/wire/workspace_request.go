package wire

import "tend/app"

// WorkspaceCreate is the body of POST /v1/workspaces.
type WorkspaceCreate struct {
	Slug     string `json:"slug"`
	Name     string `json:"name"`
	Timezone string `json:"timezone"`
}

// App is the new workspace as the Service takes it.
func (in WorkspaceCreate) App() app.WorkspaceCreate { return app.WorkspaceCreate(in) }

// WorkspaceUpdate is the body of PATCH /v1/workspaces/{id_or_slug}:
// omitted fields stay, null clears.
type WorkspaceUpdate struct {
	Slug            Patch[string]         `json:"slug"`
	Name            Patch[string]         `json:"name"`
	Timezone        Patch[string]         `json:"timezone"`
	Settings        Patch[map[string]any] `json:"settings"`
	ExpectedVersion *int                  `json:"expected_version"`
}

// App is the change as the Service takes it.
func (in WorkspaceUpdate) App() app.WorkspaceUpdate {
	return app.WorkspaceUpdate{Slug: in.Slug.App(), Name: in.Name.App(), Timezone: in.Timezone.App(),
		Settings: in.Settings.App(), ExpectedVersion: in.ExpectedVersion}
}

// Join is the body of POST /v1/workspaces/{id_or_slug}/members: the
// account to add, with its role.
type Join struct {
	Username string `json:"username"`
	Role     string `json:"role"`
}

// App is the new membership as the Service takes it.
func (in Join) App() app.Join { return app.Join(in) }

// Regrade is the body of PATCH
// /v1/workspaces/{id_or_slug}/members/{username}: the member's new role.
type Regrade struct {
	Role string `json:"role"`
}

// App is the change as the Service takes it.
func (in Regrade) App() app.Regrade { return app.Regrade(in) }
