package store

import (
	"context"
	"encoding/json"

	"tend/app"
)

// InsertEvent appends an event and sets its Seq.
func (t *Tx) InsertEvent(ctx context.Context, e *app.Event) error {
	var changes any
	if e.Changes != nil {
		b, err := json.Marshal(e.Changes)
		if err != nil {
			return err
		}
		changes = string(b)
	}
	res, err := t.tx.ExecContext(ctx, `INSERT INTO events (id, workspace_id, entity_type, entity_id, action, actor_user_id,
		actor_token_id, actor_interface, subject_type, subject_id, changes, item_ref, item_title, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.ID, nullStr(e.WorkspaceID), e.EntityType, e.EntityID, e.Action, nullStr(e.ActorUserID), nullStr(e.ActorTokenID),
		nullStr(e.ActorInterface), nullStr(e.SubjectType), nullStr(e.SubjectID), changes, e.ItemRef, nullStr(e.ItemTitle),
		fmtTime(e.CreatedAt))
	if err != nil {
		return mapErr(err)
	}
	e.Seq, err = res.LastInsertId()
	return err
}
