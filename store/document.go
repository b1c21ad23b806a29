package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"tend/app"
)

type documentRow struct {
	Seq              int64           `db:"seq"`
	ID               string          `db:"id"`
	WorkspaceID      string          `db:"workspace_id"`
	Ref              int64           `db:"ref"`
	ProjectID        string          `db:"project_id"`
	ParentID         sql.NullString  `db:"parent_id"`
	Title            string          `db:"title"`
	Body             sql.NullString  `db:"body"`
	TypeID           string          `db:"type_id"`
	StatusID         string          `db:"status_id"`
	OwnerID          sql.NullString  `db:"owner_id"`
	Revisions        int             `db:"revisions"`
	RevisedAt        sql.NullString  `db:"revised_at"`
	RevisedBy        sql.NullString  `db:"revised_by"`
	ArchivedAt       sql.NullString  `db:"archived_at"`
	CreatedBy        sql.NullString  `db:"created_by"`
	UpdatedBy        sql.NullString  `db:"updated_by"`
	CreatedAt        string          `db:"created_at"`
	UpdatedAt        string          `db:"updated_at"`
	ContentUpdatedAt string          `db:"content_updated_at"`
	DeletedAt        sql.NullString  `db:"deleted_at"`
	Version          int             `db:"version"`
	TypeKey          string          `db:"type_key"`
	TypeLabel        string          `db:"type_label"`
	TypeCategory     string          `db:"type_category"`
	TypeIsDefault    bool            `db:"type_is_default"`
	TypePosition     int             `db:"type_position"`
	StatusKey        string          `db:"status_key"`
	StatusLabel      string          `db:"status_label"`
	StatusCategory   string          `db:"status_category"`
	StatusIsDefault  bool            `db:"status_is_default"`
	StatusPosition   int             `db:"status_position"`
	ParentRef        sql.NullInt64   `db:"parent_ref"`
	ParentTitle      sql.NullString  `db:"parent_title"`
	RevisedByName    sql.NullString  `db:"revised_by_name"`
	CreatorName      sql.NullString  `db:"creator_name"`
	Tags             sql.NullString  `db:"tags"`
	SubDocuments     int             `db:"sub_documents"`
	SizeBytes        int64           `db:"size_bytes"`
	Relevance        sql.NullFloat64 `db:"relevance"`
}

func (r documentRow) document() app.Document {
	d := app.Document{Seq: r.Seq, ID: r.ID, WorkspaceID: r.WorkspaceID, Ref: r.Ref, ProjectID: r.ProjectID, ParentID: r.ParentID.String,
		Title: r.Title, Body: r.Body.String, TypeID: r.TypeID, StatusID: r.StatusID, OwnerID: r.OwnerID.String,
		RevisionCount: r.Revisions, RevisedAt: parseTimePtr(r.RevisedAt), RevisedBy: r.RevisedBy.String,
		ArchivedAt: parseTimePtr(r.ArchivedAt), CreatedBy: r.CreatedBy.String, UpdatedBy: r.UpdatedBy.String,
		CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt), ContentUpdatedAt: parseTime(r.ContentUpdatedAt),
		DeletedAt: parseTimePtr(r.DeletedAt), Version: r.Version, Tags: []string{},
		Type: app.ItemType{ID: r.TypeID, Key: r.TypeKey, Label: r.TypeLabel, Category: r.TypeCategory, IsDefault: r.TypeIsDefault,
			Position: r.TypePosition, EntityType: "document"},
		Status: app.Status{ID: r.StatusID, Key: r.StatusKey, Label: r.StatusLabel, Category: r.StatusCategory,
			IsDefault: r.StatusIsDefault, Position: r.StatusPosition, EntityType: "document"},
		ParentTitle: r.ParentTitle.String, SubDocuments: r.SubDocuments, RevisedByName: r.RevisedByName.String,
		CreatorName: r.CreatorName.String}
	if r.ParentRef.Valid {
		d.ParentRef = &r.ParentRef.Int64
	}
	if r.Tags.Valid && r.Tags.String != "" {
		d.Tags = strings.Split(r.Tags.String, "\x1f")
	}
	if r.Relevance.Valid {
		d.Relevance = &r.Relevance.Float64
	}
	return d
}

