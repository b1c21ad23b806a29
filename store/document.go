package store

import (
	"context"
	"fmt"
	"time"

	"tend/app"
)

// documentTable is the documents table, column by column, in the schema's
// order, which is the order an export carries them (dumpTables); a column
// whose text or number an import maps says so (exportedAs).
var documentTable = newItemTable("documents", []column[app.Document]{
	col("seq", readOnly, integer64(func(d *app.Document) *int64 { return &d.Seq })).exportedAs(dSeq),
	col("id", created, text(func(d *app.Document) *string { return &d.ID })).exportedAs(dID),
	col("workspace_id", created, text(func(d *app.Document) *string { return &d.WorkspaceID })).exportedAs(dID),
	col("ref", created, integer64(func(d *app.Document) *int64 { return &d.Ref })),
	col("project_id", written, text(func(d *app.Document) *string { return &d.ProjectID })).exportedAs(dID),
	col("parent_id", written, nullText(func(d *app.Document) *string { return &d.ParentID })).exportedAs(dID),
	col("title", written, text(func(d *app.Document) *string { return &d.Title })),
	col("body", written, nullText(func(d *app.Document) *string { return &d.Body })),
	col("type_id", written, text(func(d *app.Document) *string { return &d.TypeID })).exportedAs(dID),
	col("status_id", written, text(func(d *app.Document) *string { return &d.StatusID })).exportedAs(dID),
	col("owner_id", written, nullText(func(d *app.Document) *string { return &d.OwnerID })).exportedAs(dUser),
	col("revisions", written, integer(func(d *app.Document) *int { return &d.RevisionCount })),
	col("revised_at", written, optStamp(func(d *app.Document) **time.Time { return &d.RevisedAt })),
	col("revised_by", written, nullText(func(d *app.Document) *string { return &d.RevisedBy })).exportedAs(dUser),
	col("archived_at", written, optStamp(func(d *app.Document) **time.Time { return &d.ArchivedAt })),
	col("created_by", created, nullText(func(d *app.Document) *string { return &d.CreatedBy })).exportedAs(dUser),
	col("updated_by", written, nullText(func(d *app.Document) *string { return &d.UpdatedBy })).exportedAs(dUser),
	col("created_at", created, stamp(func(d *app.Document) *time.Time { return &d.CreatedAt })),
	col("updated_at", written, stamp(func(d *app.Document) *time.Time { return &d.UpdatedAt })),
	col("content_updated_at", written, stamp(func(d *app.Document) *time.Time { return &d.ContentUpdatedAt })),
	col("deleted_at", written, optStamp(func(d *app.Document) **time.Time { return &d.DeletedAt })),
	col("version", written, integer(func(d *app.Document) *int { return &d.Version })),
}, nil)

// documentComputed are the columns the listing query adds to the table's:
// the document's type, status, parent and people resolved, its tags,
// subdocuments, size and relevance.
func documentComputed(relevance string) []column[app.Document] {
	return []column[app.Document]{
		computed("type_key", "it.key", text(func(d *app.Document) *string { return &d.Type.Key })),
		computed("type_label", "it.label", text(func(d *app.Document) *string { return &d.Type.Label })),
		computed("type_category", "it.category", text(func(d *app.Document) *string { return &d.Type.Category })),
		computed("type_is_default", "it.is_default", flag(func(d *app.Document) *bool { return &d.Type.IsDefault })),
		computed("type_position", "it.position", integer(func(d *app.Document) *int { return &d.Type.Position })),
		computed("status_key", "st.key", text(func(d *app.Document) *string { return &d.Status.Key })),
		computed("status_label", "st.label", text(func(d *app.Document) *string { return &d.Status.Label })),
		computed("status_category", "st.category", text(func(d *app.Document) *string { return &d.Status.Category })),
		computed("status_is_default", "st.is_default", flag(func(d *app.Document) *bool { return &d.Status.IsDefault })),
		computed("status_position", "st.position", integer(func(d *app.Document) *int { return &d.Status.Position })),
		computed("parent_ref", "pd.ref", optInt64(func(d *app.Document) **int64 { return &d.ParentRef })),
		computed("parent_title", "pd.title", text(func(d *app.Document) *string { return &d.ParentTitle })),
		computed("revised_by_name", "ru.username", text(func(d *app.Document) *string { return &d.RevisedByName })),
		computed("creator_name", "cu.username", text(func(d *app.Document) *string { return &d.CreatorName })),
		computed("tags", itemTagNames("document_tags", "document_id", "d.id", true), nameList(func(d *app.Document) *[]string { return &d.Tags }, nil)),
		computed("sub_documents", "(SELECT count(*) FROM documents c WHERE c.parent_id = d.id AND c.deleted_at IS NULL)",
			integer(func(d *app.Document) *int { return &d.SubDocuments })),
		// Selected to sort by; the size itself is the body's length.
		computed("size_bytes", "length(CAST(coalesce(d.body, '') AS BLOB))", skipped[app.Document]()),
		computed("relevance", relevance, optNumber(func(d *app.Document) **float64 { return &d.Relevance })),
	}
}

