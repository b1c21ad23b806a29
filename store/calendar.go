package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"time"

	"tend/app"
)

type calendarRow struct {
	ID             string         `db:"id"`
	Prefix         string         `db:"prefix"`
	Hash           []byte         `db:"hash"`
	SecretRev      int            `db:"secret_rev"`
	Title          string         `db:"title"`
	UserID         string         `db:"user_id"`
	Username       string         `db:"username"`
	CreatedByToken sql.NullString `db:"created_by_token"`
	WorkspaceID    string         `db:"workspace_id"`
	Audience       string         `db:"audience"`
	ProjectID      sql.NullString `db:"project_id"`
	ProjectKey     sql.NullString `db:"project_key"`
	ItemTypeIDs    sql.NullString `db:"item_type_ids"`
	ItemTypes      sql.NullString `db:"item_types"`
	ExpiresAt      sql.NullString `db:"expires_at"`
	LastPolledAt   sql.NullString `db:"last_polled_at"`
	RevokedAt      sql.NullString `db:"revoked_at"`
	ETag           string         `db:"etag"`
	ChangedAt      sql.NullString `db:"changed_at"`
	CreatedAt      string         `db:"created_at"`
}

func (r calendarRow) calendar() app.Calendar {
	types := jsonList(r.ItemTypes)
	sort.Strings(types)
	return app.Calendar{ID: r.ID, Prefix: r.Prefix, Hash: r.Hash, SecretRev: r.SecretRev, Title: r.Title, UserID: r.UserID,
		Username: r.Username, CreatedByToken: r.CreatedByToken.String, WorkspaceID: r.WorkspaceID, Audience: r.Audience,
		ProjectID: r.ProjectID.String, ProjectKey: r.ProjectKey.String, ItemTypeIDs: jsonList(r.ItemTypeIDs), ItemTypes: types,
		ExpiresAt: parseTimePtr(r.ExpiresAt), LastPolledAt: parseTimePtr(r.LastPolledAt), RevokedAt: parseTimePtr(r.RevokedAt),
		ETag: r.ETag, ChangedAt: parseTimePtr(r.ChangedAt), CreatedAt: parseTime(r.CreatedAt)}
}

// calendarColumns reads a feed with its owner's name, its project's key and
// its item types' keys (looked up only when the feed is narrowed to some).
const calendarColumns = `c.id, c.prefix, c.hash, c.secret_rev, c.title, c.user_id, u.username, c.created_by_token, c.workspace_id,
	c.audience, c.project_id, p.key AS project_key, c.item_type_ids,
	CASE WHEN c.item_type_ids IS NULL THEN NULL ELSE (SELECT json_group_array(it.key) FROM json_each(c.item_type_ids) j
		JOIN item_types it ON it.id = j.value) END AS item_types,
	c.expires_at, c.last_polled_at, c.revoked_at, c.etag, c.changed_at, c.created_at`

const calendarFrom = ` FROM calendars c JOIN users u ON u.id = c.user_id LEFT JOIN projects p ON p.id = c.project_id`

func (t *Tx) getCalendar(ctx context.Context, where string, arg any) (app.Calendar, error) {
	return getRow(ctx, t, calendarRow.calendar, "SELECT "+calendarColumns+calendarFrom+" WHERE "+where, arg)
}

// CalendarByID reads a feed by id.
func (t *Tx) CalendarByID(ctx context.Context, id string) (app.Calendar, error) {
	return t.getCalendar(ctx, "c.id = ?", id)
}

// CalendarByPrefix reads a feed by its public prefix.
func (t *Tx) CalendarByPrefix(ctx context.Context, prefix string) (app.Calendar, error) {
	return t.getCalendar(ctx, "c.prefix = ?", prefix)
}

// InsertCalendar stores a feed; only its hash, never its secret.
func (t *Tx) InsertCalendar(ctx context.Context, c *app.Calendar) error {
	var types any
	if c.ItemTypeIDs != nil {
		types = encodeList(c.ItemTypeIDs)
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO calendars (id, prefix, hash, secret_rev, title, user_id, created_by_token, workspace_id,
		audience, project_id, item_type_ids, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Prefix, c.Hash, c.SecretRev, c.Title, c.UserID, nullStr(c.CreatedByToken), c.WorkspaceID, c.Audience,
		nullStr(c.ProjectID), types, fmtTimePtr(c.ExpiresAt), fmtTime(c.CreatedAt))
	return mapErr(err)
}

// CalendarChecks lists feeds with their owners (see CalendarCheck), newest
// first.
func (t *Tx) CalendarChecks(ctx context.Context, f app.CalendarFilter) ([]app.CalendarCheck, error) {
	where, args := "1", []any{}
	switch {
	case f.All:
	case f.UserID != "":
		where, args = "c.user_id = ?", append(args, f.UserID)
	default:
		where, args = "c.created_by_token = ?", append(args, f.TokenID)
	}
	return t.calendarChecks(ctx, where+" ORDER BY c.seq DESC", args...)
}

// RevokeCalendar sets revoked_at unless it is set already, so the first
// revocation time is kept.
func (t *Tx) RevokeCalendar(ctx context.Context, id string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE calendars SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, fmtTime(at), id)
	return mapErr(err)
}

