package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"tend/app"
)

type taskRow struct {
	Seq                int64
	ID                 string
	WorkspaceID        string
	Ref                int64
	ProjectID          string
	ParentID           sql.NullString
	Title              string
	Description        sql.NullString
	TypeID             string
	StatusID           string
	Importance         sql.NullInt64
	Urgency            sql.NullInt64
	DueAt              sql.NullString
	DueIsAllDay        bool
	StartsAt           sql.NullString
	StartsIsAllDay     bool
	SnoozedUntil       sql.NullString
	SnoozedIsAllDay    bool
	EstimateMinutes    sql.NullInt64
	AssigneeID         sql.NullString
	ClaimedByID        sql.NullString
	ClaimedAt          sql.NullString
	ClaimExpiresAt     sql.NullString
	RepeatRule         sql.NullString
	Timezone           sql.NullString
	SeriesID           sql.NullString
	Occurrence         sql.NullInt64
	SeriesValues       sql.NullString
	CompletedAt        sql.NullString
	CreatedBy          sql.NullString
	UpdatedBy          sql.NullString
	CreatedAt          string
	UpdatedAt          string
	ContentUpdatedAt   string
	DeletedAt          sql.NullString
	Version            int
	StatusKey          string
	StatusLabel        string
	StatusCategory     string
	StatusIsDefault    bool
	StatusPosition     int
	Assignee           sql.NullString
	AssigneeIsAgent    sql.NullBool
	AssigneeAnswersTo  sql.NullString
	ClaimedBy          sql.NullString
	ClaimedByIsAgent   sql.NullBool
	ClaimedByAnswersTo sql.NullString
	ParentRef          sql.NullInt64
	Tags               sql.NullString
	Blocked            bool
	Blocking           bool
	SubCounts          int64 // live subtasks << 32 + open ones: one walk of the children, not two
	PriorityScore      sql.NullFloat64
	Relevance          sql.NullFloat64
}

// taskColumns are the listing query's columns in the order it selects
// them; scan checks them, so the hand-written destinations below cannot
// drift from the SQL unnoticed.
var taskColumns = []string{"seq", "id", "workspace_id", "ref", "project_id", "parent_id", "title", "description", "type_id",
	"status_id", "importance", "urgency", "due_at", "due_is_all_day", "starts_at", "starts_is_all_day", "snoozed_until",
	"snoozed_is_all_day", "estimate_minutes", "assignee_id", "claimed_by", "claimed_at", "claim_expires_at", "repeat_rule",
	"timezone", "series_id", "occurrence", "series_values", "completed_at", "created_by", "updated_by", "created_at", "updated_at", "content_updated_at", "deleted_at",
	"version", "status_key", "status_label", "status_category", "status_is_default", "status_position", "assignee",
	"assignee_is_agent", "assignee_answers_to", "claimed_by_name", "claimed_by_is_agent", "claimed_by_answers_to",
	"parent_ref", "relevance", "tags", "blocked", "blocking", "sub_counts", "priority_score"}

// dest answers where each of taskColumns goes. A page scans some fifty
// rows of fifty columns; sqlx matched columns to fields by reflection on
// every query.
func (r *taskRow) dest() []any {
	return []any{&r.Seq, &r.ID, &r.WorkspaceID, &r.Ref, &r.ProjectID, &r.ParentID, &r.Title, &r.Description, &r.TypeID,
		&r.StatusID, &r.Importance, &r.Urgency, &r.DueAt, &r.DueIsAllDay, &r.StartsAt, &r.StartsIsAllDay, &r.SnoozedUntil,
		&r.SnoozedIsAllDay, &r.EstimateMinutes, &r.AssigneeID, &r.ClaimedByID, &r.ClaimedAt, &r.ClaimExpiresAt, &r.RepeatRule,
		&r.Timezone, &r.SeriesID, &r.Occurrence, &r.SeriesValues, &r.CompletedAt, &r.CreatedBy, &r.UpdatedBy, &r.CreatedAt, &r.UpdatedAt, &r.ContentUpdatedAt, &r.DeletedAt,
		&r.Version, &r.StatusKey, &r.StatusLabel, &r.StatusCategory, &r.StatusIsDefault, &r.StatusPosition, &r.Assignee,
		&r.AssigneeIsAgent, &r.AssigneeAnswersTo, &r.ClaimedBy, &r.ClaimedByIsAgent, &r.ClaimedByAnswersTo,
		&r.ParentRef, &r.Relevance, &r.Tags, &r.Blocked, &r.Blocking, &r.SubCounts, &r.PriorityScore}
}

