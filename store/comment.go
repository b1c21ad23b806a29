package store

import (
	"context"
	"database/sql"

	"tend/app"
)

type commentRow struct {
	Seq         int64          `db:"seq"`
	ID          string         `db:"id"`
	WorkspaceID string         `db:"workspace_id"`
	EntityType  string         `db:"entity_type"`
	EntityID    string         `db:"entity_id"`
	AuthorID    sql.NullString `db:"author_id"`
	Author      sql.NullString `db:"author"`
	Body        string         `db:"body"`
	CreatedAt   string         `db:"created_at"`
	UpdatedAt   string         `db:"updated_at"`
	DeletedAt   sql.NullString `db:"deleted_at"`
	Version     int            `db:"version"`
}

func (r commentRow) comment() app.Comment {
	return app.Comment{Seq: r.Seq, ID: r.ID, WorkspaceID: r.WorkspaceID, EntityType: r.EntityType, EntityID: r.EntityID,
		AuthorID: r.AuthorID.String, Author: r.Author.String, Body: r.Body, CreatedAt: parseTime(r.CreatedAt),
		UpdatedAt: parseTime(r.UpdatedAt), DeletedAt: parseTimePtr(r.DeletedAt), Version: r.Version}
}

const commentSelect = `SELECT c.seq, c.id, c.workspace_id, c.entity_type, c.entity_id, c.author_id, u.username AS author, c.body,
	c.created_at, c.updated_at, c.deleted_at, c.version FROM comments c LEFT JOIN users u ON u.id = c.author_id`

// InsertComment stores a new comment and sets its Seq.
func (t *Tx) InsertComment(ctx context.Context, c *app.Comment) error {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO comments (id, workspace_id, entity_type, entity_id, author_id, body, created_at,
		updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.WorkspaceID, c.EntityType, c.EntityID, nullStr(c.AuthorID),
		c.Body, fmtTime(c.CreatedAt), fmtTime(c.UpdatedAt), c.Version)
	if err != nil {
		return mapErr(err)
	}
	c.Seq, err = res.LastInsertId()
	return err
}

// UpdateComment stores a comment's body, deletion, stamp and version.
func (t *Tx) UpdateComment(ctx context.Context, c *app.Comment) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE comments SET body = ?, updated_at = ?, deleted_at = ?, version = ? WHERE id = ?`,
		c.Body, fmtTime(c.UpdatedAt), fmtTimePtr(c.DeletedAt), c.Version, c.ID)
	return mapErr(err)
}

// CommentByID reads one comment, withdrawn or not.
func (t *Tx) CommentByID(ctx context.Context, id string) (app.Comment, error) {
	return getRow(ctx, t, commentRow.comment, commentSelect+` WHERE c.id = ?`, id)
}

// Comments lists an item's live comments after a seq, oldest first.
func (t *Tx) Comments(ctx context.Context, entityID string, afterSeq int64, limit int) ([]app.Comment, error) {
	return selectRows(ctx, t, commentRow.comment, commentSelect+` WHERE c.entity_id = ? AND c.seq > ? AND c.deleted_at IS NULL
		ORDER BY c.seq LIMIT ?`, entityID, afterSeq, limit)
}

// CountComments counts an item's live comments.
func (t *Tx) CountComments(ctx context.Context, entityID string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM comments WHERE entity_id = ? AND deleted_at IS NULL`, entityID)
	return n, mapErr(err)
}
