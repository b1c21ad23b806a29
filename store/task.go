package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

// taskTable is the tasks table, column by column, in the order an export
// carries them (dumpTables); a column whose text or number an import maps
// says so (exportedAs).
var taskTable = newItemTable("tasks", []column[app.Task]{
	col("seq", readOnly, integer64(func(t *app.Task) *int64 { return &t.Seq })).exportedAs(dSeq),
	col("id", created, text(func(t *app.Task) *string { return &t.ID })).exportedAs(dID),
	col("workspace_id", created, text(func(t *app.Task) *string { return &t.WorkspaceID })).exportedAs(dID),
	col("ref", created, integer64(func(t *app.Task) *int64 { return &t.Ref })),
	col("project_id", written, text(func(t *app.Task) *string { return &t.ProjectID })).exportedAs(dID),
	col("parent_id", written, nullText(func(t *app.Task) *string { return &t.ParentID })).exportedAs(dID),
	col("title", written, text(func(t *app.Task) *string { return &t.Title })),
	col("description", written, nullText(func(t *app.Task) *string { return &t.Description })),
	col("type_id", written, text(func(t *app.Task) *string { return &t.TypeID })).exportedAs(dID),
	col("status_id", written, text(func(t *app.Task) *string { return &t.StatusID })).exportedAs(dID),
	col("importance", written, optInt(func(t *app.Task) **int { return &t.Importance })),
	col("urgency", written, optInt(func(t *app.Task) **int { return &t.Urgency })),
	col("due_at", written, optStamp(func(t *app.Task) **time.Time { return &t.DueAt })),
	col("due_is_all_day", written, flag(func(t *app.Task) *bool { return &t.DueIsAllDay })),
	col("starts_at", written, optStamp(func(t *app.Task) **time.Time { return &t.StartsAt })),
	col("starts_is_all_day", written, flag(func(t *app.Task) *bool { return &t.StartsIsAllDay })),
	col("snoozed_until", written, optStamp(func(t *app.Task) **time.Time { return &t.SnoozedUntil })),
	col("snoozed_is_all_day", written, flag(func(t *app.Task) *bool { return &t.SnoozedIsAllDay })),
	col("estimate_minutes", written, optInt(func(t *app.Task) **int { return &t.EstimateMinutes })),
	col("assignee_id", written, nullText(func(t *app.Task) *string { return &t.AssigneeID })).exportedAs(dUser),
	col("claimed_by", written, nullText(func(t *app.Task) *string { return &t.ClaimedByID })).exportedAs(dUser),
	col("claimed_at", written, optStamp(func(t *app.Task) **time.Time { return &t.ClaimedAt })),
	col("claim_expires_at", written, optStamp(func(t *app.Task) **time.Time { return &t.ClaimExpiresAt })),
	col("repeat_rule", written, nullText(func(t *app.Task) *string { return &t.RepeatRule })),
	col("timezone", written, nullText(func(t *app.Task) *string { return &t.Timezone })),
	col("series_id", written, nullText(func(t *app.Task) *string { return &t.SeriesID })).exportedAs(dAbout),
	col("occurrence", written, nullZero(func(t *app.Task) *int { return &t.Occurrence })),
	col("series_values", written, nullText(func(t *app.Task) *string { return &t.SeriesValues })).exportedAs(dJSON),
	col("completed_at", written, optStamp(func(t *app.Task) **time.Time { return &t.CompletedAt })),
	col("created_by", created, nullText(func(t *app.Task) *string { return &t.CreatedBy })).exportedAs(dUser),
	col("updated_by", written, nullText(func(t *app.Task) *string { return &t.UpdatedBy })).exportedAs(dUser),
	col("created_at", created, stamp(func(t *app.Task) *time.Time { return &t.CreatedAt })),
	col("updated_at", written, stamp(func(t *app.Task) *time.Time { return &t.UpdatedAt })),
	col("content_updated_at", written, stamp(func(t *app.Task) *time.Time { return &t.ContentUpdatedAt })),
	col("deleted_at", written, optStamp(func(t *app.Task) **time.Time { return &t.DeletedAt })),
	col("version", written, integer(func(t *app.Task) *int { return &t.Version })),
	col("reminders", written, reminderList(func(t *app.Task) *[]app.Reminder { return &t.Reminders })).exportedAs(dJSON),
}, map[string]string{
	"links_in":  "kept by the triggers on links; only the listing's SQL reads it, to skip the blocks search",
	"links_out": "kept by the triggers on links; only the listing's SQL reads it, to skip the blocks search",
	"fact_rev":  "kept by triggers (migrations 0014, 0018; 0 until a task first changes); only the agenda's SQL reads it",
})