// ResetCalendar replaces a feed's secret hash and moves its secret revision.
func (t *Tx) ResetCalendar(ctx context.Context, id string, hash []byte) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE calendars SET hash = ?, secret_rev = secret_rev + 1 WHERE id = ?`, hash, id)
	return mapErr(err)
}

// TouchCalendar records a fetch; changed_at moves only with the ETag.
func (t *Tx) TouchCalendar(ctx context.Context, id string, at time.Time, etag string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE calendars SET last_polled_at = :at,
		changed_at = CASE WHEN etag = :etag AND changed_at IS NOT NULL THEN changed_at ELSE :at END, etag = :etag WHERE id = :id`,
		sql.Named("at", fmtTime(at)), sql.Named("etag", etag), sql.Named("id", id))
	return mapErr(err)
}

type calendarCheckRow struct {
	calendarRow
	USeq             int64          `db:"u_seq"`
	Timezone         string         `db:"timezone"`
	IsServiceAccount bool           `db:"is_service_account"`
	IsSuperuser      bool           `db:"is_superuser"`
	AnswersTo        sql.NullString `db:"answers_to"`
	Active           bool           `db:"active"`
	ChainActive      sql.NullBool   `db:"chain_active"`
}

// CalendarCheck reads a feed and its owner with whether the owner and
// everyone the owner answers to are active, in one statement.
func (t *Tx) CalendarCheck(ctx context.Context, prefix string) (app.CalendarCheck, error) {
	chks, err := t.calendarChecks(ctx, "c.prefix = ?", prefix)
	if err == nil && len(chks) == 0 {
		err = app.NotFound("calendar")
	}
	if err != nil {
		return app.CalendarCheck{}, err
	}
	return chks[0], nil
}

func (t *Tx) calendarChecks(ctx context.Context, where string, args ...any) ([]app.CalendarCheck, error) {
	var rows []calendarCheckRow
	err := t.tx.SelectContext(ctx, &rows, `SELECT `+calendarColumns+`, u.seq AS u_seq, u.timezone, u.is_service_account, u.is_superuser,
		u.answers_to, u.active,
		`+chainActive("u")+` AS chain_active`+calendarFrom+` WHERE `+where, args...)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.CalendarCheck, len(rows))
	for i, r := range rows {
		owner := app.User{ID: r.UserID, Seq: r.USeq, Username: r.Username, Timezone: r.Timezone, IsServiceAccount: r.IsServiceAccount,
			IsSuperuser: r.IsSuperuser, AnswersToID: r.AnswersTo.String, Active: r.Active}
		out[i] = app.CalendarCheck{Calendar: r.calendar(), Owner: owner, ChainActive: r.ChainActive.Valid && r.ChainActive.Bool}
	}
	return out, nil
}

// calendarWhere is the condition set a feed's tasks share whatever their
// date: live, unfinished or finished recently, readable by the owner and
// inside the feed's narrowing. The window of dates is CalendarTasks's.
func calendarWhere(q app.CalendarQuery) *itemQuery {
	b := newItemQuery(q.Readable, "")
	b.add("t.workspace_id = " + b.arg(q.WorkspaceID))
	b.add("t.deleted_at IS NULL AND " + notPending("t"))
	b.add("(t.completed_at IS NULL OR t.completed_at >= " + b.arg(fmtTime(q.DoneSince)) + ")")
	if !q.AllReadable {
		b.add("t.project_id IN readable")
	}
	b.filter(app.ItemFilter{ProjectIDs: q.ProjectIDs, TypeIDs: q.TypeIDs}, "t", "task_tags x WHERE x.task_id", "tasks_fts", true)
	if q.UserID != "" {
		u := b.arg(q.UserID)
		b.add("(t.assignee_id = " + u + " OR (t.claimed_by = " + u + " AND t.claim_expires_at > " + b.arg(fmtTime(q.Now)) + "))")
	}
	return b
}

