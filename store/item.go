package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

// The helpers below serve tasks and documents alike; table is always one of
// the two constant names, never input.

// locate finds an item by id, or by ref within a workspace.
func (t *Tx) locate(ctx context.Context, table, workspaceID, idOrRef string) (app.ItemLocation, error) {
	var r struct {
		ID          string         `db:"id"`
		WorkspaceID string         `db:"workspace_id"`
		ProjectID   string         `db:"project_id"`
		Ref         int64          `db:"ref"`
		Title       string         `db:"title"`
		ParentID    string         `db:"parent_id"`
		DeletedAt   sql.NullString `db:"deleted_at"`
	}
	q := `SELECT id, workspace_id, project_id, ref, title, coalesce(parent_id, '') AS parent_id, deleted_at FROM ` + table + ` it WHERE `
	if table == "tasks" {
		q += notPending("it") + " AND "
	}
	var err error
	if isDigits(idOrRef) {
		err = t.tx.GetContext(ctx, &r, q+`workspace_id = ? AND ref = ?`, workspaceID, idOrRef)
	} else if workspaceID == "" {
		err = t.tx.GetContext(ctx, &r, q+`id = ?`, idOrRef)
	} else {
		err = t.tx.GetContext(ctx, &r, q+`id = ? AND workspace_id = ?`, idOrRef, workspaceID)
	}
	if err != nil {
		return app.ItemLocation{}, mapErr(err)
	}
	return app.ItemLocation{ID: r.ID, WorkspaceID: r.WorkspaceID, ProjectID: r.ProjectID, Ref: r.Ref, Title: r.Title, ParentID: r.ParentID, DeletedAt: parseTimePtr(r.DeletedAt)}, nil
}

// subtree lists an item's id and its descendants' ids.
func (t *Tx) subtree(ctx context.Context, table, id string) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, subtreeSQL(table), id)
	return ids, mapErr(err)
}

// refile files items in a project.
func (t *Tx) refile(ctx context.Context, table string, ids []string, projectID string, now time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE `+table+` SET project_id = ?, updated_at = ?, version = version + 1
		WHERE id IN (SELECT value FROM json_each(?))`, projectID, fmtTime(now), jsonText(ids))
	return mapErr(err)
}

// setDeleted moves the items among ids whose deleted_at is from (nil: live
// ones) to deleted_at = to, and returns the ids it changed.
func (t *Tx) setDeleted(ctx context.Context, table string, ids []string, from, to *time.Time, now time.Time) ([]string, error) {
	var changed []string
	err := t.tx.SelectContext(ctx, &changed, `UPDATE `+table+` SET deleted_at = ?, updated_at = ?, version = version + 1
		WHERE id IN (SELECT value FROM json_each(?)) AND deleted_at IS ? RETURNING id`,
		fmtTimePtr(to), fmtTime(now), jsonText(ids), fmtTimePtr(from))
	return changed, mapErr(err)
}

// setTags replaces an item's tags in its join table (task_tags or
// document_tags, keyed by column).
func (t *Tx) setTags(ctx context.Context, table, column, itemID string, tagIDs []string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+column+` = ?`, itemID); err != nil {
		return mapErr(err)
	}
	return t.addTags(ctx, table, column, itemID, tagIDs)
}

// addTags applies tags to an item, a row a statement: an item has a few
// tags, and a one-row insert neither binds and walks a JSON array nor, by
// writing more than one row, needs a statement journal, whose savepoint
// makes the full-text index write out what it holds for the transaction
// mid-way (FTS5 flushes at every savepoint).
func (t *Tx) addTags(ctx context.Context, table, column, itemID string, tagIDs []string) error {
	q := `INSERT OR IGNORE INTO ` + table + ` (` + column + `, tag_id) VALUES (?, ?)`
	for _, id := range tagIDs {
		if _, err := t.tx.ExecContext(ctx, q, itemID, id); err != nil {
			return mapErr(err)
		}
	}
	return nil
}