// taskComputed are the columns the listing query adds to the table's: the
// task's status, people and parent resolved, its tags, links and subtasks,
// and its relevance, computed for a reader who may read every project or
// not, over the rows of from. Without subCounts the subtask counts read 0
// (app.TaskQuery.SkipSubCounts).
func taskComputed(from taskSource, allReadable, subCounts bool) []column[app.Task] {
	counts := "0"
	if subCounts {
		// Live subtasks << 32 + open ones: one walk of the children, not two.
		counts = `(SELECT (count(*) << 32) + count(*) FILTER (WHERE c.completed_at IS NULL) FROM tasks c
		WHERE c.parent_id = t.id AND c.deleted_at IS NULL AND ` + notPending("c") + `)`
	}
	return []column[app.Task]{
		computed("status_key", "st.key", text(func(t *app.Task) *string { return &t.Status.Key })),
		computed("status_label", "st.label", text(func(t *app.Task) *string { return &t.Status.Label })),
		computed("status_category", "st.category", text(func(t *app.Task) *string { return &t.Status.Category })),
		computed("status_is_default", "st.is_default", flag(func(t *app.Task) *bool { return &t.Status.IsDefault })),
		computed("status_position", "st.position", integer(func(t *app.Task) *int { return &t.Status.Position })),
		computed("assignee", "au.username", text(func(t *app.Task) *string { return &t.Assignee })),
		computed("assignee_is_agent", "au.is_service_account", flag(func(t *app.Task) *bool { return &t.AssigneeIsAgent })),
		computed("assignee_answers_to", "aub.username", text(func(t *app.Task) *string { return &t.AssigneeAnswersTo })),
		computed("claimed_by_name", "cu.username", text(func(t *app.Task) *string { return &t.ClaimedBy })),
		computed("claimed_by_is_agent", "cu.is_service_account", flag(func(t *app.Task) *bool { return &t.ClaimedByIsAgent })),
		computed("claimed_by_answers_to", "cub.username", text(func(t *app.Task) *string { return &t.ClaimedByAnswersTo })),
		computed("parent_ref", "pt.ref", optInt64(func(t *app.Task) **int64 { return &t.ParentRef })),
		computed("relevance", from.relevance(), optNumber(func(t *app.Task) **float64 { return &t.Relevance })),
		// Sorted here rather than by the query, which would build a sorter
		// for every row.
		computed("tags", itemTagNames("task_tags", "task_id", "t.id", false),
			nameList(func(t *app.Task) *[]string { return &t.Tags }, app.SortTagNames)),
		computed("blocked", blockedSQL(allReadable), flag(func(t *app.Task) *bool { return &t.Blocked })),
		computed("blocking", blockingSQL(allReadable), flag(func(t *app.Task) *bool { return &t.Blocking })),
		computed("sub_counts", counts, field[app.Task]{dest: func(t *app.Task) sql.Scanner { return subCountsDest{t} }}),
	}
}

// taskScore is the priority score, which the outer query computes over the
// inner one's columns.
var taskScore = col("priority_score", readOnly, number(func(t *app.Task) *float64 { return &t.PriorityScore }))

// taskReader reads the listing query's rows: the table's columns, the
// computed ones, the score.
var taskReader = newRowReader(taskTable.cols, taskComputed(fromTasks, false, true), []column[app.Task]{taskScore})

type subCountsDest struct{ t *app.Task }

