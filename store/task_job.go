package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

// notPending is the one fragment every read of tasks adds to leave out
// the descendants a job on a subtree has still to change (migration 0020):
// the reader sees them once the worker has reached them. A task is such a
// descendant when a job's root is among its ancestors and it is still as
// the job finds it (live, for a trash; trashed at the job's instant, for a
// restore; outside the job's project, for a refile): the worker changes
// the deepest first, so no descendant of a task it has changed is left.
// With no job it costs one EXISTS on an empty table a statement; with one,
// a walk up each row's ancestors, by id.
func notPending(a string) string {
	return `NOT (EXISTS (SELECT 1 FROM task_jobs) AND EXISTS (` + tasksUp(a+".parent_id") + `
		SELECT 1 FROM up JOIN task_jobs j ON j.root_id = up.id WHERE CASE j.kind WHEN 'trash' THEN ` + a + `.deleted_at IS NULL
			WHEN 'restore' THEN ` + a + `.deleted_at IS j.deleted_at ELSE ` + a + `.project_id IS NOT j.project_id END))`
}

// anyTaskJob reports whether a job on a subtree is under way, for a read
// that an index alone answers while none is: notPending reads the row.
func (t *Tx) anyTaskJob(ctx context.Context) (bool, error) {
	var yes bool
	err := t.tx.GetContext(ctx, &yes, `SELECT EXISTS (SELECT 1 FROM task_jobs)`)
	return yes, mapErr(err)
}

// InsertTaskJob keeps a change to a subtree for the worker.
func (t *Tx) InsertTaskJob(ctx context.Context, j app.TaskJob) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO task_jobs (kind, root_id, deleted_at, project_id, event) VALUES (?, ?, ?, ?, ?)`,
		j.Kind, j.RootID, fmtTimePtr(j.DeletedAt), nullStr(j.ProjectID), j.Event)
	return mapErr(err)
}

// NextTaskJob reads the oldest job on a subtree; its Seq is 0 when there
// is none.
func (t *Tx) NextTaskJob(ctx context.Context) (app.TaskJob, error) {
	var r struct {
		Seq       int64          `db:"seq"`
		Kind      string         `db:"kind"`
		RootID    string         `db:"root_id"`
		DeletedAt sql.NullString `db:"deleted_at"`
		ProjectID sql.NullString `db:"project_id"`
		Event     string         `db:"event"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT seq, kind, root_id, deleted_at, project_id, event FROM task_jobs ORDER BY seq LIMIT 1`)
	if err == sql.ErrNoRows {
		return app.TaskJob{}, nil
	}
	if err != nil {
		return app.TaskJob{}, mapErr(err)
	}
	return app.TaskJob{Seq: r.Seq, Kind: r.Kind, RootID: r.RootID, DeletedAt: parseTimePtr(r.DeletedAt),
		ProjectID: r.ProjectID.String, Event: r.Event}, nil
}

// TaskJobPending lists the descendants a job has still to change,
// deepest first, then oldest first.
func (t *Tx) TaskJobPending(ctx context.Context, seq int64) ([]string, error) {
	var ids []string
	err := t.tx.SelectContext(ctx, &ids, `SELECT id FROM tasks_pending WHERE job = ? ORDER BY depth DESC, seq`, seq)
	return ids, mapErr(err)
}

// CountPending counts the descendants of a task that a change of the kind
// would change (see task_jobs): what a job on it would leave to the worker.
func (t *Tx) CountPending(ctx context.Context, kind, rootID string, deletedAt *time.Time, projectID string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, countPendingSQL, rootID, kind, fmtTimePtr(deletedAt), nullStr(projectID))
	return n, mapErr(err)
}

// countPendingSQL is tasks_pending's walk (migration 0024) for a job not
// yet kept, counted.
const countPendingSQL = `WITH RECURSIVE sub (id) AS (SELECT ?1
	UNION ALL SELECT c.id FROM sub JOIN tasks c ON c.parent_id = sub.id
	WHERE c.id <> ?1 AND CASE ?2 WHEN 'trash' THEN c.deleted_at IS NULL
		WHEN 'restore' THEN c.deleted_at IS ?3 ELSE c.project_id IS NOT ?4 END)
	SELECT count(*) - 1 FROM sub`

// TaskJobNear reports whether a job on a subtree is under way on the task,
// on one of its ancestors or on one of its descendants.
func (t *Tx) TaskJobNear(ctx context.Context, id string) (bool, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT EXISTS (SELECT 1 FROM task_jobs j WHERE EXISTS (`+tasksUp("?1")+`SELECT 1 FROM up WHERE up.id = j.root_id)
		OR EXISTS (`+tasksUp("j.root_id")+`SELECT 1 FROM up WHERE up.id = ?1))`, id)
	return n == 1, mapErr(err)
}

// StepTaskJob changes the tasks among ids that the job has still to change
// and answers those it changed.
func (t *Tx) StepTaskJob(ctx context.Context, j app.TaskJob, ids []string, now time.Time) ([]string, error) {
	switch j.Kind {
	case app.JobTrash:
		return t.SetTasksDeleted(ctx, ids, nil, j.DeletedAt, now)
	case app.JobRestore:
		return t.SetTasksDeleted(ctx, ids, j.DeletedAt, nil, now)
	}
	var changed []string
	err := t.tx.SelectContext(ctx, &changed, `UPDATE tasks SET project_id = ?, updated_at = ?, version = version + 1
		WHERE id IN (SELECT value FROM json_each(?)) AND project_id IS NOT ? RETURNING id`,
		j.ProjectID, fmtTime(now), jsonText(ids), j.ProjectID)
	return changed, mapErr(err)
}

// EndTaskJob removes a job whose descendants are all changed.
func (t *Tx) EndTaskJob(ctx context.Context, seq int64) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM task_jobs WHERE seq = ?`, seq)
	return mapErr(err)
}
