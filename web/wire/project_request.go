package wire

import "tend/app"

// ProjectCreate is the body of POST /v1/projects.
type ProjectCreate struct {
	Key         string         `json:"key,omitempty"`
	Title       string         `json:"title,omitempty"`
	Description string         `json:"description,omitempty"`
	Parent      string         `json:"parent,omitempty"`
	Visibility  string         `json:"visibility,omitempty"`
	Status      string         `json:"status,omitempty"`
	Colour      string         `json:"colour,omitempty"`
	Settings    map[string]any `json:"settings,omitempty"`
}

// App is the new project as the Service takes it.
func (in ProjectCreate) App() app.ProjectCreate { return app.ProjectCreate(in) }

// ProjectUpdate is the body of PATCH /v1/projects/{id_or_key}: omitted
// fields stay, null clears. The key is permanent.
type ProjectUpdate struct {
	Key             Patch[string]         `json:"key,omitzero"`
	Title           Patch[string]         `json:"title,omitzero"`
	Description     Patch[string]         `json:"description,omitzero"`
	Parent          Patch[string]         `json:"parent,omitzero"`
	Visibility      Patch[string]         `json:"visibility,omitzero"`
	Status          Patch[string]         `json:"status,omitzero"`
	Colour          Patch[string]         `json:"colour,omitzero"`
	Settings        Patch[map[string]any] `json:"settings,omitzero"`
	HiddenStatuses  Patch[[]string]       `json:"hidden_statuses,omitzero"`
	ExpectedVersion *int                  `json:"expected_version,omitzero"`
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