func (d subCountsDest) Scan(src any) error {
	n, _, err := scanInt(src)
	d.t.SubTasks, d.t.SubTasksOpen = int(n>>32), int(n&(1<<32-1))
	return err
}

// finishTask completes a task read for a reader whose clock reads now.
func finishTask(t *app.Task, now time.Time) {
	t.Status.ID, t.Status.EntityType = t.StatusID, "task"
	// An expired claim is simply not held: the reader sees nobody.
	if t.ClaimExpiresAt == nil || !t.ClaimExpiresAt.After(now) {
		t.ClaimedByID, t.ClaimedAt, t.ClaimExpiresAt = "", nil, nil
		t.ClaimedBy, t.ClaimedByIsAgent, t.ClaimedByAnswersTo = "", false, ""
	}
}

// NextRef takes the next ref of a workspace.
func (t *Tx) NextRef(ctx context.Context, workspaceID string) (int64, error) {
	var ref int64
	err := t.tx.GetContext(ctx, &ref, `UPDATE workspaces SET next_ref = next_ref + 1 WHERE id = ? RETURNING next_ref - 1`, workspaceID)
	return ref, mapErr(err)
}

// taskInsert stores a new task and returns its seq and its priority score,
// computed by the listing's own expression for the status category bound
// after the table's columns.
var taskInsert = taskTable.insert + " RETURNING seq, " + priorityOf("created_at", "0", "0", "?") + " AS priority_score"

// InsertTask stores a new task. It sets Seq, sets the times to what was
// stored (whole milliseconds, UTC, as a read would give them), and sets
// PriorityScore to the new task's score, computed by the listing's own
// expression for the category of k.Status: a new task has no links, so it
// blocks nothing and nothing blocks it, and it is scored at its creation.
func (t *Tx) InsertTask(ctx context.Context, k *app.Task) error {
	var score sql.NullFloat64
	var buf [maxArgs]any
	err := t.tx.QueryRowxContext(ctx, taskInsert, append(taskTable.args(buf[:0], k, taskTable.ins), k.Status.Category)...).
		Scan(&k.Seq, &score)
	if err != nil {
		return mapErr(err)
	}
	k.PriorityScore = score.Float64
	taskTable.settle(k)
	return nil
}

