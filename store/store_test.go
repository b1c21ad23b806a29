package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite" // the "sqlite" driver, for opening files behind the store's back

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// epoch is the fixed clock the tests give the store.
var epoch = time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)

// newWorkspace builds a workspace row the store will accept.
func newWorkspace(slug string, now time.Time) app.Workspace {
	return app.Workspace{ID: uuid.NewString(), Slug: slug, Name: "Workspace " + slug, Timezone: "UTC",
		CreatedAt: now, UpdatedAt: now, Version: 1}
}

// insertWorkspace inserts one workspace in its own write transaction.
func insertWorkspace(ctx context.Context, db *store.DB, slug string) error {
	return db.Update(ctx, func(tx app.Tx) error {
		w := newWorkspace(slug, tx.Now())
		return tx.InsertWorkspace(ctx, &w)
	})
}

// workspaceBySlug reads a workspace in its own read transaction.
func workspaceBySlug(ctx context.Context, db *store.DB, slug string) (app.Workspace, error) {
	var w app.Workspace
	err := db.View(ctx, func(tx app.Tx) error {
		var err error
		w, err = tx.WorkspaceBySlug(ctx, slug)
		return err
	})
	return w, err
}

// rawOpen opens a database file with the plain driver, behind the store's back.
func rawOpen(t *testing.T, path string) *sql.DB {
	t.Helper()
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	c.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// column reads the one text column a query selects, every row in order.
func column(t *testing.T, db *sql.DB, query string) []string {
	t.Helper()
	rows, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func userVersion(t *testing.T, path string) int {
	t.Helper()
	c := rawOpen(t, path)
	var v int
	if err := c.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return v
}

func setUserVersion(t *testing.T, path string, v int) {
	t.Helper()
	c := rawOpen(t, path)
	if _, err := c.Exec(fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func integrityCheck(t *testing.T, path string) string {
	t.Helper()
	c := rawOpen(t, path)
	var res string
	if err := c.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatalf("integrity_check on %s: %v", path, err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestUpdateCommits(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	db.Now = func() time.Time { return epoch.Add(1234567 * time.Nanosecond) }
	ctx := t.Context()
	committed := false
	err := db.Update(ctx, func(tx app.Tx) error {
		w := newWorkspace("kept", tx.Now())
		tx.(*store.Tx).OnCommit(func() { committed = true })
		return tx.InsertWorkspace(ctx, &w)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !committed {
		t.Error("OnCommit did not run after a commit")
	}
	w, err := workspaceBySlug(ctx, db, "kept")
	if err != nil {
		t.Fatal(err)
	}
	// The transaction clock is UTC and truncated to the millisecond, the
	// precision times are stored at, so what is read back equals what was written.
	if got, want := w.CreatedAt, epoch.Add(time.Millisecond); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("CreatedAt = %v, want %v in UTC", got, want)
	}
}

func TestUpdateRollsBackOnError(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boom := errors.New("boom")
	committed := false
	err := db.Update(ctx, func(tx app.Tx) error {
		w := newWorkspace("doomed", tx.Now())
		if err := tx.InsertWorkspace(ctx, &w); err != nil {
			return err
		}
		// The row is visible inside the transaction that wrote it…
		if _, err := tx.WorkspaceBySlug(ctx, "doomed"); err != nil {
			return err
		}
		tx.(*store.Tx).OnCommit(func() { committed = true })
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want the fn's own error", err)
	}
	// …and gone after the rollback.
	if _, err := workspaceBySlug(ctx, db, "doomed"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("after rollback, WorkspaceBySlug: %v, want not_found", err)
	}
	if committed {
		t.Error("OnCommit ran for a transaction that rolled back")
	}
	// The single writer connection was released: the next write goes through.
	if err := insertWorkspace(ctx, db, "doomed"); err != nil {
		t.Fatalf("write after a rollback: %v", err)
	}
}

func TestUpdateRollsBackAndRepanics(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	func() {
		defer func() {
			if p := recover(); p != "kaboom" {
				t.Errorf("recovered %v, want the fn's panic value", p)
			}
		}()
		_ = db.Update(ctx, func(tx app.Tx) error {
			w := newWorkspace("panicked", tx.Now())
			if err := tx.InsertWorkspace(ctx, &w); err != nil {
				return err
			}
			panic("kaboom")
		})
		t.Error("Update returned instead of re-panicking")
	}()
	if _, err := workspaceBySlug(ctx, db, "panicked"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("after a panic, WorkspaceBySlug: %v, want not_found", err)
	}
	done := make(chan error, 1)
	go func() { done <- insertWorkspace(ctx, db, "after-panic") }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("write after a panic: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the writer is still held by the panicked transaction")
	}
}

func TestViewCannotWrite(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	err := db.View(ctx, func(tx app.Tx) error {
		w := newWorkspace("sneaky", tx.Now())
		return tx.InsertWorkspace(ctx, &w)
	})
	if err == nil {
		t.Fatal("an insert inside View succeeded")
	}
	if _, err := workspaceBySlug(ctx, db, "sneaky"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("WorkspaceBySlug after a write in View: %v, want not_found", err)
	}
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	if err := insertWorkspace(ctx, db, "taken"); err != nil {
		t.Fatal(err)
	}
	// slug is UNIQUE COLLATE NOCASE, so a different case collides too.
	if err := insertWorkspace(ctx, db, "TAKEN"); app.CodeOf(err) != app.CodeConflict {
		t.Errorf("duplicate slug: %v, want conflict", err)
	}
	if _, err := workspaceBySlug(ctx, db, "missing"); app.CodeOf(err) != app.CodeNotFound {
		t.Errorf("missing slug: %v, want not_found", err)
	}
	// An app error returned by fn comes back as it was, not rewrapped.
	want := app.Errorf(app.CodeCycle, "round and round")
	if got := db.Update(ctx, func(app.Tx) error { return want }); got != want {
		t.Errorf("Update returned %v, want the same *app.Error", got)
	}
}

func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	const writers, each = 50, 20
	var (
		wg          sync.WaitGroup
		busy, other atomic.Int64
		firstErr    sync.Once
		errText     string
	)
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := insertWorkspace(ctx, db, fmt.Sprintf("w%02d-%02d", g, i))
				switch {
				case err == nil:
				case app.CodeOf(err) == app.CodeBusy:
					busy.Add(1)
				default:
					other.Add(1)
					firstErr.Do(func() { errText = err.Error() })
				}
			}
		}()
	}
	// Readers run beside the writers; WAL must not block them either.
	var readErrs atomic.Int64
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				if err := db.View(ctx, func(tx app.Tx) error {
					_, err := tx.InstanceWorkspaces(ctx)
					return err
				}); err != nil {
					readErrs.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if busy.Load() != 0 || other.Load() != 0 || readErrs.Load() != 0 {
		t.Fatalf("busy = %d, other write errors = %d (first: %s), read errors = %d; want none",
			busy.Load(), other.Load(), errText, readErrs.Load())
	}
	var n int
	if err := db.View(ctx, func(tx app.Tx) error {
		ws, err := tx.InstanceWorkspaces(ctx)
		n = len(ws)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n != writers*each {
		t.Errorf("%d workspaces stored, want %d", n, writers*each)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	path := storetest.Migrated.Copy(t, filepath.Join(t.TempDir(), "tend.db"))
	db, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	setUserVersion(t, path, 99)

	db, err = store.Open(t.Context(), path, store.Options{})
	if err == nil {
		_ = db.Close()
		t.Fatal("Open accepted a database at schema version 99")
	}
	if got := app.CodeOf(err); got != app.CodeSchemaTooNew {
		t.Errorf("CodeOf = %q, want %q (%v)", got, app.CodeSchemaTooNew, err)
	}
	for _, want := range []string{"99", "newer than this binary"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Refusing touches nothing: the version stays and no upgrade backup is taken.
	if v := userVersion(t, path); v != 99 {
		t.Errorf("user_version after the refusal = %d, want 99", v)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(path), "backups")); !os.IsNotExist(err) {
		t.Errorf("a backup directory appeared on refusal: %v", err)
	}
}

func TestOpenTwiceIsNoop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	db, err := store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := insertWorkspace(t.Context(), db, "survivor"); err != nil {
		t.Fatal(err)
	}
	rev := db.SchemaRevision()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	schema, version := dumpSchema(t, path), userVersion(t, path)

	db, err = store.Open(t.Context(), path, store.Options{})
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	if got := db.SchemaRevision(); got != rev {
		t.Errorf("SchemaRevision = %q, want %q", got, rev)
	}
	if _, err := workspaceBySlug(t.Context(), db, "survivor"); err != nil {
		t.Errorf("data written before the second Open: %v", err)
	}
	bs, err := db.Backups(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 0 {
		t.Errorf("the second Open took backups: %v", bs)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got := dumpSchema(t, path); got != schema {
		t.Errorf("schema changed on the second Open:\n%s\nwant:\n%s", got, schema)
	}
	if got := userVersion(t, path); got != version {
		t.Errorf("user_version = %d after the second Open, want %d", got, version)
	}
}

func TestOpenRejectsURIPaths(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"tend.db?mode=ro", "tend.db#x"} {
		path := filepath.Join(t.TempDir(), name)
		db, err := store.Open(t.Context(), path, store.Options{})
		if err == nil {
			_ = db.Close()
			t.Errorf("Open(%q) succeeded, want a refusal", name)
		}
	}
}

func TestCloseIsIdempotent(t *testing.T) {
	t.Parallel()
	db, err := store.Open(t.Context(), storetest.Migrated.Copy(t, filepath.Join(t.TempDir(), "tend.db")), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}
