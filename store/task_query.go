package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tend/app"
)

// blockedSQL and blockingSQL test for an open, live, readable task at the
// other end of a "blocks" link. Only what the reader may see counts: a
// blocker in a project the reader cannot see is not reported, not even as a
// flag. A finished task blocks nothing, so blocking also needs t itself
// open. The link counts (migration 0007) skip the search for the many
// tasks that no link touches. For a reader who may read every project of
// the workspace the far end's project is not checked: links stay within a
// workspace, so it always holds.
func blockedSQL(allReadable bool) string {
	return `(t.links_in > 0 AND EXISTS (SELECT 1 FROM links l JOIN link_types lt ON lt.id = l.link_type_id JOIN tasks b ON b.id = l.source_id
		WHERE l.target_id = t.id AND lt.key = 'blocks' AND b.completed_at IS NULL AND b.deleted_at IS NULL
		AND ` + notPending("b") + ` AND ` + farEndReadable(allReadable) + `))`
}

func blockingSQL(allReadable bool) string {
	return `(t.links_out > 0 AND t.completed_at IS NULL AND EXISTS (SELECT 1 FROM links l JOIN link_types lt ON lt.id = l.link_type_id JOIN tasks b ON b.id = l.target_id
		WHERE l.source_id = t.id AND lt.key = 'blocks' AND b.completed_at IS NULL AND b.deleted_at IS NULL
		AND ` + notPending("b") + ` AND ` + farEndReadable(allReadable) + `))`
}

func farEndReadable(allReadable bool) string {
	if allReadable {
		return "1"
	}
	return "b.project_id IN readable"
}

// priorityExpr is priority_score, in the spirit of Taskwarrior's urgency:
//
//	1.5 × (importance − 1) + 1.5 × (urgency − 1)          (unset counts as 3)
//	+ 12 × due factor: 0.2 when due 14+ days out, rising linearly to 1.0 at 7 days overdue
//	+ 2 × age in years, at most 2
//	+ 8 if it blocks open work, − 5 if open work blocks it
//	+ 4 while in progress, − 3 while deferred
//
// rounded to two decimals. The listing reads blocked, blocking and the
// status category from its inner query and the reader's clock from :now; a
// new task (see InsertTask) is scored by the same expression over the row
// it inserts, at its creation time, blocking nothing and blocked by nothing.
var priorityExpr = priorityOf(":now", "blocking", "blocked", "status_category")

func priorityOf(now, blocking, blocked, category string) string {
	return `round(1.5 * (coalesce(importance, 3) - 1) + 1.5 * (coalesce(urgency, 3) - 1)
	+ CASE WHEN due_at IS NULL THEN 0 ELSE 12 * max(0.2, min(1.0, 0.2 + 0.8 * (14 - (julianday(due_at) - julianday(` + now + `))) / 21)) END
	+ 2 * min(1.0, max(0.0, julianday(` + now + `) - julianday(created_at)) / 365)
	+ CASE WHEN ` + blocking + ` THEN 8 ELSE 0 END - CASE WHEN ` + blocked + ` THEN 5 ELSE 0 END
	+ CASE WHEN ` + category + ` = 'in_progress' THEN 4 ELSE 0 END
	- CASE WHEN snoozed_until > ` + now + ` THEN 3 ELSE 0 END, 2)`
}

// taskInnerSQL is the inner select of the task query over the rows of
// from (a taskSource), joined to their status, people and parent.
func taskInnerSQL(from taskSource, allReadable, subCounts bool) string {
	return "SELECT " + taskTable.selectList("t") + ", " + selectList("t", taskComputed(from, allReadable, subCounts)) + " " + from.from() + `
	JOIN statuses st ON st.id = t.status_id
	LEFT JOIN users au ON au.id = t.assignee_id LEFT JOIN users aub ON aub.id = au.answers_to
	LEFT JOIN users cu ON cu.id = t.claimed_by LEFT JOIN users cub ON cub.id = cu.answers_to
	LEFT JOIN tasks pt ON pt.id = t.parent_id`
}

// taskSource is where the task query's rows come from.
type taskSource int