func intPtr(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

func (r taskRow) task(now time.Time) app.Task {
	t := app.Task{Seq: r.Seq, ID: r.ID, WorkspaceID: r.WorkspaceID, Ref: r.Ref, ProjectID: r.ProjectID, ParentID: r.ParentID.String,
		Title: r.Title, Description: r.Description.String, TypeID: r.TypeID, StatusID: r.StatusID,
		Importance: intPtr(r.Importance), Urgency: intPtr(r.Urgency), DueAt: parseTimePtr(r.DueAt), DueIsAllDay: r.DueIsAllDay,
		StartsAt: parseTimePtr(r.StartsAt), StartsIsAllDay: r.StartsIsAllDay, SnoozedUntil: parseTimePtr(r.SnoozedUntil),
		SnoozedIsAllDay: r.SnoozedIsAllDay, EstimateMinutes: intPtr(r.EstimateMinutes), AssigneeID: r.AssigneeID.String,
		ClaimedByID: r.ClaimedByID.String, ClaimedAt: parseTimePtr(r.ClaimedAt), ClaimExpiresAt: parseTimePtr(r.ClaimExpiresAt),
		RepeatRule: r.RepeatRule.String, Timezone: r.Timezone.String, SeriesID: r.SeriesID.String, Occurrence: int(r.Occurrence.Int64), SeriesValues: r.SeriesValues.String, CompletedAt: parseTimePtr(r.CompletedAt),
		CreatedBy: r.CreatedBy.String, UpdatedBy: r.UpdatedBy.String, CreatedAt: parseTime(r.CreatedAt),
		UpdatedAt: parseTime(r.UpdatedAt), ContentUpdatedAt: parseTime(r.ContentUpdatedAt), DeletedAt: parseTimePtr(r.DeletedAt),
		Version: r.Version, Tags: []string{},
		Status:   app.Status{ID: r.StatusID, Key: r.StatusKey, Label: r.StatusLabel, Category: r.StatusCategory, IsDefault: r.StatusIsDefault, Position: r.StatusPosition, EntityType: "task"},
		Assignee: r.Assignee.String, AssigneeIsAgent: r.AssigneeIsAgent.Bool, AssigneeAnswersTo: r.AssigneeAnswersTo.String,
		Blocked: r.Blocked, Blocking: r.Blocking, SubTasks: int(r.SubCounts >> 32), SubTasksOpen: int(r.SubCounts & (1<<32 - 1)),
		PriorityScore: r.PriorityScore.Float64}
	if r.Relevance.Valid {
		rel := r.Relevance.Float64
		t.Relevance = &rel
	}
	if r.ParentRef.Valid {
		t.ParentRef = &r.ParentRef.Int64
	}
	if r.Tags.Valid && r.Tags.String != "" {
		// Sorted here rather than by the query, which would build a sorter
		// for every row.
		t.Tags = strings.Split(r.Tags.String, "\x1f")
		app.SortTagNames(t.Tags)
	}
	// An expired claim is simply not held: the reader sees nobody.
	if t.ClaimExpiresAt != nil && t.ClaimExpiresAt.After(now) {
		t.ClaimedBy, t.ClaimedByIsAgent, t.ClaimedByAnswersTo = r.ClaimedBy.String, r.ClaimedByIsAgent.Bool, r.ClaimedByAnswersTo.String
	} else {
		t.ClaimedByID, t.ClaimedAt, t.ClaimExpiresAt = "", nil, nil
	}
	return t
}

// NextRef takes the next ref of a workspace.
func (t *Tx) NextRef(ctx context.Context, workspaceID string) (int64, error) {
	var ref int64
	err := t.tx.GetContext(ctx, &ref, `UPDATE workspaces SET next_ref = next_ref + 1 WHERE id = ? RETURNING next_ref - 1`, workspaceID)
	return ref, mapErr(err)
}

func taskArgs(k *app.Task) []any {
	return []any{k.ProjectID, nullStr(k.ParentID), k.Title, nullStr(k.Description), k.TypeID, k.StatusID, k.Importance, k.Urgency,
		fmtTimePtr(k.DueAt), k.DueIsAllDay, fmtTimePtr(k.StartsAt), k.StartsIsAllDay, fmtTimePtr(k.SnoozedUntil), k.SnoozedIsAllDay,
		k.EstimateMinutes, nullStr(k.AssigneeID), nullStr(k.ClaimedByID), fmtTimePtr(k.ClaimedAt), fmtTimePtr(k.ClaimExpiresAt),
		nullStr(k.RepeatRule), nullStr(k.Timezone), nullStr(k.SeriesID), nullInt(k.Occurrence), nullStr(k.SeriesValues), fmtTimePtr(k.CompletedAt), nullStr(k.UpdatedBy), fmtTime(k.UpdatedAt),
		fmtTime(k.ContentUpdatedAt), fmtTimePtr(k.DeletedAt), k.Version}
}

// InsertTask stores a new task. It sets Seq, sets the times to what was
// stored (whole milliseconds, UTC, as a read would give them), and sets
// PriorityScore to the new task's score, computed by the listing's own
// expression for the category of k.Status: a new task has no links, so it
// blocks nothing and nothing blocks it, and it is scored at its creation.
func (t *Tx) InsertTask(ctx context.Context, k *app.Task) error {
	args := append([]any{k.ID, k.WorkspaceID, k.Ref, nullStr(k.CreatedBy), fmtTime(k.CreatedAt)}, taskArgs(k)...)
	args = append(args, k.Status.Category)
	var score sql.NullFloat64
	err := t.tx.QueryRowxContext(ctx, `INSERT INTO tasks (id, workspace_id, ref, created_by, created_at, project_id, parent_id,
		title, description, type_id, status_id, importance, urgency, due_at, due_is_all_day, starts_at, starts_is_all_day,
		snoozed_until, snoozed_is_all_day, estimate_minutes, assignee_id, claimed_by, claimed_at, claim_expires_at, repeat_rule,
		timezone, series_id, occurrence, series_values, completed_at, updated_by, updated_at, content_updated_at, deleted_at, version)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		RETURNING seq, `+priorityOf("created_at", "0", "0", "?")+` AS priority_score`, args...).Scan(&k.Seq, &score)
	if err != nil {
		return mapErr(err)
	}
	k.PriorityScore = score.Float64
	for _, p := range []*time.Time{&k.CreatedAt, &k.UpdatedAt, &k.ContentUpdatedAt} {
		*p = parseTime(fmtTime(*p))
	}
	for _, p := range []**time.Time{&k.DueAt, &k.StartsAt, &k.SnoozedUntil, &k.ClaimedAt, &k.ClaimExpiresAt, &k.CompletedAt, &k.DeletedAt} {
		if *p != nil {
			v := parseTime(fmtTime(**p))
			*p = &v
		}
	}
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
	_, err := t.tx.ExecContext(ctx, `UPDATE tasks SET project_id = ?, parent_id = ?, title = ?, description = ?, type_id = ?,
		status_id = ?, importance = ?, urgency = ?, due_at = ?, due_is_all_day = ?, starts_at = ?, starts_is_all_day = ?,
		snoozed_until = ?, snoozed_is_all_day = ?, estimate_minutes = ?, assignee_id = ?, claimed_by = ?, claimed_at = ?,
		claim_expires_at = ?, repeat_rule = ?, timezone = ?, series_id = ?, occurrence = ?, series_values = ?, completed_at = ?, updated_by = ?, updated_at = ?,
		content_updated_at = ?, deleted_at = ?, version = ? WHERE id = ?`, append(taskArgs(k), k.ID)...)
	return mapErr(err)
}

// SetTaskTags replaces a task's tags.
func (t *Tx) SetTaskTags(ctx context.Context, taskID string, tagIDs []string) error {
	return t.setTags(ctx, "task_tags", "task_id", taskID, tagIDs)
}

// AddTaskTags applies tags to a task that has none yet.
func (t *Tx) AddTaskTags(ctx context.Context, taskID string, tagIDs []string) error {
	return t.addTags(ctx, "task_tags", "task_id", taskID, tagIDs)
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
func (t *Tx) SetTasksDeleted(ctx context.Context, ids []string, from, to *time.Time, now time.Time) ([]string, error) {
	return t.setDeleted(ctx, "tasks", ids, from, to, now)
}
