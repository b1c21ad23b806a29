package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// unindexed counts the tasks waiting to be indexed.
func unindexed(t *testing.T, raw *sql.DB) int {
	t.Helper()
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM tasks_unindexed`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkTaskIndex runs FTS5's check of tasks_fts against the tasks, which
// fails on a row indexed with other text than its task's, or missing.
func checkTaskIndex(t *testing.T, raw *sql.DB) {
	t.Helper()
	if _, err := raw.Exec(`INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		t.Fatalf("the task index disagrees with the tasks: %v", err)
	}
}

// checkAllIndexed wants no task waiting to be indexed, when the moment
// named by when has come, and the index whole.
func checkAllIndexed(t *testing.T, raw *sql.DB, when string) {
	t.Helper()
	if n := unindexed(t, raw); n != 0 {
		t.Fatalf("%d tasks wait %s", n, when)
	}
	checkTaskIndex(t, raw)
}

// searchTasks answers the refs of the tasks a search of q finds, through
// both reads that match the task index.
func searchTasks(t *testing.T, svc *app.Service, a app.Actor, q string) []int64 {
	t.Helper()
	ctx := context.Background()
	found, err := svc.SearchItems(ctx, a, app.ItemSearchQuery{Q: q, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	listed, err := svc.Tasks(ctx, a, app.TaskListQuery{Q: q, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var refs []int64
	for _, k := range found.Tasks {
		refs = append(refs, k.Ref)
	}
	if len(listed.Items) != len(refs) {
		t.Fatalf("q %q: the search finds %d tasks, the listing %d", q, len(refs), len(listed.Items))
	}
	return refs
}

// TestTaskFoundRightAfterCreate: a create leaves its text to be indexed
// later, and a search that starts after it returned finds it anyway, by
// words to match and by words to exclude alike; the search indexes what
// waited, and the index checks whole.
func TestTaskFoundRightAfterCreate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrappedWith(t, app.Options{})
	raw := rawOpen(t, db.Path())
	for _, title := range []string{"Sharpen the saw", "Oil the saw", "Sweep the shed"} {
		if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: title}); err != nil {
			t.Fatal(err)
		}
	}
	if n := unindexed(t, raw); n != 3 {
		t.Fatalf("%d tasks wait to be indexed after three creates, want 3", n)
	}
	if refs := searchTasks(t, svc, a, "saw"); len(refs) != 2 {
		t.Fatalf("searching saw right after the creates found %v", refs)
	}
	if n := unindexed(t, raw); n != 0 {
		t.Fatalf("%d tasks still wait after a search", n)
	}
	if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "Sharpen the chisel"}); err != nil {
		t.Fatal(err)
	}
	// Only an excluded word reads the index here.
	if refs := searchTasks(t, svc, a, "sharpen -chisel"); len(refs) != 1 {
		t.Fatalf("sharpen -chisel found %v, want the saw alone", refs)
	}
	if refs := searchTasks(t, svc, a, "chisel"); len(refs) != 1 {
		t.Fatalf("chisel found %v", refs)
	}
	checkTaskIndex(t, raw)
}

// TestTaskIndexTextChangedWhilePending: a task's text changed, or the task
// deleted, while it waits to be indexed leaves the index as it would be had
// it been indexed at once; so does a change to, or the deletion of, a task
// indexed already.
func TestTaskIndexTextChangedWhilePending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrappedWith(t, app.Options{})
	raw := rawOpen(t, db.Path())
	create := func(title string) app.Task {
		t.Helper()
		k, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: title})
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	retitle := func(k app.Task, title string) {
		t.Helper()
		if _, err := svc.UpdateTask(ctx, a, "", strconv.FormatInt(k.Ref, 10), app.TaskUpdate{Title: app.Patch[string]{Set: true, Value: title},
			Description: app.Patch[string]{Set: true, Value: title + " soon"}}); err != nil {
			t.Fatal(err)
		}
	}
	indexed := create("Paint the fence")
	searchTasks(t, svc, a, "fence")
	pending := create("Mend the gate")
	gone := create("Prune the hedge")
	retitle(pending, "Hang the gate")
	retitle(indexed, "Stain the fence")
	// No request deletes a task's row; a database edited by hand, or a
	// later purge, runs the trigger all the same.
	if _, err := raw.Exec(`DELETE FROM tasks WHERE id = ?`, gone.ID); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{"hang": 1, "mend": 0, "stain": 1, "paint": 0, "hedge": 0, "soon": 2, "gate": 1} {
		if refs := searchTasks(t, svc, a, q); len(refs) != want {
			t.Errorf("q %q found %v, want %d", q, refs, want)
		}
	}
	checkTaskIndex(t, raw)
	// An indexed task deleted takes its words out of the index.
	if _, err := raw.Exec(`DELETE FROM tasks WHERE id = ?`, indexed.ID); err != nil {
		t.Fatal(err)
	}
	if refs := searchTasks(t, svc, a, "stain"); len(refs) != 0 {
		t.Errorf("a deleted task is still found: %v", refs)
	}
	checkTaskIndex(t, raw)
	// A pending task deleted before any search leaves nothing behind.
	gone = create("Rake the leaves")
	if _, err := raw.Exec(`DELETE FROM tasks WHERE id = ?`, gone.ID); err != nil {
		t.Fatal(err)
	}
	checkAllIndexed(t, raw, "after the only pending one was deleted")
}

