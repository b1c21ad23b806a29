package app

import (
	"context"
	"time"
)

// Project is a node in a workspace's project tree. Every workspace has one
// inbox project, where work lands when no project is named.
type Project struct {
	ID          string
	WorkspaceID string
	Key         string
	Title       string
	Description string
	ParentID    string
	Visibility  string
	IsInbox     bool
	OwnerID     string
	StatusID    string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	DeletedAt   *time.Time
	Version     int
}

type projectTx interface {
	InsertProject(ctx context.Context, p *Project) error
	ProjectByID(ctx context.Context, id string) (Project, error)
	ProjectByKey(ctx context.Context, workspaceID, key string) (Project, error)
	// ProjectAncestors lists the ids above a project, nearest first.
	ProjectAncestors(ctx context.Context, id string) ([]string, error)
}