const (
	fromTasks      taskSource = iota // the tasks table
	fromHits                         // the tasks whose text matches :match (ftsHits)
	fromPage                         // the page a ranking picked (the CTE page: seq and relevance)
	fromNewestHits                   // the matches of :match newest first, for a ranking capped by app.TaskQuery.RankNewest
)

func (s taskSource) from() string {
	switch s {
	case fromHits:
		return "FROM tasks t " + ftsHits
	case fromNewestHits:
		// The index drives in rowid order, so the cap stops the walk;
		// bm25 is computed only for the rows the filters keep.
		return "FROM tasks_fts CROSS JOIN tasks t ON t.seq = tasks_fts.rowid"
	case fromPage:
		// The page's few rows drive: each finds its task by rowid.
		return "FROM page k CROSS JOIN tasks t ON t.seq = k.seq"
	}
	return "FROM tasks t"
}

func (s taskSource) relevance() string {
	switch s {
	case fromHits:
		return "hits.fscore"
	case fromPage:
		return "k.relevance"
	case fromNewestHits:
		return "-bm25(tasks_fts, 4.0, 1.0)"
	}
	return "NULL"
}

// ftsHits ranks the tasks whose text matches :match by relevance: the
// negated BM25 score (higher is better), with a title hit weighing four
// times a description hit.
const ftsHits = `JOIN (SELECT rowid AS frow, -bm25(tasks_fts, 4.0, 1.0) AS fscore FROM tasks_fts WHERE tasks_fts MATCH :match) hits
	ON hits.frow = t.seq`

// taskInners is taskInnerSQL for each source a page is read from and for
// whether the reader may read every project, built once.
var taskInners = func() map[taskSource][2]string {
	v := map[taskSource][2]string{}
	for _, s := range []taskSource{fromTasks, fromHits, fromPage} {
		v[s] = [2]string{taskInnerSQL(s, false, true), taskInnerSQL(s, true, true)}
	}
	return v
}()

// taskInnerFor picks q's inner query from taskInners, or builds it for a
// query that skips the subtask counts (a few requests on a large
// subtree).
func taskInnerFor(from taskSource, q app.TaskQuery) string {
	switch {
	case q.SkipSubCounts:
		return taskInnerSQL(from, q.AllReadable, false)
	case q.AllReadable:
		return taskInners[from][1]
	}
	return taskInners[from][0]
}

// rankSQL is the narrow select a ranking sorts before the page is read: the
// columns every sort key (app.TaskSortKeys) and the priority score read,
// and none of the tags, people and counts only the page's rows need. The
// blocked and blocking tests cost two subqueries a row, so they are read
// only to order by priority_score, and blocked not at all when ready has
// already left out every blocked task.
func rankSQL(from taskSource, q app.TaskQuery) string {
	cols := []string{"t.seq", "t.snoozed_until", "st.category AS status_category", from.relevance() + " AS relevance"}
	for _, k := range app.TaskSortKeys {
		if c := taskSortColumns[k.Field]; c.inner != "" {
			cols = append(cols, c.inner+" AS "+c.outer)
		}
	}
	blocked, blocking := "0", "0"
	if slices.ContainsFunc(q.Order, func(f app.OrderField) bool { return f.Field == "priority_score" }) {
		blocking = blockingSQL(q.AllReadable)
		if !q.Ready {
			blocked = blockedSQL(q.AllReadable)
		}
	}
	cols = append(cols, blocked+" AS blocked", blocking+" AS blocking")
	return "SELECT " + strings.Join(cols, ", ") + " " + from.from() + " JOIN statuses st ON st.id = t.status_id"
}

// pagedInside reports whether the inner query can order, resume and limit
// a page itself: a limit, and no sort key the outer query computes.
func pagedInside(q app.TaskQuery) bool {
	for _, f := range q.Order {
		if _, ok := innerSortExprs[f.Field]; !ok {
			return false
		}
	}
	return q.Limit > 0
}

