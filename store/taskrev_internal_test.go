package store

import (
	"context"
	"testing"

	"tend/app"
)

// TestTaskInsertRevision: a task stored by InsertTask takes the next ref
// and carries the workspace's new task_rev as its fact_rev, written with
// the row (migration 0018); a row inserted without one (fact_rev 0) still
// gets it from the trigger.
func TestTaskInsertRevision(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, migratedPath(t, "rev.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	svc := app.New(db, app.Options{})
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, "api")
	if err != nil {
		t.Fatal(err)
	}
	revs := func(id string) (taskRev, factRev int64) {
		t.Helper()
		if err := db.write.QueryRowContext(ctx, `SELECT w.task_rev, t.fact_rev FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
			WHERE t.id = ?`, id).Scan(&taskRev, &factRev); err != nil {
			t.Fatal(err)
		}
		return taskRev, factRev
	}
	one, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "One", Tags: []string{"home"}})
	if err != nil {
		t.Fatal(err)
	}
	rev1, fact1 := revs(one.ID)
	if fact1 == 0 || fact1 != rev1 {
		t.Fatalf("after the first create: task_rev %d, the task's fact_rev %d; want equal and not 0", rev1, fact1)
	}
	two, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "Two", Tags: []string{"home", "errand"}})
	if err != nil {
		t.Fatal(err)
	}
	if two.Ref != one.Ref+1 {
		t.Errorf("refs %d then %d; want consecutive", one.Ref, two.Ref)
	}
	rev2, fact2 := revs(two.ID)
	if rev2 != rev1+1 || fact2 != rev2 {
		t.Errorf("after the second create: task_rev %d, fact_rev %d; want both %d", rev2, fact2, rev1+1)
	}
	if _, fact := revs(one.ID); fact != fact1 {
		t.Errorf("the first task's fact_rev moved from %d to %d", fact1, fact)
	}
	if _, err := db.write.ExecContext(ctx, `INSERT INTO tasks (id, workspace_id, ref, project_id, title, type_id, status_id,
		created_at, updated_at, content_updated_at) SELECT 'raw', workspace_id, 999, project_id, 'Raw', type_id, status_id,
		created_at, updated_at, content_updated_at FROM tasks WHERE id = ?`, two.ID); err != nil {
		t.Fatal(err)
	}
	if rev, fact := revs("raw"); rev != rev2+1 || fact != rev {
		t.Errorf("a row inserted without fact_rev: task_rev %d, fact_rev %d; want both %d", rev, fact, rev2+1)
	}
}
