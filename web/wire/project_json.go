package wire

import (
	"tend/app"
)

// Project is the full record of a project.
type Project struct {
	ID              string         `json:"id"`
	Key             string         `json:"key"`
	Title           string         `json:"title"`
	Description     *string        `json:"description"`
	Path            string         `json:"path"`
	Depth           int            `json:"depth"`
	ParentID        *string        `json:"parent_id"`
	Visibility      string         `json:"visibility"`
	IsInbox         bool           `json:"is_inbox"`
	OwnerID         *string        `json:"owner_id"`
	Status          string         `json:"status"`
	StatusID        string         `json:"status_id"`
	StatusLabel     string         `json:"status_label"`
	StatusCategory  string         `json:"status_category"`
	StatusIsDefault bool           `json:"status_is_default"`
	HiddenStatuses  []string       `json:"hidden_statuses"`
	Colour          *string        `json:"colour"`
	Settings        map[string]any `json:"settings"`
	Template        string         `json:"template"`
	WorkspaceID     string         `json:"workspace_id"`
	ArchivedAt      *string        `json:"archived_at"`
	CreatedAt       string         `json:"created_at"`
	UpdatedAt       string         `json:"updated_at"`
	DeletedAt       *string        `json:"deleted_at"`
	Version         int            `json:"version"`
}

// NewProject is p as the wire shows it.
func NewProject(p app.ProjectView) Project {
	return Project{ID: p.ID, Key: p.Key, Title: p.Title, Description: OrNull(p.Description), Path: p.Path, Depth: p.Depth,
		ParentID: OrNull(p.ParentID), Visibility: p.Visibility, IsInbox: p.IsInbox, OwnerID: OrNull(p.OwnerID),
		Status: p.Status.Key, StatusID: p.StatusID, StatusLabel: p.Status.Label, StatusCategory: p.Status.Category,
		StatusIsDefault: p.Status.IsDefault, HiddenStatuses: p.HiddenStatuses, Colour: OrNull(p.Colour), Settings: p.Settings,
		WorkspaceID: p.WorkspaceID, ArchivedAt: StampPtr(p.ArchivedAt), CreatedAt: Stamp(p.CreatedAt), UpdatedAt: Stamp(p.UpdatedAt),
		DeletedAt: StampPtr(p.DeletedAt), Version: p.Version}
}