// TestTaskIndexResumedAtStart: tasks left waiting in the file by a process
// that stopped are indexed by the next one's worker at start.
func TestTaskIndexResumedAtStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "resume.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc, a, _ := storetest.Admin(t, db, app.Options{}, "test")
	for i := range 5 {
		if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: fmt.Sprintf("Left behind %d", i)}); err != nil {
			t.Fatal(err)
		}
	}

	db = storetest.Reopen(t, db)
	raw := rawOpen(t, path)
	if n := unindexed(t, raw); n != 5 {
		t.Fatalf("%d tasks wait in the file, want 5", n)
	}
	svc = app.New(db, app.Options{TaskIndexBatch: app.DefaultTaskIndexBatch, TaskIndexStepRows: 2})
	svc.ResumeWork()
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	checkAllIndexed(t, raw, "once the worker settled")
	if refs := searchTasks(t, svc, a, "behind"); len(refs) != 5 {
		t.Fatalf("found %v", refs)
	}
}

// TestTaskIndexInSteps: the worker indexes at most TaskIndexStepRows tasks
// a step, each its own transaction, and a search that finds more waiting
// indexes them all, a step at a time, before it reads.
func TestTaskIndexInSteps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var raw *sql.DB
	var seen []int
	db, svc, a := bootstrappedWith(t, app.Options{TaskIndexBatch: 5, TaskIndexStepRows: 2,
		BeforeWorkStep: func() error { seen = append(seen, unindexed(t, raw)); return nil }})
	raw = rawOpen(t, db.Path())
	create := func(n int) {
		for i := range n {
			if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: fmt.Sprintf("Step %d", i)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	create(4)
	if err := svc.SettleWork(); err != nil || len(seen) != 0 {
		t.Fatalf("the worker ran (%v, %v) before the batch was full", seen, err)
	}
	create(1)
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	// Each step sees what the one before left: two fewer.
	if want := []int{5, 3, 1, 0}; fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Fatalf("the worker's steps began with %v tasks waiting, want %v", seen, want)
	}
	create(4)
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if n := unindexed(t, raw); n != 4 {
		t.Fatalf("%d tasks wait, want the 4 short of a batch", n)
	}
	if refs := searchTasks(t, svc, a, "step"); len(refs) != 9 {
		t.Fatalf("found %d tasks, want 9", len(refs))
	}
	checkAllIndexed(t, raw, "after the search")
}

// TestTaskIndexWhenQuiet: with TaskIndexQuiet set, as the server sets it,
// the worker indexes a task created alone once the creates stop. The test
// waits for the worker's step, not for a time.
func TestTaskIndexWhenQuiet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	started := make(chan struct{}, 1)
	db, svc, a := bootstrappedWith(t, app.Options{TaskIndexBatch: app.DefaultTaskIndexBatch, TaskIndexQuiet: time.Millisecond, BeforeWorkStep: func() error {
		select {
		case started <- struct{}{}:
		default:
		}
		return nil
	}})
	raw := rawOpen(t, db.Path())
	if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "Alone"}); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	checkAllIndexed(t, raw, "once the worker settled")
}

// TestTaskIndexConcurrent: creates, text changes and searches at once, with
// the worker indexing in small steps meanwhile: every search finds each
// task created before it started, and afterwards the index checks whole
// and finds every task by its text.
func TestTaskIndexConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrappedWith(t, app.Options{TaskIndexBatch: 3, TaskIndexStepRows: 2})
	raw := rawOpen(t, db.Path())
	const writers, each = 4, 12
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				word := fmt.Sprintf("w%dt%d", w, i)
				k, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "Task " + word})
				if err != nil {
					t.Error(err)
					return
				}
				// Found at once, by the writer that created it.
				found, err := svc.SearchItems(ctx, a, app.ItemSearchQuery{Q: word})
				if err != nil || len(found.Tasks) != 1 {
					t.Errorf("%s right after its create: %d found, %v", word, len(found.Tasks), err)
					return
				}
				if i%3 == 0 {
					if _, err := svc.UpdateTask(ctx, a, "", strconv.FormatInt(k.Ref, 10), app.TaskUpdate{
						Description: app.Patch[string]{Set: true, Value: "changed " + word}}); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Go(func() {
		for range writers * each {
			if _, err := svc.Tasks(ctx, a, app.TaskListQuery{Q: "task -nothing", Limit: 100}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Wait()
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if refs := searchTasks(t, svc, a, "task"); len(refs) != writers*each {
		t.Fatalf("found %d tasks, want %d", len(refs), writers*each)
	}
	if refs := searchTasks(t, svc, a, "changed"); len(refs) != writers*((each+2)/3) {
		t.Fatalf("found %d changed tasks, want %d", len(refs), writers*((each+2)/3))
	}
	checkTaskIndex(t, raw)
}