// taskSQL builds the query for q: the reader's readable projects bound once
// as a CTE, filters on the inner query, order and keyset on the outer one.
// The page is read in one statement whatever its size. A reader who may
// read every project of the workspace needs no project filter at all, which
// spares each row a probe of the readable set and the far end of its links
// a lookup of its project.
func taskSQL(q app.TaskQuery, count bool) (string, []any) {
	b := taskFilters(q, count)
	if count {
		if q.Limit > 0 {
			// A capped count stops reading at the cap: a saved view's
			// count in the top bar costs at most that many matches.
			return readableCTE + "SELECT count(*) FROM (SELECT 1 FROM tasks t JOIN statuses st ON st.id = t.status_id WHERE " + b.conds() +
				" LIMIT " + strconv.Itoa(q.Limit) + ")", b.args
		}
		return readableCTE + "SELECT count(*) FROM tasks t JOIN statuses st ON st.id = t.status_id WHERE " + b.conds(), b.args
	}
	return taskPageSQL(q, b)
}

// taskFilters is the conditions of q's rows, and their values; count
// leaves the text match to a condition, where a page ranks it in a join.
func taskFilters(q app.TaskQuery, count bool) *itemQuery {
	ranked := ""
	if q.Match != "" && !count {
		ranked = q.Match
	}
	b := newItemQuery(q.Readable, ranked)
	b.args = append(b.args, sql.Named("now", fmtTime(q.Now)))
	if q.IDs != nil {
		// Reading by id: the id index must drive. Without statistics the
		// planner prefers the workspace index, which scans every task of the
		// workspace; the unary + keeps the term off any index.
		b.add("+t.workspace_id = " + b.arg(q.WorkspaceID))
	} else {
		b.add("t.workspace_id = " + b.arg(q.WorkspaceID))
	}
	if !q.AllReadable {
		b.add("t.project_id IN readable")
	}
	switch {
	case q.AnyState != nil && *q.AnyState:
	case q.Deleted != nil && *q.Deleted:
		b.add("t.deleted_at IS NOT NULL")
	default:
		b.add("t.deleted_at IS NULL")
	}
	b.add(notPending("t"))
	if q.IDs != nil {
		b.add("t.id IN (SELECT value FROM json_each(" + b.arg(jsonText(q.IDs)) + "))")
	}
	if q.Ref != 0 {
		b.add("t.ref = " + b.arg(q.Ref))
	}
	b.filter(q.ItemFilter, "t", "task_tags x WHERE x.task_id", "tasks_fts", count)
	if q.AssigneeID != "" {
		b.add("t.assignee_id = " + b.arg(q.AssigneeID))
	}
	if q.ClaimedByID != "" {
		b.add("t.claimed_by = " + b.arg(q.ClaimedByID) + " AND t.claim_expires_at > :now")
	}
	b.tree("t", "tasks", q.ParentID, q.Subtree)
	b.taskConds(q.Conds)
	if q.DueBefore != nil {
		b.add("t.due_at < " + b.arg(fmtTime(*q.DueBefore)))
	}
	if q.DueAfter != nil {
		b.add("t.due_at > " + b.arg(fmtTime(*q.DueAfter)))
	}
	if q.OpenOnly {
		b.add("t.completed_at IS NULL")
	}
	switch q.Deferred {
	case "exclude":
		b.add("(t.snoozed_until IS NULL OR t.snoozed_until <= :now)")
	case "only":
		b.add("t.snoozed_until > :now")
	}
	if q.Ready {
		b.add("t.completed_at IS NULL AND (t.snoozed_until IS NULL OR t.snoozed_until <= :now) AND NOT " + blockedSQL(q.AllReadable))
		b.add("NOT (t.claimed_by IS NOT NULL AND t.claimed_by <> " + b.arg(q.ViewerID) + " AND t.claim_expires_at > :now)")
	}
	if q.ToActOn {
		viewer := b.arg(q.ViewerID)
		b.add("(t.assignee_id IS NULL OR t.assignee_id = " + viewer + " OR (t.claimed_by = " + viewer + " AND t.claim_expires_at > :now))")
	}
	return b
}

