package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestTaskQueriesKeepTheirIndexes: the index the agenda reads changes by
// (tasks_fact_rev) serves that read alone. Without statistics SQLite plans
// from the schema only, so an empty database shows the plans a large one
// gets; an index led by workspace_id over every row once made the
// subtasks of a task a read of the whole workspace.
func TestTaskQueriesKeepTheirIndexes(t *testing.T) {
	t.Parallel()
	db := planDB(t)
	now := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	byRef := []app.OrderField{{Field: "ref"}}
	byPriority := []app.OrderField{{Field: "priority_score", Desc: true}}
	for name, q := range map[string]app.TaskQuery{
		"by id":             {IDs: []string{"x"}, Limit: 1},
		"subtasks":          {ParentID: "x", Order: byRef, Limit: 51},
		"a page":            {Order: byRef, Limit: 50},
		"ready by priority": {Ready: true, Order: byPriority, Limit: 50},
		"assigned":          {AssigneeID: "u", Order: byRef, Limit: 50},
	} {
		q.WorkspaceID, q.AllReadable, q.Now = "w", true, now
		query, args := taskSQL(q, false)
		plan := planOf(t, db, query, args...)
		if strings.Contains(plan, "tasks_fact_rev") {
			t.Errorf("%s reads tasks_fact_rev:\n%s", name, plan)
		}
	}
	plan := planOf(t, db, openTasksSinceSQL, "w", 5, 100)
	if !strings.Contains(plan, "tasks_fact_rev") || !strings.Contains(plan, "INTEGER PRIMARY KEY (rowid>?)") {
		t.Errorf("the agenda's read of what changed does not use tasks_fact_rev and the range of seqs:\n%s", plan)
	}
}

// planDB opens a migrated, empty database to read plans in.
func planDB(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), migratedPath(t, "plan.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// planOf is SQLite's plan for the query, a line a step.
func planOf(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.read.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "\n")
}

// TestDocumentSearchReadsMatchesFirst: a document search reads its matches
// (documents_fts and the chunks of large bodies, documentMatch) once and
// looks each document up by seq. Joined as a plain subquery, the outer
// query was pushed into the arm over large bodies, which then read every
// document of the workspace: 557 ms a search of 200,000 documents.
func TestDocumentSearchReadsMatchesFirst(t *testing.T) {
	t.Parallel()
	db := planDB(t)
	s := app.ParseSearch("kalo mine* -rune")
	q := app.DocumentQuery{WorkspaceID: "w", Readable: `["p"]`, Limit: 21, Order: []app.OrderField{{Field: "relevance", Desc: true}}}
	q.Match, q.Words, q.Exclude = s.Match, s.Words, s.Exclude
	query, args := documentSQL(q, false)
	plan := planOf(t, db, query, args...)
	if strings.Contains(plan, "(workspace_id=?)") || !strings.Contains(plan, "SCAN hits\nSEARCH d USING INTEGER PRIMARY KEY (rowid=?)") {
		t.Errorf("a search reads the workspace's documents:\n%s", plan)
	}
}