// OccurrenceExists reports whether a series has a task numbered occurrence.
func (t *Tx) OccurrenceExists(ctx context.Context, seriesID string, occurrence int) (bool, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM tasks WHERE series_id = ? AND occurrence = ?`, seriesID, occurrence)
	return n > 0, mapErr(err)
}

// UpdateTask stores every changeable field of a task.
func (t *Tx) UpdateTask(ctx context.Context, k *app.Task) error {
	return taskTable.execUpdate(ctx, t, k)
}

// SetTaskTags replaces a task's tags.
func (t *Tx) SetTaskTags(ctx context.Context, taskID string, tagIDs []string) error {
	return t.setTags(ctx, "task_tags", "task_id", taskID, tagIDs)
}

// AddTaskTags applies tags to a task that has none yet.
func (t *Tx) AddTaskTags(ctx context.Context, taskID string, tagIDs []string) error {
	return t.addTags(ctx, "task_tags", "task_id", taskID, tagIDs)
}

// TagNewTask applies to a task that has no tags yet the workspace's live
// tags with these names, compared case-insensitively, and returns them: the
// look-up and the applying in one statement (a create's tags were a read
// and then an insert per tag). A name no tag holds is left out.
func (t *Tx) TagNewTask(ctx context.Context, taskID, workspaceID string, names []string) ([]app.Tag, error) {
	rows, err := t.tx.QueryContext(ctx, `INSERT INTO task_tags (task_id, tag_id)
		SELECT ?1, id FROM tags WHERE workspace_id = ?2 AND name IN (SELECT value FROM json_each(?3)) AND deleted_at IS NULL
		RETURNING tag_id, (SELECT name FROM tags WHERE id = tag_id), (SELECT description FROM tags WHERE id = tag_id),
			(SELECT declared FROM tags WHERE id = tag_id)`,
		taskID, workspaceID, jsonText(names))
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	// Scanned by hand: sqlx's reflection was a fifth of the statement.
	out := make([]app.Tag, 0, len(names))
	for rows.Next() {
		r := tagRow{WorkspaceID: workspaceID}
		if err := rows.Scan(&r.ID, &r.Name, &r.Description, &r.Declared); err != nil {
			return nil, mapErr(err)
		}
		out = append(out, r.tag())
	}
	return out, mapErr(rows.Err())
}

// TaskLocator finds a task by id, or by ref within a workspace.
func (t *Tx) TaskLocator(ctx context.Context, workspaceID, idOrRef string) (app.TaskLocation, error) {
	return t.locate(ctx, "tasks", workspaceID, idOrRef)
}

func isDigits(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// TaskSubtree lists a task's id and its descendants' ids.
func (t *Tx) TaskSubtree(ctx context.Context, id string) ([]string, error) {
	return t.subtree(ctx, "tasks", id)
}

// MoveTasks refiles tasks into a project.
func (t *Tx) MoveTasks(ctx context.Context, ids []string, projectID string, now time.Time) error {
	return t.refile(ctx, "tasks", ids, projectID, now)
}

// InsertVerification stores a verification record.
func (t *Tx) InsertVerification(ctx context.Context, v *app.Verification) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO verifications (id, task_id, passed, summary, commit_sha, tree_hash,
		output_excerpt, ran_at, actor_user_id, actor_token_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.ID, v.TaskID, v.Passed, nullStr(v.Summary), nullStr(v.CommitSHA), nullStr(v.TreeHash), nullStr(v.OutputExcerpt),
		fmtTime(v.RanAt), nullStr(v.ActorUserID), nullStr(v.ActorTokenID))
	return mapErr(err)
}

// Verifications lists a task's verification records, newest first.
func (t *Tx) Verifications(ctx context.Context, taskID string) ([]app.Verification, error) {
	var rows []struct {
		ID            string         `db:"id"`
		TaskID        string         `db:"task_id"`
		Passed        bool           `db:"passed"`
		Summary       sql.NullString `db:"summary"`
		CommitSHA     sql.NullString `db:"commit_sha"`
		TreeHash      sql.NullString `db:"tree_hash"`
		OutputExcerpt sql.NullString `db:"output_excerpt"`
		RanAt         string         `db:"ran_at"`
		ActorUserID   sql.NullString `db:"actor_user_id"`
		ActorTokenID  sql.NullString `db:"actor_token_id"`
		Actor         sql.NullString `db:"actor"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT v.id, v.task_id, v.passed, v.summary, v.commit_sha, v.tree_hash, v.output_excerpt,
		v.ran_at, v.actor_user_id, v.actor_token_id, u.username AS actor FROM verifications v LEFT JOIN users u ON u.id = v.actor_user_id
		WHERE v.task_id = ? ORDER BY v.ran_at DESC, v.rowid DESC`, taskID)
	out := make([]app.Verification, len(rows))
	for i, r := range rows {
		out[i] = app.Verification{ID: r.ID, TaskID: r.TaskID, Passed: r.Passed, Summary: r.Summary.String, CommitSHA: r.CommitSHA.String,
			TreeHash: r.TreeHash.String, OutputExcerpt: r.OutputExcerpt.String, RanAt: parseTime(r.RanAt),
			ActorUserID: r.ActorUserID.String, ActorTokenID: r.ActorTokenID.String, Actor: r.Actor.String}
	}
	return out, mapErr(err)
}

// SetTasksDeleted moves the tasks among ids whose deleted_at is from (nil:
// live ones) to deleted_at = to, and returns the ids it changed.
// Those going to the trash have their pending reminders withdrawn.
func (t *Tx) SetTasksDeleted(ctx context.Context, ids []string, from, to *time.Time, now time.Time) ([]string, error) {
	changed, err := t.setDeleted(ctx, "tasks", ids, from, to, now)
	if err == nil && to != nil {
		err = t.withdrawReminders(ctx, changed)
	}
	return changed, err
}
