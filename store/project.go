package store

import (
	"context"
	"database/sql"

	"tend/app"
)

type projectRow struct {
	ID          string         `db:"id"`
	WorkspaceID string         `db:"workspace_id"`
	Key         string         `db:"key"`
	Title       string         `db:"title"`
	Description sql.NullString `db:"description"`
	ParentID    sql.NullString `db:"parent_id"`
	Visibility  string         `db:"visibility"`
	IsInbox     bool           `db:"is_inbox"`
	OwnerID     sql.NullString `db:"owner_id"`
	StatusID    string         `db:"status_id"`
	CreatedAt   string         `db:"created_at"`
	UpdatedAt   string         `db:"updated_at"`
	DeletedAt   sql.NullString `db:"deleted_at"`
	Version     int            `db:"version"`
}

func (r projectRow) project() app.Project {
	return app.Project{ID: r.ID, WorkspaceID: r.WorkspaceID, Key: r.Key, Title: r.Title, Description: r.Description.String,
		ParentID: r.ParentID.String, Visibility: r.Visibility, IsInbox: r.IsInbox, OwnerID: r.OwnerID.String,
		StatusID: r.StatusID, CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt),
		DeletedAt: parseTimePtr(r.DeletedAt), Version: r.Version}
}

const projectSelect = `SELECT id, workspace_id, key, title, description, parent_id, visibility, is_inbox, owner_id,
	status_id, created_at, updated_at, deleted_at, version FROM projects`

// InsertProject stores a project.
func (t *Tx) InsertProject(ctx context.Context, p *app.Project) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO projects (id, workspace_id, key, title, description, parent_id, visibility,
		is_inbox, owner_id, status_id, created_at, updated_at, deleted_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.WorkspaceID, p.Key, p.Title, nullStr(p.Description), nullStr(p.ParentID), p.Visibility, p.IsInbox,
		nullStr(p.OwnerID), p.StatusID, fmtTime(p.CreatedAt), fmtTime(p.UpdatedAt), fmtTimePtr(p.DeletedAt), p.Version)
	return mapErr(err)
}

func (t *Tx) getProject(ctx context.Context, where string, args ...any) (app.Project, error) {
	var r projectRow
	if err := t.tx.GetContext(ctx, &r, projectSelect+" WHERE "+where, args...); err != nil {
		return app.Project{}, mapErr(err)
	}
	return r.project(), nil
}

// ProjectByID reads a project by id.
func (t *Tx) ProjectByID(ctx context.Context, id string) (app.Project, error) {
	return t.getProject(ctx, "id = ?", id)
}

// ProjectByKey reads a project by its key within a workspace.
func (t *Tx) ProjectByKey(ctx context.Context, workspaceID, key string) (app.Project, error) {
	return t.getProject(ctx, "workspace_id = ? AND key = ?", workspaceID, key)
}

// ProjectAncestors lists the ids above a project, nearest first.
func (t *Tx) ProjectAncestors(ctx context.Context, id string) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, `WITH RECURSIVE up(id, parent, depth) AS (
		SELECT id, parent_id, 0 FROM projects WHERE id = ?
		UNION ALL SELECT p.id, p.parent_id, up.depth + 1 FROM projects p JOIN up ON p.id = up.parent WHERE up.depth < 64)
		SELECT id FROM up WHERE depth > 0 ORDER BY depth`, id)
	return ids, mapErr(err)
}
