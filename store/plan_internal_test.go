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
	db := openMigrated(t, "plan.db", Options{})
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
	if plan := planOf(t, db, indexTasksSQL, 5); !strings.HasPrefix(plan, "SEARCH p USING INTEGER PRIMARY KEY") {
		t.Errorf("indexing the queued tasks does not walk the queue first:\n%s", plan)
	}
	plan := planOf(t, db, openTasksSinceSQL, "w", 5, 100)
	if !strings.Contains(plan, "tasks_fact_rev") || !strings.Contains(plan, "INTEGER PRIMARY KEY (rowid>?)") {
		t.Errorf("the agenda's read of what changed does not use tasks_fact_rev and the range of seqs:\n%s", plan)
	}
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
	db := openMigrated(t, "plan.db", Options{})
	s := app.ParseSearch("kalo mine* -rune")
	q := app.DocumentQuery{WorkspaceID: "w", Readable: `["p"]`, Limit: 21, Order: []app.OrderField{{Field: "relevance", Desc: true}}}
	q.Match, q.Words, q.Exclude = s.Match, s.Words, s.Exclude
	query, args := documentSQL(q, false)
	plan := planOf(t, db, query, args...)
	if strings.Contains(plan, "(workspace_id=?)") || !strings.Contains(plan, "SCAN hits\nSEARCH d USING INTEGER PRIMARY KEY (rowid=?)") {
		t.Errorf("a search reads the workspace's documents:\n%s", plan)
	}
}

// TestTagSeenPlans: TagSeen's two plans read what they are chosen for.
// Read from the tag, the search walks the tag's applications by
// task_tags_tag and document_tags_tag and finds each item by id; read
// from the reader, it walks each readable project's items by
// tasks_project and documents_project and probes each for the tag by the
// key of task_tags and document_tags; the counts that choose between them
// read indexes alone.
func TestTagSeenPlans(t *testing.T) {
	t.Parallel()
	db := openMigrated(t, "tagplan.db", Options{})
	f := app.TagFilter{WorkspaceID: "w", Readable: `["p"]`}
	for _, c := range []struct {
		fromReader bool
		want       []string
	}{
		{false, []string{"SEARCH tt USING COVERING INDEX task_tags_tag (tag_id=?)", "SEARCH k USING INDEX sqlite_autoindex_tasks_1 (id=?)",
			"SEARCH dt USING COVERING INDEX document_tags_tag (tag_id=?)", "SEARCH d USING INDEX sqlite_autoindex_documents_1 (id=?)"}},
		{true, []string{"SEARCH k USING INDEX tasks_project (project_id=?)", "SEARCH tt USING PRIMARY KEY (task_id=? AND tag_id=?)",
			"SEARCH d USING INDEX documents_project (project_id=?)", "SEARCH dt USING PRIMARY KEY (document_id=? AND tag_id=?)"}},
	} {
		query, args := tagSeenSQL(f, c.fromReader, "g")
		plan := planOf(t, db, query, args...)
		for _, w := range c.want {
			if !strings.Contains(plan, w) {
				t.Errorf("read from the reader %v: no %q in the plan:\n%s", c.fromReader, w, plan)
			}
		}
	}
	plan := planOf(t, db, fewerReadableSQL, "g", `["p"]`, 1024)
	for _, w := range []string{"task_tags_tag", "document_tags_tag", "COVERING INDEX tasks_project", "COVERING INDEX documents_project"} {
		if !strings.Contains(plan, w) {
			t.Errorf("the counts do not read %s:\n%s", w, plan)
		}
	}
	for _, table := range []string{"tasks", "documents", "task_tags", "document_tags"} {
		if strings.Contains(plan, "SCAN "+table) {
			t.Errorf("the counts scan %s:\n%s", table, plan)
		}
	}
}
