package wire

import "tend/app"

// CreateStatus is the body of POST /v1/statuses.
type CreateStatus struct {
	Category   string `json:"category"`
	EntityType string `json:"entity_type"`
	IsDefault  bool   `json:"is_default"`
	Key        string `json:"key"`
	Label      string `json:"label"`
	Position   *int   `json:"position"`
}

// App is the new status as the Service takes it.
func (in CreateStatus) App() app.CreateStatus { return app.CreateStatus(in) }

// UpdateStatus is the body of PATCH /v1/statuses/{which}.
type UpdateStatus struct {
	Key       Patch[string] `json:"key"`
	Label     Patch[string] `json:"label"`
	Position  Patch[int]    `json:"position"`
	IsDefault Patch[bool]   `json:"is_default"`
	Category  Patch[string] `json:"category"`
}

// App is the change as the Service takes it.
func (in UpdateStatus) App() app.UpdateStatus {
	return app.UpdateStatus{Key: in.Key.App(), Label: in.Label.App(), Position: in.Position.App(), IsDefault: in.IsDefault.App(),
		Category: in.Category.App()}
}

// CreateLinkType is the body of POST /v1/link-types.
type CreateLinkType struct {
	Category     string `json:"category"`
	InverseTitle string `json:"inverse_title"`
	IsSymmetric  bool   `json:"is_symmetric"`
	Key          string `json:"key"`
	Title        string `json:"title"`
}

// App is the new link type as the Service takes it.
func (in CreateLinkType) App() app.CreateLinkType { return app.CreateLinkType(in) }

// UpdateLinkType is the body of PATCH /v1/link-types/{which}.
type UpdateLinkType struct {
	Key          Patch[string] `json:"key"`
	Title        Patch[string] `json:"title"`
	InverseTitle Patch[string] `json:"inverse_title"`
	Category     Patch[string] `json:"category"`
}

// App is the change as the Service takes it.
func (in UpdateLinkType) App() app.UpdateLinkType {
	return app.UpdateLinkType{Key: in.Key.App(), Title: in.Title.App(), InverseTitle: in.InverseTitle.App(),
		Category: in.Category.App()}
}

// CreateTag is the body of POST /v1/tags.
type CreateTag struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

// App is the new tag as the Service takes it.
func (in CreateTag) App() app.CreateTag { return app.CreateTag(in) }

// UpdateTag is the body of PATCH /v1/tags/{which}.
type UpdateTag struct {
	Name        Patch[string] `json:"name"`
	Description Patch[string] `json:"description"`
}

// App is the change as the Service takes it.
func (in UpdateTag) App() app.UpdateTag {
	return app.UpdateTag{Name: in.Name.App(), Description: in.Description.App()}
}
