package store

import "tend/app"

// touchesSQL tests for a touch of task t (a live comment on it, or an event
// that changed its status) whose comment column x and event column y meet
// cond; both probes descend the entity indexes (comments_entity,
// events_entity) to the task's own rows.
func touchesSQL(x, y string) string {
	return "(EXISTS (SELECT 1 FROM comments c WHERE c.entity_id = t.id AND c.deleted_at IS NULL" + x +
		") OR EXISTS (SELECT 1 FROM events e WHERE e.entity_id = t.id AND json_type(e.changes, '$.status') IS NOT NULL" + y + "))"
}

// heldBy is the condition that the task's claim is live and held by one of
// ids (an expression naming a set of account ids).
func heldBy(ids string) string {
	return "(t.claimed_by IN " + ids + " AND t.claim_expires_at > :now)"
}

// nullableCols are the columns a field filter compares directly. A claim
// that has run out is not held, so it has no claimed_at either.
var nullableCols = map[string]string{
	"claimed_at": "(CASE WHEN t.claim_expires_at > :now THEN t.claimed_at END)", "completed_at": "t.completed_at", "content_updated_at": "t.content_updated_at",
	"created_at": "t.created_at", "due_at": "t.due_at", "snoozed_until": "t.snoozed_until", "starts_at": "t.starts_at",
	"updated_at": "t.updated_at", "estimate_minutes": "t.estimate_minutes", "importance": "t.importance",
	"urgency": "t.urgency", "assignee": "t.assignee_id", "created_by": "t.created_by", "parent": "t.parent_id",
	"project": "t.project_id", "status": "t.status_id", "type": "t.type_id", "ref": "t.id",
}

// numberCols are the filtered columns that hold numbers; the other
// compared columns hold times.
var numberCols = map[string]bool{"estimate_minutes": true, "importance": true, "urgency": true}

// taskConds adds the listing's field filters (app.TaskCond) for tasks t.
func (b *itemQuery) taskConds(conds []app.TaskCond) {
	for _, c := range conds {
		b.add(b.taskCond(c))
	}
}

func (b *itemQuery) taskCond(c app.TaskCond) string {
	ids, arg := "", ""
	if c.Op == "in" {
		arg = b.arg(jsonText(c.IDs))
		ids = "(SELECT value FROM json_each(" + arg + "))"
	}
	switch c.Field {
	case "touched_at":
		return b.touchedAt(c)
	case "touched_by":
		return touchesSQL(" AND c.author_id IN "+ids, " AND e.actor_user_id IN "+ids)
	case "claimed_by":
		return setOrIn(c.Op, "(t.claimed_by IS NOT NULL AND t.claim_expires_at > :now)", heldBy(ids))
	case "tag":
		return setOrIn(c.Op, "EXISTS (SELECT 1 FROM task_tags x JOIN tags g ON g.id = x.tag_id WHERE x.task_id = t.id AND "+liveTag("g")+")",
			"EXISTS (SELECT 1 FROM task_tags x WHERE x.task_id = t.id AND x.tag_id IN "+tagsOrMerged(arg)+")")
	case "under":
		return `t.id IN ` + below("tasks", "IN "+ids)
	case "answers_to":
		agents := `(WITH RECURSIVE agents(id) AS (SELECT id FROM users WHERE answers_to IN ` + ids + `
			UNION SELECT x.id FROM users x JOIN agents a ON x.answers_to = a.id) SELECT id FROM agents)`
		return "(t.assignee_id IN " + agents + " OR " + heldBy(agents) + ")"
	}
	col := nullableCols[c.Field]
	switch c.Op {
	case "set":
		return col + " IS NOT NULL"
	case "unset":
		return col + " IS NULL"
	case "in":
		return col + " IN " + ids
	}
	if numberCols[c.Field] {
		return col + " " + c.Op + " " + b.arg(c.Int)
	}
	return col + " " + c.Op + " " + b.arg(fmtTime(c.Time))
}

// setOrIn picks the condition of .is (set: present; unset: its negation)
// or of a list of names.
func setOrIn(op, present, in string) string {
	switch op {
	case "set":
		return present
	case "unset":
		return "NOT coalesce(" + present + ", 0)"
	}
	return in
}

// touchedAt compares the latest touch of the task with the bound: after it
// (gt, gte) some touch is; before it (lt, lte) a touch is and none is later.
func (b *itemQuery) touchedAt(c app.TaskCond) string {
	at := func(op string) string {
		v := b.arg(fmtTime(c.Time))
		return touchesSQL(" AND c.created_at "+op+" "+v, " AND e.created_at "+op+" "+v)
	}
	some := touchesSQL("", "")
	switch c.Op {
	case "set":
		return some
	case "unset":
		return "NOT " + some
	case ">", ">=":
		return at(c.Op)
	case "<":
		return "(" + some + " AND NOT " + at(">=") + ")"
	}
	return "(" + some + " AND NOT " + at(">") + ")"
}
