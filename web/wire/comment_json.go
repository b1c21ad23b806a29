package wire

import (
	"tend/app"
)

// Comment is a comment on a task, document or project.
type Comment struct {
	ID          string  `json:"id"`
	EntityType  string  `json:"entity_type"`
	EntityID    string  `json:"entity_id"`
	WorkspaceID string  `json:"workspace_id"`
	Author      *string `json:"author"`
	AuthorID    *string `json:"author_id"`
	Body        string  `json:"body"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	DeletedAt   *string `json:"deleted_at"`
	Version     int     `json:"version"`
}

// NewComment is c as the wire shows it.
func NewComment(c app.Comment) Comment {
	return Comment{ID: c.ID, EntityType: c.EntityType, EntityID: c.EntityID, WorkspaceID: c.WorkspaceID, Author: OrNull(c.Author),
		AuthorID: OrNull(c.AuthorID), Body: c.Body, CreatedAt: Stamp(c.CreatedAt), UpdatedAt: Stamp(c.UpdatedAt),
		DeletedAt: StampPtr(c.DeletedAt), Version: c.Version}
}
