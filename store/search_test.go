package store_test

import (
	"context"
	"database/sql"
	"strconv"
	"testing"

	"tend/app"
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
	raw := rawOpen(t, db.Path())
	before := ftsSegments(t, raw, "tasks_fts")
	ref := strconv.FormatInt(tk.Ref, 10)
	imp := 5
	if _, err := svc.UpdateTask(ctx, a, "", ref, app.TaskUpdate{Importance: app.Patch[int]{Set: true, Value: imp},
		Status: app.Patch[string]{Set: true, Value: "in_progress"}}); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, "tasks_fts"); after != before {
		t.Fatalf("a change that leaves the text alone touched the index (%d → %d segments)", before, after)
	}
	if _, err := svc.UpdateTask(ctx, a, "", ref, app.TaskUpdate{Description: app.Patch[string]{Set: true, Value: "and oil the axe"}}); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, "tasks_fts"); after == before {
		t.Fatal("a new description did not reach the index")
	}
	var hits int
	if err := raw.QueryRow(`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'axe'`).Scan(&hits); err != nil || hits != 1 {
		t.Fatalf("searching the new description: %d hits, %v", hits, err)
	}
	if _, err := raw.Exec(`INSERT INTO tasks_fts (tasks_fts) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("the index disagrees with the tasks: %v", err)
	}

	body := "Oil it yearly."
	d, err := svc.CreateDocument(ctx, a, "", app.DocumentCreate{Title: "Axe care", Body: &body})
	if err != nil {
		t.Fatal(err)
	}
	dref := strconv.FormatInt(d.Ref, 10)
	before = ftsSegments(t, raw, "documents_fts")
	if _, err := svc.UpdateDocument(ctx, a, "", dref, app.DocumentUpdate{Status: app.Patch[string]{Set: true, Value: "draft"},
		Tags: app.Patch[[]string]{Set: true, Value: []string{"tools"}}}); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, "documents_fts"); after != before {
		t.Fatalf("a document change that leaves the text alone touched the index (%d → %d segments)", before, after)
	}
	if _, err := svc.UpdateDocument(ctx, a, "", dref, app.DocumentUpdate{Body: app.Patch[string]{Set: true, Value: "Sharpen it monthly."}}); err != nil {
		t.Fatal(err)
	}
	if after := ftsSegments(t, raw, "documents_fts"); after == before {
		t.Fatal("a new body did not reach the index")
	}
	if _, err := raw.Exec(`INSERT INTO documents_fts (documents_fts) VALUES ('integrity-check')`); err != nil {
		t.Fatalf("the index disagrees with the documents: %v", err)
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
