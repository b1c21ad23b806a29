package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"

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

// EntityEvents lists the events of an entity, and those that happened on
// something else with the entity as their subject (a comment on it), after
// afterSeq (oldest first) or before it (newest first; 0 means from the
// newest). Each half is an indexed range read on events_entity or
// events_subject, bounded by the limit, so the page costs two short index
// walks whatever the history's length.
func (t *Tx) EntityEvents(ctx context.Context, entityID string, afterSeq int64, oldest bool, limit int) ([]app.Event, error) {
	cols := `seq, id, workspace_id, entity_type, entity_id, action, actor_user_id, actor_token_id, actor_interface,
		subject_type, subject_id, changes, item_ref, item_title, created_at`
	cond, order := `seq < ?`, `seq DESC`
	switch {
	case oldest:
		cond, order = `seq > ?`, `seq`
	case afterSeq == 0:
		afterSeq = math.MaxInt64
	}
	half := func(by string) string {
		return `SELECT * FROM (SELECT ` + cols + ` FROM events WHERE ` + by + ` = ? AND ` + cond + ` ORDER BY ` + order + ` LIMIT ?)`
	}
	q := half("entity_id") + ` UNION ALL ` + half("subject_id") + ` ORDER BY ` + order + ` LIMIT ?`
	return selectRows(ctx, t, eventRow.event, q, entityID, afterSeq, limit, entityID, afterSeq, limit, limit)
}
