package store

import (
	"context"

	"tend/app"
)

type linkRow struct {
	ID           string `db:"id"`
	WorkspaceID  string `db:"workspace_id"`
	SourceType   string `db:"source_type"`
	SourceID     string `db:"source_id"`
	TargetType   string `db:"target_type"`
	TargetID     string `db:"target_id"`
	CreatedBy    string `db:"created_by"`
	CreatedAt    string `db:"created_at"`
	TypeID       string `db:"type_id"`
	Key          string `db:"key"`
	Title        string `db:"title"`
	InverseTitle string `db:"inverse_title"`
	IsSymmetric  bool   `db:"is_symmetric"`
	Category     string `db:"category"`
}

func (r linkRow) link() app.Link {
	return app.Link{ID: r.ID, WorkspaceID: r.WorkspaceID, SourceType: r.SourceType, SourceID: r.SourceID,
		TargetType: r.TargetType, TargetID: r.TargetID, CreatedBy: r.CreatedBy, CreatedAt: parseTime(r.CreatedAt),
		Type: app.LinkType{ID: r.TypeID, WorkspaceID: r.WorkspaceID, Key: r.Key, Title: r.Title, InverseTitle: r.InverseTitle,
			IsSymmetric: r.IsSymmetric, Category: r.Category}}
}

const linkSelect = `SELECT l.id, l.workspace_id, l.source_type, l.source_id, l.target_type, l.target_id,
	coalesce(l.created_by, '') AS created_by, l.created_at, lt.id AS type_id, lt.key, lt.title, lt.inverse_title,
	lt.is_symmetric, lt.category FROM links l JOIN link_types lt ON lt.id = l.link_type_id`

func (t *Tx) selectLinks(ctx context.Context, q string, args ...any) ([]app.Link, error) {
	return selectRows(ctx, t, linkRow.link, q, args...)
}

// InsertLink stores a link.
func (t *Tx) InsertLink(ctx context.Context, l *app.Link) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO links (id, workspace_id, link_type_id, source_type, source_id, target_type,
		target_id, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, l.ID, l.WorkspaceID, l.Type.ID, l.SourceType,
		l.SourceID, l.TargetType, l.TargetID, nullStr(l.CreatedBy), fmtTime(l.CreatedAt))
	return mapErr(err)
}

// InsertLinks stores links in one statement, in the order given (see
// app.linkTx).
func (t *Tx) InsertLinks(ctx context.Context, ls []app.Link) error {
	rows := make([][9]any, len(ls))
	for i, l := range ls {
		rows[i] = [9]any{l.ID, l.WorkspaceID, l.Type.ID, l.SourceType, l.SourceID, l.TargetType, l.TargetID,
			nullStr(l.CreatedBy), fmtTime(l.CreatedAt)}
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO links (id, workspace_id, link_type_id, source_type, source_id, target_type,
		target_id, created_by, created_at)
		SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8
		FROM json_each(?) j ORDER BY j.key`, jsonText(rows))
	return mapErr(err)
}

// LinkByID reads one link.
func (t *Tx) LinkByID(ctx context.Context, id string) (app.Link, error) {
	ls, err := t.selectLinks(ctx, linkSelect+` WHERE l.id = ?`, id)
	if err != nil {
		return app.Link{}, err
	}
	if len(ls) == 0 {
		return app.Link{}, app.NotFound("link")
	}
	return ls[0], nil
}

// DeleteLink removes a link.
func (t *Tx) DeleteLink(ctx context.Context, id string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM links WHERE id = ?`, id)
	return mapErr(err)
}

// LinksOf lists every link touching an item, oldest first.
func (t *Tx) LinksOf(ctx context.Context, itemID string) ([]app.Link, error) {
	return t.selectLinks(ctx, `SELECT * FROM (`+linkSelect+` WHERE l.source_id = ? UNION ALL `+linkSelect+`
		WHERE l.target_id = ? AND l.source_id <> ?) ORDER BY created_at, id`, itemID, itemID, itemID)
}

// LinksAmong lists the links whose both ends are among ids.
func (t *Tx) LinksAmong(ctx context.Context, ids []string) ([]app.Link, error) {
	set := jsonText(ids)
	return t.selectLinks(ctx, linkSelect+` WHERE l.source_id IN (SELECT value FROM json_each(?))
		AND l.target_id IN (SELECT value FROM json_each(?))`, set, set)
}
