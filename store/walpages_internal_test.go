package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"tend/app"
)

// walCreates is how many creates TestCreateWALPages counts over.
const walCreates = 200

// maxWALPagesPerCreate bounds the pages one task create, committed alone,
// writes to the write-ahead log: 25.5 in November 2026 (24.1 at df25264,
// 26.7 before migration 0018), a page or so on each of about twenty tables
// and indexes (BENCHMARKS.md, "Creates: WAL pages and throughput"), so that
// a new index or trigger on the create's path shows.
const maxWALPagesPerCreate = 26.5

// TestCreateWALPages counts the pages a task create writes to the log: the
// bench/ab.sh structured create (title, project, two tags, importance and
// estimate) by a token's holder, one create per commit, as the sequential
// load makes them. The checkpointer is stopped, so the log only grows; its
// frames are read back and attributed to the table or index each page
// belongs to, which -v prints. Page counts do not depend on timing.
func TestCreateWALPages(t *testing.T) {
	ctx := context.Background()
	path := migratedPath(t, "pages.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Stop the loop as TestWALStaysBounded does; Close finds it stopped.
	close(db.stop)
	<-db.done
	db.stop, db.done = make(chan struct{}), make(chan struct{})
	close(db.done)

	svc := app.New(db, app.Options{})
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, "api")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CreateProject(ctx, admin, "", app.ProjectCreate{Key: "seq", Title: "Seq"}); err != nil {
		t.Fatal(err)
	}
	four, fifteen := 4, 15
	create := func() {
		t.Helper()
		if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "Call the plumber about the leak", Project: "seq",
			Tags: []string{"home", "errand"}, Importance: &four, EstimateMinutes: &fifteen}); err != nil {
			t.Fatal(err)
		}
	}
	// Past the first creates, which make the tags and the first pages of
	// every tree, a create writes what every later one does.
	for range walCreates {
		create()
	}
	if _, err := db.maint.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	queries := db.queries.Load()
	for range walCreates {
		create()
	}
	statements := float64(db.queries.Load()-queries) / walCreates
	frames, pageSize := walFrames(t, path+"-wal")
	per := float64(len(frames)) / walCreates
	t.Logf("%d creates wrote %d pages of %d bytes to the log: %.1f a create, in %.1f statements", walCreates, len(frames), pageSize, per, statements)
	t.Log(walBreakdown(t, db, frames))
	if per > maxWALPagesPerCreate {
		t.Errorf("a create writes %.1f pages to the log, more than %.1f", per, maxWALPagesPerCreate)
	}
}

// walFrames reads the page number of every frame in a write-ahead log.
func walFrames(t *testing.T, path string) (pages []uint32, pageSize int) {
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
	}
	return pages, pageSize
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