func documentArgs(d *app.Document) []any {
	return []any{d.ProjectID, nullStr(d.ParentID), d.Title, nullStr(d.Body), d.TypeID, d.StatusID, nullStr(d.OwnerID), d.RevisionCount,
		fmtTimePtr(d.RevisedAt), nullStr(d.RevisedBy), fmtTimePtr(d.ArchivedAt), nullStr(d.UpdatedBy), fmtTime(d.UpdatedAt),
		fmtTime(d.ContentUpdatedAt), fmtTimePtr(d.DeletedAt), d.Version}
}

// InsertDocument stores a new document and sets its Seq.
func (t *Tx) InsertDocument(ctx context.Context, d *app.Document) error {
	args := append([]any{d.ID, d.WorkspaceID, d.Ref, nullStr(d.CreatedBy), fmtTime(d.CreatedAt)}, documentArgs(d)...)
	res, err := t.tx.ExecContext(ctx, `INSERT INTO documents (id, workspace_id, ref, created_by, created_at, project_id, parent_id,
		title, body, type_id, status_id, owner_id, revisions, revised_at, revised_by, archived_at, updated_by, updated_at,
		content_updated_at, deleted_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, args...)
	if err != nil {
		return mapErr(err)
	}
	d.Seq, err = res.LastInsertId()
	return err
}

// UpdateDocument stores every changeable field of a document.
func (t *Tx) UpdateDocument(ctx context.Context, d *app.Document) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE documents SET project_id = ?, parent_id = ?, title = ?, body = ?, type_id = ?,
		status_id = ?, owner_id = ?, revisions = ?, revised_at = ?, revised_by = ?, archived_at = ?, updated_by = ?, updated_at = ?,
		content_updated_at = ?, deleted_at = ?, version = ? WHERE id = ?`, append(documentArgs(d), d.ID)...)
	return mapErr(err)
}

// SetDocumentTags replaces a document's tags.
func (t *Tx) SetDocumentTags(ctx context.Context, documentID string, tagIDs []string) error {
	return t.setTags(ctx, "document_tags", "document_id", documentID, tagIDs)
}

// DocumentLocator finds a document by id, or by ref within a workspace.
func (t *Tx) DocumentLocator(ctx context.Context, workspaceID, idOrRef string) (app.ItemLocation, error) {
	return t.locate(ctx, "documents", workspaceID, idOrRef)
}

// DocumentSubtree lists a document's id and its descendants' ids.
func (t *Tx) DocumentSubtree(ctx context.Context, id string) ([]string, error) {
	return t.subtree(ctx, "documents", id)
}

// MoveDocuments refiles documents into a project.
func (t *Tx) MoveDocuments(ctx context.Context, ids []string, projectID string, now time.Time) error {
	return t.refile(ctx, "documents", ids, projectID, now)
}

// SetDocumentsDeleted moves the documents among ids whose deleted_at is from
// (nil: live ones) to deleted_at = to, and returns the ids it changed.
func (t *Tx) SetDocumentsDeleted(ctx context.Context, ids []string, from, to *time.Time, now time.Time) ([]string, error) {
	return t.setDeleted(ctx, "documents", ids, from, to, now)
}

const documentInner = `SELECT d.seq, d.id, d.workspace_id, d.ref, d.project_id, d.parent_id, d.title, d.body, d.type_id, d.status_id,
	d.owner_id, d.revisions, d.revised_at, d.revised_by, d.archived_at, d.created_by, d.updated_by, d.created_at, d.updated_at,
	d.content_updated_at, d.deleted_at, d.version, it.key AS type_key, it.label AS type_label, it.category AS type_category,
	it.is_default AS type_is_default, it.position AS type_position, st.key AS status_key, st.label AS status_label,
	st.category AS status_category, st.is_default AS status_is_default, st.position AS status_position,
	pd.ref AS parent_ref, pd.title AS parent_title, ru.username AS revised_by_name, cu.username AS creator_name,
	(SELECT group_concat(name, char(31)) FROM (SELECT g.name FROM document_tags dt JOIN tags g ON g.id = dt.tag_id
		WHERE dt.document_id = d.id ORDER BY lower(g.name))) AS tags,
	(SELECT count(*) FROM documents c WHERE c.parent_id = d.id AND c.deleted_at IS NULL) AS sub_documents,
	length(CAST(coalesce(d.body, '') AS BLOB)) AS size_bytes`

