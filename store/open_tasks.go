package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
	"time"

	"tend/app"
)

// openTasksCache keeps each workspace's open tasks as the agenda places
// them (app.OpenTasks), with the revisions they were read at. Unlike
// revCache it serves a newer revision too: it reads the tasks changed since
// its copy (tasks.fact_rev, migration 0014) and merges them into a new
// copy, so a write costs the next agenda the tasks it touched rather than
// every open task. A deleted task row (task_gen) or a change of vocabulary
// (vocab_rev: the links are found by the link type's key) reads it whole.
type openTasksCache struct {
	mu sync.Mutex
	m  map[string]openTasksEntry // workspace → copy
}

type openTasksEntry struct {
	rev, gen, vocab int64
	seq             int64 // the highest task seq in the snapshot the copy was read in
	open            *app.OpenTasks
}

// newer orders entries by when they were read: the three revisions only
// grow, so a later snapshot has the greater sum.
func (e openTasksEntry) newer(o openTasksEntry) bool {
	return e.rev+e.gen+e.vocab > o.rev+o.gen+o.vocab
}

func (c *openTasksCache) get(workspaceID string) (openTasksEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[workspaceID]
	return e, ok
}

// put keeps e unless a copy read in a later snapshot is kept already: an
// old snapshot finishing late must not replace it.
func (c *openTasksCache) put(workspaceID string, e openTasksEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[workspaceID]; ok && !e.newer(old) {
		return
	}
	if c.m == nil {
		c.m = map[string]openTasksEntry{}
	}
	c.m[workspaceID] = e
}

// OpenTasks reads every open, live task of a workspace as the agenda places
// it: from memory while nothing it was read from has changed, else the
// changed tasks merged into the copy in memory, else all of them. The
// revisions are read in the transaction's own snapshot, so what it answers
// is exactly that snapshot's; the copy is kept only once the transaction
// has committed (see revCache). The value is shared and read-only.
func (t *Tx) OpenTasks(ctx context.Context, workspaceID string) (*app.OpenTasks, error) {
	var cur openTasksEntry
	var jobs bool
	if err := t.tx.QueryRowxContext(ctx, `SELECT task_rev, task_gen, vocab_rev, (SELECT coalesce(max(seq), 0) FROM tasks),
		EXISTS (SELECT 1 FROM task_jobs) FROM workspaces WHERE id = ?`, workspaceID).Scan(&cur.rev, &cur.gen, &cur.vocab, &cur.seq, &jobs); err != nil {
		return nil, mapErr(err)
	}
	if jobs {
		// While a job on a subtree is under way, its descendants still
		// to change are left out, and a copy would have to follow them
		// into the view: read it whole, and keep none.
		return t.allOpenTasks(ctx, workspaceID)
	}
	old, ok := t.db.openTasks.get(workspaceID)
	var err error
	switch {
	case ok && old.rev == cur.rev && old.gen == cur.gen && old.vocab == cur.vocab:
		return old.open, nil
	case ok && old.rev < cur.rev && old.gen == cur.gen && old.vocab == cur.vocab:
		cur.open, err = t.openTasksSince(ctx, workspaceID, old)
	default:
		cur.open, err = t.allOpenTasks(ctx, workspaceID)
	}
	if err != nil {
		return nil, err
	}
	t.OnCommit(func() { t.db.openTasks.put(workspaceID, cur) })
	return cur.open, nil
}

// openTaskColumns reads a task as the agenda places it. Whether an import
// from another tool wrote it (an external id names it) is fixed when it is
// made: the import writes the task and its external id in one
// transaction, so a copy that read the task read that too.
const openTaskColumns = `t.id, ref, project_id, status_id, type_id, assignee_id, claimed_by, claim_expires_at, created_by,
	coalesce(importance, 3) * 10 + coalesce(urgency, 3), due_at, due_is_all_day, timezone, snoozed_until,
	completed_at IS NULL AND deleted_at IS NULL, EXISTS (SELECT 1 FROM external_ids x WHERE x.entity_id = t.id)`

// allOpenTasks reads every open, live task of the workspace and the links
// that block them.
func (t *Tx) allOpenTasks(ctx context.Context, workspaceID string) (*app.OpenTasks, error) {
	ts, _, err := t.scanOpenTasks(ctx, `SELECT `+openTaskColumns+` FROM tasks t
		WHERE workspace_id = ? AND completed_at IS NULL AND deleted_at IS NULL AND `+notPending("t"), workspaceID)
	if err != nil {
		return nil, err
	}
	err = t.blockers(ctx, ts, `SELECT l.target_id, l.source_id FROM link_types lt JOIN links l ON l.link_type_id = lt.id
		WHERE lt.workspace_id = ? AND lt.key = 'blocks'`, workspaceID)
	return app.NewOpenTasks(ts), err
}