// taskPageSQL reads the rows q selects in the order it asks, given the
// conditions b (taskFilters) that select them.
func taskPageSQL(q app.TaskQuery, b *itemQuery) (string, []any) {
	match := q.Match != ""
	order := orderBy(q.Order, taskSortExprs, "seq")
	from := fromTasks
	if match {
		from = fromHits
	}
	if pagedInside(q) {
		// Ordered, resumed and limited inside, the inner query is not
		// flattened into the outer one, which would copy the blocked and
		// blocking subqueries into priority_score and run each twice a row.
		if keyset := b.after(q.Order, q.After, innerSortExprs, "t.seq"); keyset != "" {
			b.add(keyset)
		}
		inner := orderBy(q.Order, innerSortExprs, "t.seq")
		if q.ParentID != "" && !q.Subtree {
			inner = orderBy(q.Order, sortedAfterFilter, "+t.seq")
		}
		return fmt.Sprintf(readableCTE+"SELECT q0.*, %s AS priority_score FROM (%s WHERE %s ORDER BY %s LIMIT %d) q0 ORDER BY %s",
			priorityExpr, taskInnerFor(from, q), b.conds(), inner, q.Limit, order), b.args
	}
	// A key the inner query cannot sort by (priority_score, relevance) ranks
	// every selected row: first on the narrow columns of rankSQL, then the
	// page's rows alone are read whole.
	selected := rankSQL(from, q) + " WHERE " + b.conds()
	if match && q.RankNewest > 0 {
		b.add("tasks_fts MATCH :match")
		selected = rankSQL(fromNewestHits, q) + " WHERE " + b.conds() + fmt.Sprintf(" ORDER BY tasks_fts.rowid DESC LIMIT %d", q.RankNewest)
	}
	rank := "SELECT seq, relevance FROM (SELECT q0.*, " + priorityExpr + " AS priority_score FROM (" + selected + ") q0) ranked"
	if keyset := b.after(q.Order, q.After, taskSortExprs, "seq"); keyset != "" {
		rank += " WHERE " + keyset
	}
	rank += " ORDER BY " + order
	if q.Limit > 0 {
		rank += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return readableCTE + ", page AS (" + rank + ") SELECT q0.*, " + priorityExpr + " AS priority_score FROM (" +
		taskInnerFor(fromPage, q) + ") q0 ORDER BY " + order, b.args
}

// Tasks reads the tasks q selects, resolved for its reader.
func (t *Tx) Tasks(ctx context.Context, q app.TaskQuery) ([]app.Task, error) {
	if q.Now.IsZero() {
		q.Now = t.now
	}
	page, few, err := t.fewMatches(ctx, q)
	if err != nil {
		return nil, err
	}
	query, args := taskSQL(q, false)
	if few {
		query, args = rankedPageSQL(q, page)
	}
	out, err := taskReader.read(ctx, t, query, args, min(max(q.Limit, len(q.IDs)), 1000), func(k *app.Task) { finishTask(k, q.Now) })
	if err != nil || len(out) == 0 {
		return out, err
	}
	// The item type comes from the vocabulary cache rather than a join,
	// which cost every row two B-tree descents.
	types, err := t.ItemTypes(ctx, q.WorkspaceID)
	if err != nil {
		return nil, err
	}
	for i := range out {
		for _, it := range types {
			if it.ID == out[i].TypeID {
				out[i].Type = app.ItemType{ID: it.ID, Key: it.Key, Label: it.Label, Category: it.Category, IsDefault: it.IsDefault, EntityType: "task"}
				break
			}
		}
	}
	return out, nil
}

// CountTasks counts the tasks q selects, ignoring order and the keyset;
// a positive q.Limit caps the count.
func (t *Tx) CountTasks(ctx context.Context, q app.TaskQuery) (int, error) {
	if q.Now.IsZero() {
		q.Now = t.now
	}
	query, args := taskSQL(q, true)
	var n int
	err := t.tx.GetContext(ctx, &n, query, args...)
	return n, mapErr(err)
}

// sortedAfterFilter are innerSortExprs that SQLite cannot serve from an
// index: each has a unary +, a no-op on its value. The subtasks of one
// parent are a handful, found through tasks_parent and sorted; left to
// itself the planner walks the workspace's tasks in ref order to skip the
// sort, and on a large workspace reads every task to find a parent's few.
var sortedAfterFilter = func() map[string]string {
	out := make(map[string]string, len(innerSortExprs))
	for k, v := range innerSortExprs {
		out[k] = "+" + v
	}
	return out
}()
