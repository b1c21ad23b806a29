package web

import (
	"tend/app"
)

// commentJSON is a comment on a task, document or project.
type commentJSON struct {
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

func newCommentJSON(c app.Comment) commentJSON {
	return commentJSON{ID: c.ID, EntityType: c.EntityType, EntityID: c.EntityID, WorkspaceID: c.WorkspaceID, Author: orNull(c.Author),
		AuthorID: orNull(c.AuthorID), Body: c.Body, CreatedAt: stamp(c.CreatedAt), UpdatedAt: stamp(c.UpdatedAt),
		DeletedAt: stampPtr(c.DeletedAt), Version: c.Version}
}
