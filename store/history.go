package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"tend/app"
)

type eventRow struct {
	Seq            int64          `db:"seq"`
	ID             string         `db:"id"`
	WorkspaceID    sql.NullString `db:"workspace_id"`
	EntityType     string         `db:"entity_type"`
	EntityID       string         `db:"entity_id"`
	Action         string         `db:"action"`
	ActorUserID    sql.NullString `db:"actor_user_id"`
	ActorTokenID   sql.NullString `db:"actor_token_id"`
	ActorInterface sql.NullString `db:"actor_interface"`
	SubjectType    sql.NullString `db:"subject_type"`
	SubjectID      sql.NullString `db:"subject_id"`
	Changes        sql.NullString `db:"changes"`
	ItemRef        sql.NullInt64  `db:"item_ref"`
	ItemTitle      sql.NullString `db:"item_title"`
	CreatedAt      string         `db:"created_at"`
}

func (r eventRow) event() app.Event {
	e := app.Event{Seq: r.Seq, ID: r.ID, WorkspaceID: r.WorkspaceID.String, EntityType: r.EntityType, EntityID: r.EntityID,
		Action: r.Action, ActorUserID: r.ActorUserID.String, ActorTokenID: r.ActorTokenID.String,
		ActorInterface: r.ActorInterface.String, SubjectType: r.SubjectType.String, SubjectID: r.SubjectID.String,
		ItemTitle: r.ItemTitle.String, CreatedAt: parseTime(r.CreatedAt)}
	if r.ItemRef.Valid {
		e.ItemRef = &r.ItemRef.Int64
	}
	if r.Changes.Valid {
		_ = json.Unmarshal([]byte(r.Changes.String), &e.Changes)
	}
	return e
}

// EntityEvents lists an entity's events after afterSeq (oldest first) or
// before it (newest first; 0 means from the newest).
func (t *Tx) EntityEvents(ctx context.Context, entityID string, afterSeq int64, oldest bool, limit int) ([]app.Event, error) {
	q := `SELECT seq, id, workspace_id, entity_type, entity_id, action, actor_user_id, actor_token_id, actor_interface,
		subject_type, subject_id, changes, item_ref, item_title, created_at FROM events WHERE entity_id = ?`
	args := []any{entityID}
	switch {
	case oldest:
		q += ` AND seq > ? ORDER BY seq LIMIT ?`
		args = append(args, afterSeq, limit)
	case afterSeq > 0:
		q += ` AND seq < ? ORDER BY seq DESC LIMIT ?`
		args = append(args, afterSeq, limit)
	default:
		q += ` ORDER BY seq DESC LIMIT ?`
		args = append(args, limit)
	}
	var rows []eventRow
	if err := t.tx.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.Event, len(rows))
	for i, r := range rows {
		out[i] = r.event()
	}
	return out, nil
}
