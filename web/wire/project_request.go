package wire

import "tend/app"

// ProjectCreate is the body of POST /v1/projects.
type ProjectCreate struct {
	Key         string         `json:"key"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Parent      string         `json:"parent"`
	Visibility  string         `json:"visibility"`
	Status      string         `json:"status"`
	Colour      string         `json:"colour"`
	Settings    map[string]any `json:"settings"`
}

// App is the new project as the Service takes it.
func (in ProjectCreate) App() app.ProjectCreate { return app.ProjectCreate(in) }

// ProjectUpdate is the body of PATCH /v1/projects/{id_or_key}: omitted
// fields stay, null clears. The key is permanent.
type ProjectUpdate struct {
	Key             Patch[string]         `json:"key"`
	Title           Patch[string]         `json:"title"`
	Description     Patch[string]         `json:"description"`
	Parent          Patch[string]         `json:"parent"`
	Visibility      Patch[string]         `json:"visibility"`
	Status          Patch[string]         `json:"status"`
	Colour          Patch[string]         `json:"colour"`
	Settings        Patch[map[string]any] `json:"settings"`
	HiddenStatuses  Patch[[]string]       `json:"hidden_statuses"`
	ExpectedVersion *int                  `json:"expected_version"`
}

// App is the change as the Service takes it.
func (in ProjectUpdate) App() app.ProjectUpdate {
	return app.ProjectUpdate{Key: in.Key.App(), Title: in.Title.App(), Description: in.Description.App(),
		Parent: in.Parent.App(), Visibility: in.Visibility.App(), Status: in.Status.App(), Colour: in.Colour.App(),
		Settings: in.Settings.App(), HiddenStatuses: in.HiddenStatuses.App(), ExpectedVersion: in.ExpectedVersion}
}

// ProjectRoleGrant is the body of PUT
// /v1/projects/{id_or_key}/roles/{username}.
type ProjectRoleGrant struct {
	Role string `json:"role"`
}

// App is the grant as the Service takes it.
func (in ProjectRoleGrant) App() app.ProjectRoleGrant { return app.ProjectRoleGrant(in) }
