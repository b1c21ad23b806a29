package store

import (
	"context"

	"tend/app"
)

type viewRow struct {
	ID          string `db:"id"`
	WorkspaceID string `db:"workspace_id"`
	UserID      string `db:"user_id"`
	Username    string `db:"username"`
	Name        string `db:"name"`
	Params      string `db:"params"`
	Shared      bool   `db:"shared"`
	Version     int    `db:"version"`
	CreatedAt   string `db:"created_at"`
	UpdatedAt   string `db:"updated_at"`
}

func (r viewRow) view() (app.View, error) {
	q, err := app.DecodeViewQuery(r.Params)
	return app.View{ID: r.ID, WorkspaceID: r.WorkspaceID, UserID: r.UserID, Username: r.Username, Name: r.Name, Query: q,
		Shared: r.Shared, Version: r.Version, CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt)}, err
}

const viewSelect = `SELECT v.id, v.workspace_id, v.user_id, u.username, v.name, v.params, v.shared, v.version, v.created_at, v.updated_at
	FROM views v JOIN users u ON u.id = v.user_id `

// ViewByID reads a view by id in a workspace.
func (t *Tx) ViewByID(ctx context.Context, workspaceID, id string) (app.View, error) {
	return getRowChecked(ctx, t, viewRow.view, viewSelect+`WHERE v.workspace_id = ? AND v.id = ?`, workspaceID, id)
}

// Views lists the views userID owns in a workspace and those shared
// there, by name, the owner's own first among equal names.
func (t *Tx) Views(ctx context.Context, workspaceID, userID string) ([]app.View, error) {
	return selectRowsChecked(ctx, t, viewRow.view, viewSelect+`WHERE v.workspace_id = ? AND (v.user_id = ? OR v.shared = 1)
		ORDER BY v.name COLLATE NOCASE, v.user_id <> ?, v.seq`, workspaceID, userID, userID)
}

// CountViews counts the views userID owns in a workspace.
func (t *Tx) CountViews(ctx context.Context, workspaceID, userID string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM views WHERE workspace_id = ? AND user_id = ?`, workspaceID, userID)
	return n, mapErr(err)
}

// InsertView stores a new view.
func (t *Tx) InsertView(ctx context.Context, v *app.View) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO views (id, workspace_id, user_id, name, params, shared, version, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.ID, v.WorkspaceID, v.UserID, v.Name, app.EncodeViewQuery(v.Query), v.Shared, v.Version,
		fmtTime(v.CreatedAt), fmtTime(v.UpdatedAt))
	return mapErr(err)
}

// UpdateView writes a view's name, listing, sharing and version.
func (t *Tx) UpdateView(ctx context.Context, v *app.View) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE views SET name = ?, params = ?, shared = ?, version = ?, updated_at = ? WHERE id = ?`,
		v.Name, app.EncodeViewQuery(v.Query), v.Shared, v.Version, fmtTime(v.UpdatedAt), v.ID)
	return mapErr(err)
}

// DeleteView removes a view.
func (t *Tx) DeleteView(ctx context.Context, id string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM views WHERE id = ?`, id)
	return mapErr(err)
}
