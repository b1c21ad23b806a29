package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"tend/app"
)

// walCreates is how many creates TestCreateWALPages counts over.
const walCreates = 200

// maxWALPagesPerCreate bounds the pages one task create, committed alone,
// writes to the write-ahead log: 21.0 since migration 0023 left the task's
// text to be indexed later (25.5 before, 24.1 at df25264, 26.7 before
// migration 0018), a page or so on each of about twenty tables and indexes
// (BENCHMARKS.md, "Creates: WAL pages and throughput", "Issue 25: task
// search indexed after the request"), so that a new index or trigger on the
// create's path shows. 22.2 since migration 0031's events_project (1.2
// pages a create), which a CalDAV collection's getctag, sync-token and
// sync-collection delta read on every poll: without it each would scan the
// workspace's events.
const maxWALPagesPerCreate = 22.5

// maxWALPagesPerIndexedCreate bounds the pages the indexing of a created
// task's text writes to the log, per task, when walCreates tasks are
// indexed in one step (app/task_index.go): 0.04.
const maxWALPagesPerIndexedCreate = 0.25

// maxStatementsPerCreate bounds the statements one such create runs in its
// transaction, counted by QueryCount (BEGIN and COMMIT are not): the
// caller's memberships, the scope's and vocabulary's revisions (one
// statement; the status and item type checks take vocab_rev from it), the
// next ref, the insert, the tags looked up and applied, the event. 10 before
// issue 25 §2 (BENCHMARKS.md, "Issue 25: fewer statements per create").
const maxStatementsPerCreate = 6

// TestCreateWALPages counts the pages a task create writes to the log: the
// bench/ab.sh structured create (title, project, two tags, importance and
// estimate) by a token's holder, one create per commit, as the sequential
// load makes them. The checkpointer is stopped, so the log only grows; its
// frames are read back and attributed to the table or index each page
// belongs to, which -v prints, as are the statements a create runs. Page
// and statement counts do not depend on timing.
func TestCreateWALPages(t *testing.T) {
	db, path, create, index := walCreator(t)
	// Past the first creates, which make the tags and the first pages of
	// every tree, a create writes what every later one does.
	for range walCreates {
		create()
	}
	index()
	truncateWAL(t, db)
	queries := db.queries.Load()
	for range walCreates {
		create()
	}
	statements := float64(db.queries.Load()-queries) / walCreates
	frames, commits, pageSize := walFrames(t, path+"-wal")
	per := float64(len(frames)) / walCreates
	t.Logf("%d creates wrote %d pages of %d bytes to the log in %d commits: %.1f a create, in %.1f statements",
		walCreates, len(frames), pageSize, commits, per, statements)
	t.Log(walBreakdown(t, db, frames))
	if statements > maxStatementsPerCreate {
		t.Errorf("a create runs %.1f statements, more than %d", statements, maxStatementsPerCreate)
	}
	if per > maxWALPagesPerCreate {
		t.Errorf("a create writes %.1f pages to the log, more than %.1f", per, maxWALPagesPerCreate)
	}

	// Their text, indexed afterwards in one step, costs each create a
	// small share of that step's pages.
	truncateWAL(t, db)
	index()
	frames, _, _ = walFrames(t, path+"-wal")
	indexed := float64(len(frames)) / walCreates
	t.Logf("indexing their text wrote %d pages: %.2f a create", len(frames), indexed)
	t.Log(walBreakdown(t, db, frames))
	if indexed > maxWALPagesPerIndexedCreate {
		t.Errorf("indexing a created task's text writes %.2f pages to the log, more than %.2f", indexed, maxWALPagesPerIndexedCreate)
	}
}

// walGroup is how many creates share a commit in
// TestCreateWALPagesInGroups: the harness's concurrent load has 8 writers.
const walGroup = 8

// maxWALPagesPerGroupedCreate bounds the pages a create writes to the log
// when walGroup creates share a commit (see TestCreateWALPagesInGroups).
const maxWALPagesPerGroupedCreate = 10

