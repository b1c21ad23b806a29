package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// ftsSegments counts the rows of the task index's segment table: every
// change the index takes writes one, so an unchanged count means the index
// was not touched.
func ftsSegments(t *testing.T, raw *sql.DB, index string) int {
	t.Helper()
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM ` + index + `_data`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSearchIndexFollowsTextOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, a := bootstrapped(t)
	tk, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "Sharpen the saw"})
	if err != nil {
		t.Fatal(err)
	}
	// The search indexes the new task's text first (app/task_index.go).
	if found, err := svc.SearchItems(ctx, a, app.ItemSearchQuery{Q: "saw"}); err != nil || len(found.Tasks) != 1 {
		t.Fatalf("searching the task just created: %d found, %v", len(found.Tasks), err)
	}
	raw := rawOpen(t, db.Path())
	ref := strconv.FormatInt(tk.Ref, 10)
	followsText(t, raw, "tasks_fts", func() error {
		_, err := svc.UpdateTask(ctx, a, "", ref, app.TaskUpdate{Importance: app.Patch[int]{Set: true, Value: 5},
			Status: app.Patch[string]{Set: true, Value: "in_progress"}})
		return err
	}, func() error {
		_, err := svc.UpdateTask(ctx, a, "", ref, app.TaskUpdate{Description: app.Patch[string]{Set: true, Value: "and oil the axe"}})
		return err
	})
	var hits int
	if err := raw.QueryRow(`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'axe'`).Scan(&hits); err != nil || hits != 1 {
		t.Fatalf("searching the new description: %d hits, %v", hits, err)
	}

	body := "Oil it yearly."
	d, err := svc.CreateDocument(ctx, a, "", app.DocumentCreate{Title: "Axe care", Body: &body})
	if err != nil {
		t.Fatal(err)
	}
	dref := strconv.FormatInt(d.Ref, 10)
	followsText(t, raw, "documents_fts", func() error {
		_, err := svc.UpdateDocument(ctx, a, "", dref, app.DocumentUpdate{Status: app.Patch[string]{Set: true, Value: "draft"},
			Tags: app.Patch[[]string]{Set: true, Value: []string{"tools"}}})
		return err
	}, func() error {
		_, err := svc.UpdateDocument(ctx, a, "", dref, app.DocumentUpdate{Body: app.Patch[string]{Set: true, Value: "Sharpen it monthly."}})
		return err
	})
}

// followsText checks that the FTS5 index table follows the text alone:
// keep, a change that leaves the text as it was, adds no segment to it;
// change, a new text, does; and the index then agrees with its rows.
func followsText(t *testing.T, raw *sql.DB, table string, keep, change func() error) {
	t.Helper()
	before := ftsSegments(t, raw, table)
	if err := keep(); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, table); after != before {
		t.Fatalf("%s: a change that leaves the text alone touched the index (%d → %d segments)", table, before, after)
	}
	if err := change(); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, table); after == before {
		t.Fatalf("%s: a new text did not reach the index", table)
	}
	if _, err := raw.Exec(`INSERT INTO ` + table + ` (` + table + `) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("%s disagrees with its rows: %v", table, err)
	}
}

// FuzzSearchMatch feeds what ParseSearch makes of any q to the real FTS5
// index: no written search may be a syntax error there.
func FuzzSearchMatch(f *testing.F) {
	for _, s := range []string{"login bug", `"a b" -c`, "auth*", `"`, "NOT", "a AND", "x:y", "ü-ber", "C++", "(a OR b)", "^start", "col:word"} {
		f.Add(s)
	}
	db := storetest.Open(f)
	raw, err := sql.Open("sqlite", db.Path())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = raw.Close() })
	f.Fuzz(func(t *testing.T, q string) {
		s := app.ParseSearch(q)
		for _, expr := range []string{s.Match, s.Exclude} {
			if expr == "" {
				continue
			}
			var n int
			if err := raw.QueryRow(`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH ?`, expr).Scan(&n); err != nil {
				t.Fatalf("q %q became %q, which FTS5 refuses: %v", q, expr, err)
			}
		}
	})
}

// TestUpgradeChunksLargeBodies opens a database written before migration
// 0022, with a large body indexed whole, with this release: the upgrade
// takes the large body out of documents_fts (whose 'delete' would
// otherwise be given other values than were indexed) and queues it for
// the worker, which indexes it in chunks; both indexes check whole.
func TestUpgradeChunksLargeBodies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seed, err := os.ReadFile(filepath.Join("testdata", "upgrade-0003.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "tend.db")
	if err := store.MigrateTo(ctx, path, 21); err != nil {
		t.Fatal(err)
	}
	// The 0003 seed's workspace, project and vocabulary, to file documents in.
	old := rawOpen(t, path)
	if _, err := old.Exec(string(seed)); err != nil {
		t.Fatal(err)
	}
	large := "walrus " + strings.Repeat("filler ", 20000) + "narwhal"
	for i, body := range []string{"a small pelican", large} {
		if _, err := old.Exec(`INSERT INTO documents (id, workspace_id, ref, project_id, title, body, type_id, status_id, created_at, updated_at, content_updated_at)
			SELECT ?, p.workspace_id, ?, p.id, ?, ?, (SELECT id FROM item_types WHERE entity_type = 'document' AND workspace_id = p.workspace_id LIMIT 1),
				(SELECT id FROM statuses WHERE entity_type = 'document' AND workspace_id = p.workspace_id LIMIT 1), '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T09:00:00.000Z'
			FROM projects p LIMIT 1`, "d000000"+strconv.Itoa(i), 100+i, "old "+strconv.Itoa(i), body); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(db, app.Options{Version: "test"})
	svc.ResumeWork()
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw := rawOpen(t, path)
	for q, want := range map[string]int{
		`SELECT count(*) FROM documents_fts WHERE documents_fts MATCH 'pelican'`:             1,
		`SELECT count(*) FROM documents_fts WHERE documents_fts MATCH 'walrus OR narwhal'`:   0,
		`SELECT count(*) FROM document_chunks_fts WHERE document_chunks_fts MATCH 'walrus'`:  1,
		`SELECT count(*) FROM document_chunks_fts WHERE document_chunks_fts MATCH 'narwhal'`: 1,
		`SELECT count(*) FROM document_chunking WHERE next IS NULL AND chunks = 3`:           1,
	} {
		var n int
		if err := raw.QueryRow(q).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d, %v; want %d", q, n, err, want)
		}
	}
	for _, q := range []string{`INSERT INTO documents_fts (documents_fts, rank) VALUES ('integrity-check', 1)`,
		`INSERT INTO document_chunks_fts (document_chunks_fts) VALUES ('integrity-check')`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