// openTasksSince reads the tasks changed since old was read, with the links
// that block them, and merges them into a copy of old: a changed task that
// is no longer open leaves it. A task that joins it (new, or open again)
// may block tasks whose links did not change; those find their blockers
// again. A task changed since is one whose fact_rev passed old's revision
// (tasks_fact_rev) or one stored since, past old's highest seq (a range of
// the table itself): a new task keeps fact_rev 0 until it changes, so that
// a create writes no entry into tasks_fact_rev (migration 0018).
func (t *Tx) openTasksSince(ctx context.Context, workspaceID string, old openTasksEntry) (*app.OpenTasks, error) {
	open, closed, err := t.scanOpenTasks(ctx, openTasksSinceSQL, workspaceID, old.rev, old.seq)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(open))
	var joining []string
	for i, o := range open {
		ids[i] = o.ID
		if _, ok := old.open.Find(o.ID); !ok {
			joining = append(joining, o.ID)
		}
	}
	err = t.blockers(ctx, open, `SELECT l.target_id, l.source_id FROM links l JOIN link_types lt ON lt.id = l.link_type_id
		WHERE l.target_id IN (SELECT value FROM json_each(?)) AND lt.key = 'blocks'`, jsonText(ids))
	if err != nil {
		return nil, err
	}
	var reblock []string
	if len(joining) > 0 {
		err = t.tx.SelectContext(ctx, &reblock, `SELECT l.target_id FROM links l JOIN link_types lt ON lt.id = l.link_type_id
			WHERE l.source_id IN (SELECT value FROM json_each(?)) AND lt.key = 'blocks'`, jsonText(joining))
		if err != nil {
			return nil, mapErr(err)
		}
	}
	slices.Sort(closed)
	return old.open.Merge(open, closed, reblock), nil
}

// openTasksSinceSQL reads the tasks of a workspace changed since a
// revision (?1, ?2) or stored past a seq (?3) and not changed since, so
// that no task is read twice. The unary + keeps the second part on the
// table's range of seqs rather than an index led by workspace_id.
const openTasksSinceSQL = `SELECT ` + openTaskColumns + ` FROM tasks t WHERE workspace_id = ?1 AND fact_rev > ?2 AND fact_rev > 0
	UNION ALL SELECT ` + openTaskColumns + ` FROM tasks t WHERE seq > ?3 AND +workspace_id = ?1 AND fact_rev <= ?2`

func byID(o app.OpenTask, id string) int { return strings.Compare(o.ID, id) }

// scanOpenTasks reads openTaskColumns: the open tasks ordered by id, and
// the ids of the tasks that are finished or deleted.
func (t *Tx) scanOpenTasks(ctx context.Context, query string, args ...any) ([]app.OpenTask, []string, error) {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, mapErr(err)
	}
	defer rows.Close()
	var out []app.OpenTask
	var closed []string
	for rows.Next() {
		var o app.OpenTask
		var assignee, claimedBy, claimExpires, createdBy, due, zone, snoozed sql.NullString
		var open bool
		if err := rows.Scan(&o.ID, &o.Ref, &o.ProjectID, &o.StatusID, &o.TypeID, &assignee, &claimedBy, &claimExpires,
			&createdBy, &o.Weight, &due, &o.DueIsAllDay, &zone, &snoozed, &open, &o.Imported); err != nil {
			return nil, nil, mapErr(err)
		}
		if !open {
			closed = append(closed, o.ID)
			continue
		}
		o.AssigneeID, o.ClaimedBy, o.CreatedBy, o.Timezone = assignee.String, claimedBy.String, createdBy.String, zone.String
		o.ClaimExpiresAt, o.DueAt, o.SnoozedUntil = parseNullTime(claimExpires), parseNullTime(due), parseNullTime(snoozed)
		if o.DueIsAllDay && o.Timezone != "" && due.Valid {
			o.DueDate = o.DueAt.In(zoneNamed(o.Timezone)).Format(time.DateOnly)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, mapErr(err)
	}
	slices.SortFunc(out, func(a, b app.OpenTask) int { return strings.Compare(a.ID, b.ID) })
	return out, closed, nil
}

// blockers files each link the query reads (target, source) under its
// target among ts, which are ordered by id.
func (t *Tx) blockers(ctx context.Context, ts []app.OpenTask, query string, args ...any) error {
	rows, err := t.tx.QueryContext(ctx, query, args...)
	if err != nil {
		return mapErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var target, source string
		if err := rows.Scan(&target, &source); err != nil {
			return mapErr(err)
		}
		if i, ok := slices.BinarySearchFunc(ts, target, byID); ok {
			ts[i].BlockedBy = append(ts[i].BlockedBy, source)
		}
	}
	return mapErr(rows.Err())
}

func parseNullTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	return parseTime(s.String)
}

var zones sync.Map // name → *time.Location

// zoneNamed loads a zone once per process: time.LoadLocation reads the
// zone database each time. An unknown zone counts as UTC, as the app's
// loadZone does.
func zoneNamed(name string) *time.Location {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location)
	}
	l, err := time.LoadLocation(name)
	if err != nil || name == "" {
		l = time.UTC
	}
	zones.Store(name, l)
	return l
}