// TestCreateWALPagesInGroups counts the pages a create writes to the log
// when creates commit in groups, as they do under concurrent writers: the
// creates of TestCreateWALPages, walGroup at a time queued on the writer
// while the test holds it, so that every group of walGroup shares one
// transaction (see writer.go) whatever the timing.
func TestCreateWALPagesInGroups(t *testing.T) {
	db, path, create, _ := walCreator(t)
	grouped := func() {
		t.Helper()
		db.w.mu.Lock()
		var wg sync.WaitGroup
		for range walGroup {
			wg.Go(create)
		}
		for db.w.waiting.Load() < walGroup {
			runtime.Gosched() // the creates queue on other goroutines; no clock is involved
		}
		db.w.mu.Unlock()
		wg.Wait()
	}
	for range walCreates / walGroup {
		grouped()
	}
	truncateWAL(t, db)
	for range walCreates / walGroup {
		grouped()
	}
	frames, commits, _ := walFrames(t, path+"-wal")
	per := float64(len(frames)) / walCreates
	t.Logf("%d creates, %d at a time, wrote %d pages to the log in %d commits: %.1f a create", walCreates, walGroup, len(frames), commits, per)
	t.Log(walBreakdown(t, db, frames))
	if want := walCreates / walGroup; commits != want {
		t.Errorf("%d commits, want %d (one a group)", commits, want)
	}
	if per > maxWALPagesPerGroupedCreate {
		t.Errorf("a create in a group of %d writes %.1f pages to the log, more than %d", walGroup, per, maxWALPagesPerGroupedCreate)
	}
}

// walCreator opens a database with its checkpointer stopped, so that the
// log only grows, and returns a function making one bench/ab.sh structured
// create by a token's holder.
func walCreator(t *testing.T) (db *DB, path string, create, index func()) {
	t.Helper()
	ctx := context.Background()
	db = openMigrated(t, "pages.db", Options{})
	path = db.Path()
	// Stop the loop as TestWALStaysBounded does; Close finds it stopped.
	close(db.stop)
	<-db.done
	db.stop, db.done = make(chan struct{}), make(chan struct{})
	close(db.done)

	// No worker indexes task text (Options.TaskIndexBatch is 0): the test
	// indexes when it counts that apart (index).
	svc := app.New(db, app.Options{})
	admin := adminOf(t, svc, "api")
	if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "seq", Title: "Seq"}); err != nil {
		t.Fatal(err)
	}
	four, fifteen := 4, 15
	return db, path, func() {
			if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "Call the plumber about the leak", Project: "seq",
				Tags: []string{"home", "errand"}, Importance: &four, EstimateMinutes: &fifteen}); err != nil {
				t.Error(err)
			}
		}, func() {
			// A search indexes every task waiting first (app/task_index.go).
			if found, err := svc.SearchItems(ctx, admin, app.ItemSearchQuery{Q: "plumber"}); err != nil || len(found.Tasks) == 0 {
				t.Errorf("searching the tasks created: %d found, %v", len(found.Tasks), err)
			}
		}
}

// truncateWAL copies the log into the database and empties it.
func truncateWAL(t *testing.T, db *DB) {
	t.Helper()
	if _, err := db.maint.ExecContext(context.Background(), "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
}

// walFrames reads the page number of every frame in a write-ahead log and
// counts its commits (the frames that record the database's size).
func walFrames(t *testing.T, path string) (pages []uint32, commits, pageSize int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 32 {
		t.Fatalf("the log is %d bytes", len(b))
	}
	pageSize = int(binary.BigEndian.Uint32(b[8:12]))
	for off := 32; off+24+pageSize <= len(b); off += 24 + pageSize {
		pages = append(pages, binary.BigEndian.Uint32(b[off:off+4]))
		if binary.BigEndian.Uint32(b[off+4:off+8]) != 0 {
			commits++
		}
	}
	return pages, commits, pageSize
}

// walBreakdown says how many of the frames fell on each table's or index's
// pages, most first.
func walBreakdown(t *testing.T, db *DB, frames []uint32) string {
	t.Helper()
	rows, err := db.maint.Query("SELECT name, pageno FROM dbstat")
	if err != nil {
		return "no breakdown: " + err.Error()
	}
	defer rows.Close()
	owner := map[uint32]string{}
	for rows.Next() {
		var name string
		var page uint32
		if err := rows.Scan(&name, &page); err != nil {
			t.Fatal(err)
		}
		owner[page] = name
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, p := range frames {
		name := owner[p]
		if name == "" {
			name = fmt.Sprintf("(page %d: free or header)", p)
			if p == 1 {
				name = "(page 1)"
			}
		}
		count[name]++
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		return count[names[i]] > count[names[j]] || count[names[i]] == count[names[j]] && names[i] < names[j]
	})
	var sb strings.Builder
	sb.WriteString("pages a create, by tree:\n")
	for _, n := range names {
		fmt.Fprintf(&sb, "  %6.2f  %s\n", float64(count[n])/walCreates, n)
	}
	return sb.String()
}
