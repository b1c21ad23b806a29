package store

import "context"

// PurgeTasks removes tasks for good, with the rows that hang on them alone.
func (t *Tx) PurgeTasks(ctx context.Context, ids []string) error {
	return t.purge(ctx, "tasks", "task_tags", "task_id", ids,
		`DELETE FROM verifications WHERE task_id IN (SELECT value FROM json_each(?1))`)
}

// PurgeDocuments removes documents for good, with the rows that hang on
// them alone.
func (t *Tx) PurgeDocuments(ctx context.Context, ids []string) error {
	return t.purge(ctx, "documents", "document_tags", "document_id", ids)
}

// purge deletes the items ids of table and what refers to them: their
// tags (tagTable's column), the extra statements given, their comments
// with the mentions written in those, the links and mentions to or from
// them, and the ids their importers knew them by. Each statement takes
// the ids as one JSON array, so a subtree of any size costs the same few
// statements; the items go last, in one statement, so that the foreign
// keys of a parent and its children are checked together at its end. The
// full-text rows and the link counts of the other ends follow by trigger.
func (t *Tx) purge(ctx context.Context, table, tagTable, column string, ids []string, extra ...string) error {
	in := `IN (SELECT value FROM json_each(?1))`
	stmts := append([]string{`DELETE FROM ` + tagTable + ` WHERE ` + column + ` ` + in}, extra...)
	stmts = append(stmts,
		`DELETE FROM mentions WHERE source_id IN (SELECT id FROM comments WHERE entity_id `+in+`)`,
		`DELETE FROM external_ids WHERE entity_id IN (SELECT id FROM comments WHERE entity_id `+in+`)`,
		`DELETE FROM comments WHERE entity_id `+in,
		`DELETE FROM links WHERE source_id `+in+` OR target_id `+in,
		`DELETE FROM mentions WHERE source_id `+in+` OR target_id `+in,
		`DELETE FROM external_ids WHERE entity_id `+in,
		`DELETE FROM `+table+` WHERE id `+in)
	arg := jsonText(ids)
	for _, q := range stmts {
		if _, err := t.tx.ExecContext(ctx, q, arg); err != nil {
			return mapErr(err)
		}
	}
	return nil
}