// CalendarStamp reads the workspace's newest event (events_workspace)
// and, for a feed of one account's work, its unexpired claims
// (tasks_claimed): index lookups, whatever the number of tasks.
func (t *Tx) CalendarStamp(ctx context.Context, q app.CalendarQuery) (app.CalendarStamp, error) {
	var st app.CalendarStamp
	err := t.tx.QueryRowxContext(ctx, `SELECT coalesce(max(seq), 0) FROM events WHERE workspace_id = ?`, q.WorkspaceID).Scan(&st.LastEvent)
	if err != nil || q.UserID == "" {
		return st, mapErr(err)
	}
	err = t.tx.QueryRowxContext(ctx, `SELECT count(*), coalesce(min(claim_expires_at), '') FROM tasks
		WHERE claimed_by = ? AND claim_expires_at > ?`, q.UserID, fmtTime(q.Now)).Scan(&st.Claims, &st.NextExpiry)
	return st, mapErr(err)
}

// calendarColumnsOf are the columns of a feed's task, given the part's
// date (d: with seq, what the parts are merged by), whether d is the due
// date, and the start unless d is.
var calendarColumnsOf = `t.seq, t.id, t.ref, t.project_id, t.status_id, t.title, coalesce(t.description, ''), %s AS d, %s,
		t.due_is_all_day, %s, t.starts_is_all_day, coalesce(t.repeat_rule, ''), coalesce(t.timezone, ''), t.updated_at, t.version,
		coalesce(t.reminders, ''), ` + itemTagNames("task_tags", "task_id", "t.id", false)

// CalendarTasks reads a feed's tasks, earliest first. A task's date is its
// due date, else its start, so the window is read in two parts that
// SQLite merges in date order: the tasks due in it, through tasks_due
// (workspace_id, due_at), which yields them in (due_at, seq) order and
// never visits an undated task; and the undated ones that start in it
// (no index has starts_at: the workspace's tasks are read, as the single
// condition did before). Neither part is sorted whole. Columns are
// scanned directly and statuses named from one read of the workspace's
// few, which halves the time of a 2,000-task feed against a join and
// sqlx's reflection (BENCHMARKS.md).
func (t *Tx) CalendarTasks(ctx context.Context, q app.CalendarQuery) ([]app.FeedTask, error) {
	statuses, err := t.calendarStatuses(ctx, q.WorkspaceID)
	if err != nil {
		return nil, err
	}
	b := calendarWhere(q)
	from, until := b.arg(fmtTime(q.From)), b.arg(fmtTime(q.Until))
	conds := b.conds()
	rows, err := t.tx.QueryContext(ctx, readableCTE+
		`SELECT `+fmt.Sprintf(calendarColumnsOf, "t.due_at", "1", "t.starts_at")+` FROM tasks t INDEXED BY tasks_due
		WHERE `+conds+` AND t.due_at >= `+from+` AND t.due_at < `+until+`
		UNION ALL SELECT `+fmt.Sprintf(calendarColumnsOf, "t.starts_at", "0", "NULL")+` FROM tasks t
		WHERE `+conds+` AND t.due_at IS NULL AND t.starts_at >= `+from+` AND t.starts_at < `+until+`
		ORDER BY d, seq LIMIT `+b.arg(q.Limit), b.args...)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	// Growing the slice by doubling copied each record about twice.
	out := make([]app.FeedTask, 0, min(q.Limit, 4096))
	for rows.Next() {
		var ts app.FeedTask
		var seq int64 // orders the merge only
		var statusID, updated, reminders string
		var d, starts, tags sql.NullString
		var due bool
		if err := rows.Scan(&seq, &ts.ID, &ts.Ref, &ts.ProjectID, &statusID, &ts.Title, &ts.Description, &d, &due, &ts.DueIsAllDay,
			&starts, &ts.StartsIsAllDay, &ts.RepeatRule, &ts.Timezone, &updated, &ts.Version, &reminders, &tags); err != nil {
			return nil, mapErr(err)
		}
		ts.Status = statuses[statusID]
		if !due {
			starts, d = d, sql.NullString{}
		}
		ts.DueAt, ts.StartsAt, ts.UpdatedAt = parseTimePtr(d), parseTimePtr(starts), parseTime(updated)
		if tags.Valid {
			ts.Tags = strings.Split(tags.String, "\x1f")
		}
		ts.Reminders = mustReminders(reminders)
		out = append(out, ts)
	}
	return out, mapErr(rows.Err())
}

func (t *Tx) calendarStatuses(ctx context.Context, workspaceID string) (map[string]app.Status, error) {
	var rows []struct {
		ID       string `db:"id"`
		Key      string `db:"key"`
		Label    string `db:"label"`
		Category string `db:"category"`
	}
	if err := t.tx.SelectContext(ctx, &rows, `SELECT id, key, label, category FROM statuses WHERE workspace_id = ? AND entity_type = 'task'`,
		workspaceID); err != nil {
		return nil, mapErr(err)
	}
	out := make(map[string]app.Status, len(rows))
	for _, r := range rows {
		out[r.ID] = app.Status{VocabEntry: app.VocabEntry{ID: r.ID, Key: r.Key, Label: r.Label, Category: r.Category}}
	}
	return out, nil
}