const documentJoins = ` JOIN item_types it ON it.id = d.type_id
	JOIN statuses st ON st.id = d.status_id
	LEFT JOIN documents pd ON pd.id = d.parent_id
	LEFT JOIN users ru ON ru.id = d.revised_by LEFT JOIN users cu ON cu.id = d.created_by`

// documentSQL builds the query for q in the shape of taskSQL: the reader's
// readable projects bound once as a CTE, filters on the inner query, order
// and keyset on the outer one, one statement per page. A text match slots
// in as one more source (documents_fts joined on rowid = d.seq) with its
// score as the relevance column and sort key.
func documentSQL(q app.DocumentQuery, count bool) (string, []any) {
	match := q.Match != "" && !count
	ranked := ""
	if match {
		ranked = q.Match
	}
	b := newItemQuery(q.Readable, ranked)
	if q.IDs != nil || q.Ref != 0 {
		// Reading one: the id or ref must drive, not the workspace index.
		b.add("+d.workspace_id = " + b.arg(q.WorkspaceID))
	} else {
		b.add("d.workspace_id = " + b.arg(q.WorkspaceID))
	}
	b.add("d.project_id IN readable")
	switch {
	case q.AnyState != nil && *q.AnyState:
	case q.Deleted != nil && *q.Deleted:
		b.add("d.deleted_at IS NOT NULL")
	default:
		b.add("d.deleted_at IS NULL")
	}
	if q.IDs != nil {
		b.add("d.id IN (SELECT value FROM json_each(" + b.arg(jsonText(q.IDs)) + "))")
	}
	if q.Ref != 0 {
		b.add("d.ref = " + b.arg(q.Ref))
	}
	b.filter(q.ItemFilter, "d", "document_tags x WHERE x.document_id", "documents_fts", count)
	b.tree("d", "documents", q.ParentID, q.Subtree)
	if count {
		return readableCTE + "SELECT count(*) FROM documents d JOIN statuses st ON st.id = d.status_id WHERE " + b.conds(), b.args
	}
	relevance, hits := "NULL", ""
	if match {
		// The negated BM25 score, higher is better; a title hit weighs four
		// times a body hit.
		relevance = "hits.fscore"
		hits = ` JOIN (SELECT rowid AS frow, -bm25(documents_fts, 4.0, 1.0) AS fscore FROM documents_fts
			WHERE documents_fts MATCH :match) hits ON hits.frow = d.seq`
	}
	query := readableCTE + "SELECT * FROM (" + documentInner + ", " + relevance + " AS relevance FROM documents d" + hits + documentJoins +
		" WHERE " + b.conds() + ") page"
	if keyset := b.after(q.Order, q.After, documentSortExprs, "seq"); keyset != "" {
		query += " WHERE " + keyset
	}
	query += " ORDER BY " + orderBy(q.Order, documentSortExprs, "seq")
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return query, b.args
}

// Documents reads the documents q selects.
func (t *Tx) Documents(ctx context.Context, q app.DocumentQuery) ([]app.Document, error) {
	query, args := documentSQL(q, false)
	var rows []documentRow
	if err := t.tx.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.Document, len(rows))
	for i, r := range rows {
		out[i] = r.document()
	}
	return out, nil
}

// CountDocuments counts the documents q selects, ignoring order and paging.
func (t *Tx) CountDocuments(ctx context.Context, q app.DocumentQuery) (int, error) {
	query, args := documentSQL(q, true)
	var n int
	err := t.tx.GetContext(ctx, &n, query, args...)
	return n, mapErr(err)
}
