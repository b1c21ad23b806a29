package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"tend/app"
)

type workspaceRow struct {
	ID        string         `db:"id"`
	Slug      string         `db:"slug"`
	Name      string         `db:"name"`
	Timezone  string         `db:"timezone"`
	Settings  string         `db:"settings"`
	CreatedAt string         `db:"created_at"`
	UpdatedAt string         `db:"updated_at"`
	DeletedAt sql.NullString `db:"deleted_at"`
	Version   int            `db:"version"`
}

func (r workspaceRow) workspace() app.Workspace {
	w := app.Workspace{ID: r.ID, Slug: r.Slug, Name: r.Name, Timezone: r.Timezone, CreatedAt: parseTime(r.CreatedAt),
		UpdatedAt: parseTime(r.UpdatedAt), DeletedAt: parseTimePtr(r.DeletedAt), Version: r.Version, Settings: map[string]any{}}
	_ = json.Unmarshal([]byte(r.Settings), &w.Settings)
	return w
}

const workspaceCols = `w.id, w.slug, w.name, w.timezone, w.settings, w.created_at, w.updated_at, w.deleted_at, w.version`

func (t *Tx) getWorkspace(ctx context.Context, where string, arg any) (app.Workspace, error) {
	return getRow(ctx, t, workspaceRow.workspace, "SELECT "+workspaceCols+" FROM workspaces w WHERE "+where, arg)
}

// WorkspaceByID reads a workspace by id.
func (t *Tx) WorkspaceByID(ctx context.Context, id string) (app.Workspace, error) {
	return t.getWorkspace(ctx, "w.id = ?", id)
}

// WorkspaceBySlug reads a workspace by slug, case-insensitively.
func (t *Tx) WorkspaceBySlug(ctx context.Context, slug string) (app.Workspace, error) {
	return t.getWorkspace(ctx, "w.slug = ?", slug)
}

// InsertWorkspace stores a new workspace.
func (t *Tx) InsertWorkspace(ctx context.Context, w *app.Workspace) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO workspaces (id, slug, name, timezone, created_at, updated_at, deleted_at, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, w.ID, w.Slug, w.Name, w.Timezone, fmtTime(w.CreatedAt), fmtTime(w.UpdatedAt),
		fmtTimePtr(w.DeletedAt), w.Version)
	return mapErr(err)
}

// UpdateWorkspace stores a workspace's changeable fields.
func (t *Tx) UpdateWorkspace(ctx context.Context, w *app.Workspace) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE workspaces SET slug = ?, name = ?, timezone = ?, settings = ?, updated_at = ?,
		deleted_at = ?, version = ? WHERE id = ?`, w.Slug, w.Name, w.Timezone, settingsText(w.Settings), fmtTime(w.UpdatedAt),
		fmtTimePtr(w.DeletedAt), w.Version, w.ID)
	return mapErr(err)
}

// InstanceWorkspaces lists every workspace with its member count and owners.
func (t *Tx) InstanceWorkspaces(ctx context.Context) ([]app.WorkspaceOnInstance, error) {
	var rows []struct {
		workspaceRow
		Members int            `db:"members"`
		Owners  sql.NullString `db:"owners"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT `+workspaceCols+`,
		(SELECT count(*) FROM workspace_members m WHERE m.workspace_id = w.id) AS members,
		(SELECT group_concat(u.username, ' ') FROM workspace_members m JOIN users u ON u.id = m.user_id
			WHERE m.workspace_id = w.id AND m.role = 'owner') AS owners
		FROM workspaces w ORDER BY w.created_at, w.id`)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.WorkspaceOnInstance, len(rows))
	for i, r := range rows {
		out[i] = app.WorkspaceOnInstance{Workspace: r.workspace(), Members: r.Members, Owners: strings.Fields(r.Owners.String)}
	}
	return out, nil
}
