package store

import (
	"context"
	"strings"

	"tend/app"
)

// Mentioning resolves each mention of an item to the live task or document
// holding it: the source itself, or the item a live comment is on.
func (t *Tx) Mentioning(ctx context.Context, targetID string) ([]app.Backlink, error) {
	var rows []struct {
		CreatedAt string `db:"created_at"`
		Kind      string `db:"kind"`
		ItemID    string `db:"item_id"`
		Ref       int64  `db:"ref"`
		Title     string `db:"title"`
		Via       string `db:"via"`
		ProjectID string `db:"project_id"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT created_at, kind, item_id, ref, title, via, project_id FROM (
		SELECT m.created_at, 'task' AS kind, x.id AS item_id, x.ref, x.title, '' AS via, x.project_id, m.source_id
			FROM mentions m JOIN tasks x ON x.id = m.source_id
			WHERE m.target_id = ?1 AND m.source_type = 'task' AND x.deleted_at IS NULL AND `+notPending("x")+`
		UNION ALL
		SELECT m.created_at, 'document', x.id, x.ref, x.title, '', x.project_id, m.source_id
			FROM mentions m JOIN documents x ON x.id = m.source_id
			WHERE m.target_id = ?1 AND m.source_type = 'document' AND x.deleted_at IS NULL
		UNION ALL
		SELECT m.created_at, 'task', x.id, x.ref, x.title, 'comment', x.project_id, m.source_id
			FROM mentions m JOIN comments c ON c.id = m.source_id JOIN tasks x ON x.id = c.entity_id
			WHERE m.target_id = ?1 AND m.source_type = 'comment' AND c.entity_type = 'task' AND c.deleted_at IS NULL
			AND x.deleted_at IS NULL AND `+notPending("x")+`
		UNION ALL
		SELECT m.created_at, 'document', x.id, x.ref, x.title, 'comment', x.project_id, m.source_id
			FROM mentions m JOIN comments c ON c.id = m.source_id JOIN documents x ON x.id = c.entity_id
			WHERE m.target_id = ?1 AND m.source_type = 'comment' AND c.entity_type = 'document' AND c.deleted_at IS NULL
			AND x.deleted_at IS NULL
		) ORDER BY created_at, source_id`, targetID)
	out := make([]app.Backlink, len(rows))
	for i, r := range rows {
		out[i] = app.Backlink{CreatedAt: parseTime(r.CreatedAt), Kind: r.Kind, ItemID: r.ItemID, Ref: r.Ref, Title: r.Title,
			Via: r.Via, ProjectID: r.ProjectID}
	}
	return out, mapErr(err)
}

// MentionedBy lists the live documents mentioned by an item's own text or
// by a live comment on it.
func (t *Tx) MentionedBy(ctx context.Context, itemID string) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, `SELECT DISTINCT d.id FROM mentions m JOIN documents d ON d.id = m.target_id
		WHERE d.deleted_at IS NULL AND (m.source_id = ?1
			OR m.source_id IN (SELECT id FROM comments WHERE entity_id = ?1 AND deleted_at IS NULL))
		ORDER BY d.ref`, itemID)
	return ids, mapErr(err)
}

// LinksFrom lists the links of one category leaving any of ids, in the
// order they were made.
func (t *Tx) LinksFrom(ctx context.Context, ids []string, category string) ([]app.Link, error) {
	return t.selectLinks(ctx, linkSelect+` WHERE l.source_id IN (SELECT value FROM json_each(?)) AND lt.category = ?
		ORDER BY l.created_at, l.id`, jsonText(ids), category)
}

// LinkedTo lists every item joined to id by a link of any kind.
func (t *Tx) LinkedTo(ctx context.Context, id string) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, `SELECT target_id FROM links WHERE source_id = ?1
		UNION SELECT source_id FROM links WHERE target_id = ?1`, id)
	return ids, mapErr(err)
}

// SharedTagDocuments lists the live documents that share a tag with an
// item (a task or another document), with the tag names they share.
func (t *Tx) SharedTagDocuments(ctx context.Context, itemID string) (map[string][]string, error) {
	var rows []struct {
		ID   string `db:"id"`
		Tags string `db:"tags"`
	}
	// The item's tags are read as the tags they count as (a merged tag as
	// the one it is merged into: tag_merge.go), and so are the documents'.
	err := t.tx.SelectContext(ctx, &rows, `SELECT id, group_concat(name, char(31)) AS tags FROM (
		SELECT DISTINCT dt.document_id AS id, c.name AS name
		FROM (SELECT DISTINCT ifnull(g.merged_into, g.id) AS tag_id FROM (SELECT tag_id FROM task_tags WHERE task_id = ?1
			UNION SELECT tag_id FROM document_tags WHERE document_id = ?1) a JOIN tags g ON g.id = a.tag_id) mine
		JOIN tags c ON c.id = mine.tag_id
		JOIN document_tags dt ON dt.tag_id IN `+tagOrMerged("mine.tag_id")+`
		JOIN documents d ON d.id = dt.document_id
		WHERE dt.document_id <> ?1 AND d.deleted_at IS NULL AND c.deleted_at IS NULL)
		GROUP BY id`, itemID)
	out := map[string][]string{}
	for _, r := range rows {
		out[r.ID] = strings.Split(r.Tags, "\x1f")
	}
	return out, mapErr(err)
}
