package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

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
	changes, err := changesText(e.Changes)
	if err != nil {
		return err
	}
	res, err := t.tx.ExecContext(ctx, insertEventSQL,
		e.ID, nullStr(e.WorkspaceID), e.EntityType, e.EntityID, e.Action, nullStr(e.ActorUserID), nullStr(e.ActorTokenID),
		nullStr(e.ActorInterface), nullStr(e.SubjectType), nullStr(e.SubjectID), changes, e.ItemRef, nullStr(e.ItemTitle),
		fmtTime(e.CreatedAt), nullStr(e.ProjectID))
	if err != nil {
		return mapErr(err)
	}
	e.Seq, err = res.LastInsertId()
	return err
}

// insertEventSQL stores one event, its project worked out by eventProject.
var insertEventSQL = `INSERT INTO events (` + eventColumns + `)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ` + eventProject("?15", "?4", "?10") + `)`

const eventColumns = `id, workspace_id, entity_type, entity_id, action, actor_user_id, actor_token_id, actor_interface,
	subject_type, subject_id, changes, item_ref, item_title, created_at, project_id`

// eventProject is the SQL for an event's project: the one given, else the
// entity's, else the subject's.
func eventProject(given, entity, subject string) string {
	of := func(id string) string {
		return `(SELECT project_id FROM tasks WHERE id = ` + id + `), (SELECT project_id FROM documents WHERE id = ` + id + `),
			(SELECT id FROM projects WHERE id = ` + id + `)`
	}
	return `COALESCE(` + given + `, ` + of(entity) + `, ` + of(subject) + `)`
}

// InsertEvents appends events in one statement, in the order given, as
// InsertEvent would one by one; their Seq is not read back.
func (t *Tx) InsertEvents(ctx context.Context, es []app.Event) error {
	rows := make([][15]any, len(es))
	for i, e := range es {
		changes, err := changesText(e.Changes)
		if err != nil {
			return err
		}
		rows[i] = [15]any{e.ID, nullStr(e.WorkspaceID), e.EntityType, e.EntityID, e.Action, nullStr(e.ActorUserID),
			nullStr(e.ActorTokenID), nullStr(e.ActorInterface), nullStr(e.SubjectType), nullStr(e.SubjectID), changes, e.ItemRef,
			nullStr(e.ItemTitle), fmtTime(e.CreatedAt), nullStr(e.ProjectID)}
	}
	f := func(i int) string { return "j.value ->> " + strconv.Itoa(i) }
	cols := make([]string, 14)
	for i := range cols {
		cols[i] = f(i)
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO events (`+eventColumns+`)
		SELECT `+strings.Join(cols, ", ")+`, `+eventProject(f(14), f(3), f(9))+` FROM json_each(?) j ORDER BY j.key`, jsonText(rows))
	return mapErr(err)
}

// changesText is an event's changes as stored: JSON, or NULL for none.
func changesText(changes map[string]any) (any, error) {
	if changes == nil {
		return nil, nil
	}
	b, err := json.Marshal(changes)
	return string(b), err
}