// documentReader reads the listing query's rows.
var documentReader = newRowReader(documentTable.cols, documentComputed("NULL"))

// finishDocument completes a document read.
func finishDocument(d *app.Document) {
	d.Type.ID, d.Type.EntityType = d.TypeID, "document"
	d.Status.ID, d.Status.EntityType = d.StatusID, "document"
}

// InsertDocument stores a new document and sets its Seq.
func (t *Tx) InsertDocument(ctx context.Context, d *app.Document) error {
	res, err := documentTable.execInsert(ctx, t, d)
	if err != nil {
		return err
	}
	d.Seq, err = res.LastInsertId()
	return err
}

// UpdateDocument stores every changeable field of a document.
func (t *Tx) UpdateDocument(ctx context.Context, d *app.Document) error {
	return documentTable.execUpdate(ctx, t, d)
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

const documentJoins = ` JOIN item_types it ON it.id = d.type_id
	JOIN statuses st ON st.id = d.status_id
	LEFT JOIN documents pd ON pd.id = d.parent_id
	LEFT JOIN users ru ON ru.id = d.revised_by LEFT JOIN users cu ON cu.id = d.created_by`

// documentSQL builds the query for q in the shape of taskSQL: the reader's
// readable projects bound once as a CTE, filters on the inner query, order
// and keyset on the outer one, one statement per page. A text match slots
// in as one more source (documentMatch, read first, joined on frow = d.seq) with its
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
	// The text is matched across documents_fts and the chunks of large
	// bodies (documentMatch), not by filter's one index.
	f := q.ItemFilter
	f.Match, f.Exclude = "", ""
	b.filter(f, "d", "document_tags x WHERE x.document_id", "documents_fts", count)
	if q.Match != "" && count {
		b.add("d.seq IN (SELECT frow FROM (" + documentMatch(b, b.arg(q.Match), matchWords(q.ItemFilter)) + "))")
	}
	if q.Exclude != "" {
		b.add(documentExcluded(b, "d", q.Exclude))
	}
	b.tree("d", "documents", q.ParentID, q.Subtree)
	if count {
		return readableCTE + "SELECT count(*) FROM documents d JOIN statuses st ON st.id = d.status_id WHERE " + b.conds(), b.args
	}
	relevance, with, from := "NULL", readableCTE, " FROM documents d"
	if match {
		// The negated BM25 score, higher is better; a title hit weighs four
		// times a body hit (documentMatch). The matches are read once and
		// drive the join: SQLite would otherwise push the outer query into
		// each arm of documentMatch's UNION ALL, and the arm over large
		// bodies would then read every document of the workspace.
		relevance = "hits.fscore"
		with += ", hits (frow, fscore) AS MATERIALIZED (" + documentMatch(b, ":match", matchWords(q.ItemFilter)) + ") "
		from = " FROM hits CROSS JOIN documents d ON d.seq = hits.frow"
	}
	query := with + "SELECT * FROM (SELECT " + documentTable.selectList("d") + ", " + selectList("d", documentComputed(relevance)) +
		from + documentJoins +
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
	return documentReader.read(ctx, t, query, args, min(q.Limit, 1000), finishDocument)
}

// CountDocuments counts the documents q selects, ignoring order and paging.
func (t *Tx) CountDocuments(ctx context.Context, q app.DocumentQuery) (int, error) {
	query, args := documentSQL(q, true)
	var n int
	err := t.tx.GetContext(ctx, &n, query, args...)
	return n, mapErr(err)
}
