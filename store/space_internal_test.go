package store

import (
	"context"
	"sync"
	"testing"

	"tend/app"
)

// TestFullDiskEpisode: with the database capped at its size, every write
// that needs room is refused as storage_full and undone whole, the store
// reports itself full, and the episode is announced once however many
// writes are refused. Once room returns the checkpointer's probe ends the
// episode without any write, once; nothing stored before was lost and the
// file passes integrity_check.
func TestFullDiskEpisode(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var mu sync.Mutex
	var heard []bool
	db := openMigrated(t, "full.db", Options{OnStorage: func(full bool, err error) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, full)
		if full && app.CodeOf(err) != app.CodeStorageFull {
			t.Errorf("OnStorage(true, %v), want the storage_full refusal", err)
		}
	}})
	exec := func(query string) error {
		return db.Update(ctx, func(tx app.Tx) error {
			_, err := tx.(*Tx).tx.ExecContext(ctx, query)
			return err
		})
	}
	if err := exec("CREATE TABLE filler(n INTEGER PRIMARY KEY, b BLOB NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := exec("INSERT INTO filler(b) VALUES (randomblob(20000))"); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.LimitPages(ctx, 1); err != nil { // SQLite keeps the cap at the file's size
		t.Fatal(err)
	}
	// Writes in a group commit fail alike and leave nothing behind.
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if err := exec("INSERT INTO filler(b) VALUES (randomblob(200000))"); app.CodeOf(err) != app.CodeStorageFull {
				t.Errorf("a write past the cap: %v, want storage_full", err)
			}
		})
	}
	wg.Wait()
	if app.CodeOf(db.SpaceError()) != app.CodeStorageFull {
		t.Fatalf("SpaceError = %v while writes are refused", db.SpaceError())
	}
	db.probeRoom()
	if db.SpaceError() == nil {
		t.Fatal("the probe found room in a database at its cap")
	}

	if err := db.LimitPages(ctx, 0); err != nil {
		t.Fatal(err)
	}
	db.probeRoom()
	if err := db.SpaceError(); err != nil {
		t.Fatalf("SpaceError = %v once room returned", err)
	}
	if err := exec("INSERT INTO filler(b) VALUES (randomblob(200000))"); err != nil {
		t.Fatalf("a write once room returned: %v", err)
	}
	mu.Lock()
	if len(heard) != 2 || !heard[0] || heard[1] {
		t.Errorf("OnStorage heard %v, want [true false]: once per change", heard)
	}
	mu.Unlock()
	assertIntact(ctx, t, db, 4)
}

// assertIntact checks the file's integrity and that filler holds rows
// 1..n, each whole.
func assertIntact(ctx context.Context, t *testing.T, db *DB, n int) {
	t.Helper()
	var res string
	if err := db.maint.GetContext(ctx, &res, "PRAGMA integrity_check"); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	var rows, last, short int
	if err := db.maint.QueryRowContext(ctx, "SELECT count(*), max(n), count(*) FILTER (WHERE length(b) NOT IN (20000, 200000)) FROM filler").Scan(&rows, &last, &short); err != nil {
		t.Fatal(err)
	}
	if rows != n || last != n || short != 0 {
		t.Errorf("filler holds %d rows up to %d (%d cut short), want rows 1..%d whole", rows, last, short, n)
	}
}
