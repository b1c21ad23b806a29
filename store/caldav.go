package store

import (
	"context"
	"encoding/json"

	"tend/app"
)

// davRecordRow is a row of dav_objects.
type davRecordRow struct {
	TaskID      string  `db:"task_id"`
	WorkspaceID string  `db:"workspace_id"`
	Name        string  `db:"name"`
	UID         string  `db:"uid"`
	ParentUID   *string `db:"parent_uid"`
	Extra       string  `db:"extra"`
	Rev         int     `db:"rev"`
}

func (r davRecordRow) record() app.DavRecord {
	out := app.DavRecord{TaskID: r.TaskID, WorkspaceID: r.WorkspaceID, Name: r.Name, UID: r.UID, Extra: r.Extra, Rev: r.Rev}
	if r.ParentUID != nil {
		out.ParentUID = *r.ParentUID
	}
	return out
}

// DavRecords reads the CalDAV records of these tasks, by task id.
func (t *Tx) DavRecords(ctx context.Context, taskIDs []string) (map[string]app.DavRecord, error) {
	out := make(map[string]app.DavRecord, len(taskIDs))
	if len(taskIDs) == 0 {
		return out, nil
	}
	ids, err := json.Marshal(taskIDs)
	if err != nil {
		return nil, err
	}
	var rows []davRecordRow
	if err := t.tx.SelectContext(ctx, &rows, `SELECT task_id, workspace_id, name, uid, parent_uid, extra, rev FROM dav_objects
		WHERE task_id IN (SELECT value FROM json_each(?))`, string(ids)); err != nil {
		return nil, mapErr(err)
	}
	for _, r := range rows {
		out[r.TaskID] = r.record()
	}
	return out, nil
}

// DavRecordBy finds the CalDAV record of a live task of a project by name,
// or by uid when name is "". Two tasks refiled into one project may hold
// the same name or UID: the one created first (the lower tasks.seq) is the
// one found, so a read answers the same every time.
func (t *Tx) DavRecordBy(ctx context.Context, workspaceID, projectID, name, uid string) (app.DavRecord, error) {
	var r davRecordRow
	q, arg := `d.name = ?`, name
	if name == "" {
		q, arg = `d.uid = ?`, uid
	}
	err := t.tx.GetContext(ctx, &r, `SELECT d.task_id, d.workspace_id, d.name, d.uid, d.parent_uid, d.extra, d.rev
		FROM dav_objects d JOIN tasks t ON t.id = d.task_id
		WHERE d.workspace_id = ? AND `+q+` AND t.project_id = ? AND t.deleted_at IS NULL ORDER BY t.seq LIMIT 1`,
		workspaceID, arg, projectID)
	if err != nil {
		return app.DavRecord{}, mapErr(err)
	}
	return r.record(), nil
}

// PutDavRecord writes a task's CalDAV record, replacing the one it had.
func (t *Tx) PutDavRecord(ctx context.Context, r app.DavRecord) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO dav_objects (task_id, workspace_id, name, uid, parent_uid, extra, rev)
		VALUES (?, ?, ?, ?, NULLIF(?, ''), ?, ?) ON CONFLICT (task_id) DO UPDATE SET workspace_id = excluded.workspace_id,
		name = excluded.name, uid = excluded.uid, parent_uid = excluded.parent_uid, extra = excluded.extra, rev = excluded.rev`,
		r.TaskID, r.WorkspaceID, r.Name, r.UID, r.ParentUID, r.Extra, r.Rev)
	return mapErr(err)
}

// ProjectTags is the newest event's seq of each project, by id, or the
// newest move of a task out of it when that is newer; a project nothing
// happened in has none.
func (t *Tx) ProjectTags(ctx context.Context, projectIDs []string) (map[string]int64, error) {
	out := make(map[string]int64, len(projectIDs))
	ids, err := json.Marshal(projectIDs)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		ID  string `db:"id"`
		Seq int64  `db:"seq"`
	}
	// One lookup of events_project's and dav_departures' last entry per
	// project, not a grouping of every event in them.
	if err := t.tx.SelectContext(ctx, &rows, `SELECT p.value AS id,
		max(COALESCE((SELECT max(seq) FROM events WHERE project_id = p.value), 0),
			COALESCE((SELECT max(seq) FROM dav_departures WHERE project_id = p.value), 0)) AS seq
		FROM json_each(?) p`, string(ids)); err != nil {
		return nil, mapErr(err)
	}
	for _, r := range rows {
		out[r.ID] = r.Seq
	}
	return out, nil
}

// ProjectTasksSince lists the tasks events after seq since in a project
// were about, and those moved out of it since, each once with its newest
// seq there, in seq order, through events_project and dav_departures.
func (t *Tx) ProjectTasksSince(ctx context.Context, projectID string, since int64) ([]app.TaskSeq, error) {
	var out []app.TaskSeq
	err := t.tx.SelectContext(ctx, &out, `SELECT id, max(seq) AS seq FROM (
		SELECT entity_id AS id, seq FROM events WHERE project_id = ?1 AND seq > ?2 AND entity_type = 'task'
		UNION ALL SELECT task_id, seq FROM dav_departures WHERE project_id = ?1 AND seq > ?2)
		GROUP BY id ORDER BY seq, id`, projectID, since)
	return out, mapErr(err)
}

// DavChildren lists a workspace's CalDAV records that name uid as their
// parent's, through dav_objects_parent_uid.
func (t *Tx) DavChildren(ctx context.Context, workspaceID, uid string) ([]app.DavRecord, error) {
	var rows []davRecordRow
	if err := t.tx.SelectContext(ctx, &rows, `SELECT task_id, workspace_id, name, uid, parent_uid, extra, rev FROM dav_objects
		WHERE workspace_id = ? AND parent_uid = ?`, workspaceID, uid); err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.DavRecord, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.record())
	}
	return out, nil
}
