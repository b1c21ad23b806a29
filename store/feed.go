package store

import (
	"context"
	"database/sql"
	"strings"

	"tend/app"
)

// eventKindsJSON lists the entity types that belong to a project; an event
// of any other type with no project is a workspace-level event.
var eventKindsJSON = jsonText(app.EventKinds)

// feedWhere builds the condition shared by a page and its count. The first
// six parameters are numbered because the link check reuses the readable
// projects; the rest are appended in order, so plain ? after them take the
// following numbers.
func feedWhere(f app.EventFilter, bounds bool) (string, []any) {
	var b strings.Builder
	b.WriteString(`e.workspace_id = ?1 AND (
		(e.project_id IS NULL AND ?2 = 1 AND e.entity_type NOT IN (SELECT value FROM json_each(?3)))
		OR (e.entity_type = 'project' AND e.project_id IN (SELECT value FROM json_each(?4)))
		OR (e.entity_type = 'tag' AND e.project_id IN (SELECT value FROM json_each(?6)))
		OR (e.entity_type IN (SELECT value FROM json_each(?5)) AND e.project_id IN (SELECT value FROM json_each(?6))
			AND (e.subject_type IS NOT 'link'
				OR EXISTS (SELECT 1 FROM tasks t WHERE t.workspace_id = e.workspace_id AND t.ref = json_extract(e.changes, '$.other')
					AND t.project_id IN (SELECT value FROM json_each(?6)))
				OR EXISTS (SELECT 1 FROM documents d WHERE d.workspace_id = e.workspace_id AND d.ref = json_extract(e.changes, '$.other')
					AND d.project_id IN (SELECT value FROM json_each(?6))))))`)
	args := []any{f.WorkspaceID, f.WorkspaceLevel, eventKindsJSON, f.ProjectIDs, f.ItemKinds, f.ItemProjectIDs}
	cond := func(sql string, v any) {
		b.WriteString(" AND " + sql)
		args = append(args, v)
	}
	switch {
	case f.ActorTokenID != "":
		cond("e.actor_token_id = ?", f.ActorTokenID)
	case f.ActorUserID != "":
		cond("e.actor_user_id = ?", f.ActorUserID)
		if f.ActorNoToken {
			b.WriteString(" AND e.actor_token_id IS NULL")
		}
	}
	for _, r := range []struct {
		op string
		t  any
	}{{">", fmtTimePtr(f.CreatedAt.GT)}, {">=", fmtTimePtr(f.CreatedAt.GTE)}, {"<", fmtTimePtr(f.CreatedAt.LT)}, {"<=", fmtTimePtr(f.CreatedAt.LTE)}} {
		if r.t != nil {
			cond("e.created_at "+r.op+" ?", r.t)
		}
	}
	if f.Actions != "" {
		cond("e.action IN (SELECT value FROM json_each(?))", f.Actions)
	}
	if f.InProjects != "" {
		cond("e.project_id IN (SELECT value FROM json_each(?))", f.InProjects)
	}
	if f.AfterSeq > 0 {
		cond("e.seq > ?", f.AfterSeq)
	}
	if bounds && f.BeforeSeq > 0 {
		cond("e.seq < ?", f.BeforeSeq)
	}
	return b.String(), args
}

// FeedEvents reads one page of a workspace's events under f, in seq order
// (descending when f says so), in one statement.
func (t *Tx) FeedEvents(ctx context.Context, f app.EventFilter) ([]app.EventEntry, error) {
	where, args := feedWhere(f, true)
	q := `SELECT e.seq, e.id, e.workspace_id, e.entity_type, e.entity_id, e.action, e.actor_user_id, e.actor_token_id,
		e.actor_interface, e.subject_type, e.subject_id, e.changes, e.item_ref, e.item_title, e.created_at`
	if f.Named {
		q += `, u.username AS actor_name, c.body AS said FROM events e
		LEFT JOIN users u ON u.id = e.actor_user_id
		LEFT JOIN comments c ON e.entity_type = 'comment' AND c.id = e.entity_id AND c.deleted_at IS NULL`
	} else {
		q += `, NULL AS actor_name, NULL AS said FROM events e`
	}
	q += " WHERE " + where + " ORDER BY e.seq"
	if f.Descending {
		q += " DESC"
	}
	q += " LIMIT ?"
	args = append(args, f.Limit)
	var rows []struct {
		eventRow
		ActorName sql.NullString `db:"actor_name"`
		Said      sql.NullString `db:"said"`
	}
	if err := t.tx.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.EventEntry, len(rows))
	for i, r := range rows {
		out[i] = app.EventEntry{Event: r.event(), Actor: r.ActorName.String}
		if r.Said.Valid {
			s := r.Said.String
			out[i].Said = &s
		}
	}
	return out, nil
}

// CountFeedEvents counts the events f admits from its AfterSeq on.
func (t *Tx) CountFeedEvents(ctx context.Context, f app.EventFilter) (int, error) {
	where, args := feedWhere(f, false)
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM events e WHERE `+where, args...)
	return n, mapErr(err)
}
