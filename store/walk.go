package store

import "database/sql"

// The walks along parent_id and answers_to go as far as the rows do:
// nesting and chains of agents have no depth limit, so a walk that
// stopped at a depth would leave what is below it out (issue 32 §3). Each
// is a recursive CTE over the ids alone, joined with UNION rather than
// UNION ALL: a row already found is not queued again, so a cycle, which
// the API refuses to make but a crafted import or old data could hold,
// ends the walk instead of looping. Each step is a lookup by primary key
// (up) or by the parent's index (down).
//
// A walk down from one item needs no such bookkeeping (UNION keeps an
// index of the rows found, a third more time on a subtree of 300): an
// item has one parent, so a walk down can only come back to a row by
// coming back to the item it started from, and it stops there. The
// subtree of an item and the jobs on one (tasks_pending, countPendingSQL)
// walk so.

// usersUp walks from the accounts start selects (id, answers_to, active)
// up through whom each answers to, as the CTE up(id, next, active).
func usersUp(start string) string {
	return `WITH RECURSIVE up(id, next, active) AS (SELECT ` + start + `
	UNION SELECT x.id, x.answers_to, x.active FROM users x JOIN up ON x.id = up.next) `
}

// chainActive is 1 when the account aliased u and everyone it answers to
// are active, and its chain ends at a person: an agent whose chain loops
// has nobody who could answer for it, so it is refused as if that person
// were deactivated.
func chainActive(u string) string {
	return `CASE WHEN ` + u + `.answers_to IS NULL THEN ` + u + `.active ELSE (` +
		usersUp(u+`.id, `+u+`.answers_to, `+u+`.active`) + `SELECT min(active) * max(next IS NULL) FROM up) END`
}

// tasksUp walks from the task id start names (a column or a parameter)
// up through its ancestors, as the CTE up(id): start first, then each
// parent.
func tasksUp(start string) string {
	return `WITH RECURSIVE up (id) AS (SELECT ` + start + ` UNION SELECT x.parent_id FROM up JOIN tasks x ON x.id = up.id
		WHERE x.parent_id IS NOT NULL) `
}

// subtreeSQL selects the item ?1 of table and every descendant, the
// item first: a walk answers its rows in the order it reaches them.
func subtreeSQL(table string) string {
	return `WITH RECURSIVE sub(id) AS (SELECT ?1
		UNION ALL SELECT c.id FROM ` + table + ` c JOIN sub ON c.parent_id = sub.id WHERE c.id <> ?1) SELECT id FROM sub`
}

// below is the ids of every descendant of the items of table whose
// parent_id the condition parent holds ("= ?", "IN (...)").
func below(table, parent string) string {
	return `(WITH RECURSIVE sub(id) AS (SELECT id FROM ` + table + ` WHERE parent_id ` + parent + `
		UNION SELECT c.id FROM ` + table + ` c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub)`
}

// hop is one step of a walk up: a row and the one above it.
type hop struct {
	ID   string         `db:"id"`
	Next sql.NullString `db:"next"`
}

// nearestFirst orders the hops a walk up from start read, which come
// without a depth (a walk that carried one would find a cycle's rows new
// on every round): the ids above start, nearest first, each once, ending
// at the top or where the chain comes back on itself.
func nearestFirst(start string, hops []hop) []string {
	next := make(map[string]string, len(hops))
	for _, h := range hops {
		next[h.ID] = h.Next.String
	}
	seen := map[string]bool{start: true}
	var out []string
	for id := next[start]; id != "" && !seen[id]; id = next[id] {
		seen[id] = true
		out = append(out, id)
	}
	return out
}
