package store

import (
	"context"
	"encoding/json"
	"fmt"

	"tend/app"
)

// InsertEventsAlong records e once for each item in itemIDs (see app.eventTx).
func (t *Tx) InsertEventsAlong(ctx context.Context, e app.Event, itemIDs, eventIDs []string) error {
	table := map[string]string{"task": "tasks", "document": "documents"}[e.EntityType]
	if table == "" {
		return fmt.Errorf("events along %q items", e.EntityType)
	}
	changes, err := json.Marshal(e.Changes)
	if err != nil {
		return err
	}
	pairs := make([][2]string, len(itemIDs))
	for i, id := range itemIDs {
		pairs[i] = [2]string{eventIDs[i], id}
	}
	b, err := json.Marshal(pairs)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO events (id, workspace_id, entity_type, entity_id, action, actor_user_id,
		actor_token_id, actor_interface, changes, item_ref, item_title, created_at, project_id)
		SELECT j.value ->> 0, x.workspace_id, ?, x.id, ?, ?, ?, ?, ?, x.ref, x.title, ?, x.project_id
		FROM json_each(?) j JOIN `+table+` x ON x.id = j.value ->> 1 ORDER BY x.ref`,
		e.EntityType, e.Action, nullStr(e.ActorUserID), nullStr(e.ActorTokenID), nullStr(e.ActorInterface), string(changes),
		fmtTime(e.CreatedAt), string(b))
	return mapErr(err)
}

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
		actor_token_id, actor_interface, subject_type, subject_id, changes, item_ref, item_title, created_at, project_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?,
			(SELECT project_id FROM tasks WHERE id = ?4), (SELECT project_id FROM documents WHERE id = ?4),
			(SELECT id FROM projects WHERE id = ?4),
			(SELECT project_id FROM tasks WHERE id = ?10), (SELECT project_id FROM documents WHERE id = ?10),
			(SELECT id FROM projects WHERE id = ?10)))`,
		e.ID, nullStr(e.WorkspaceID), e.EntityType, e.EntityID, e.Action, nullStr(e.ActorUserID), nullStr(e.ActorTokenID),
		nullStr(e.ActorInterface), nullStr(e.SubjectType), nullStr(e.SubjectID), changes, e.ItemRef, nullStr(e.ItemTitle),
		fmtTime(e.CreatedAt), nullStr(e.ProjectID))
	if err != nil {
		return mapErr(err)
	}
	e.Seq, err = res.LastInsertId()
	return err
}
