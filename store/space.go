package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tend/app"
)

// A full disk is a passing condition, not a failure of tend: a write that
// finds no room is refused as storage_full, and SQLite has undone it whole
// (the statement, or the transaction whose commit could not be written),
// so nothing half-written stays. From the first such refusal until a write
// commits again, or the background checkpointer finds room again (see
// probeRoom), the store counts as full: SpaceError reports it to the
// readiness probe and Options.OnStorage hears of each change once, so the
// episode is logged once and not once per request.

// Room is what probeRoom wants free before it calls the store usable again:
// enough for a burst of writes, so readiness does not flap at the edge.
const (
	roomBytes = 8 << 20
	roomPages = 256
)

// sqliteMaxPages is SQLite's own default for max_page_count.
const sqliteMaxPages = 4294967294

// storageFull is the refusal of a write for want of space.
func storageFull(err error) error {
	return &app.Error{Code: app.CodeStorageFull, Detail: "the disk holding the database is full; nothing of this request was written; try again once space is freed", Err: err}
}

// noteWrite records the outcome of a write: a commit ends a full episode,
// a refusal for want of space starts one. An I/O error counts as want of
// space when the file system holding the database is nearly full: SQLite
// reports ENOSPC from a write as SQLITE_FULL, but from growing the -shm
// or the file's size hint as an SQLITE_IOERR subcode.
func (db *DB) noteWrite(err error) error {
	if err == nil {
		if db.full.Load() {
			db.setFull(false, nil)
		}
		return nil
	}
	var se *sqlite.Error
	if app.CodeOf(err) == app.CodeInternal && errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_IOERR {
		if free, ok := freeBytes(filepath.Dir(db.path)); ok && free < roomBytes {
			err = storageFull(err)
		}
	}
	if app.CodeOf(err) == app.CodeStorageFull {
		db.setFull(true, err)
	}
	return err
}

// setFull changes the state and tells Options.OnStorage, once per change.
func (db *DB) setFull(full bool, err error) {
	if !db.full.CompareAndSwap(!full, full) {
		return
	}
	if full {
		db.fullErr.Store(&err)
	}
	if db.onStorage != nil {
		db.onStorage(full, err)
	}
}

// SpaceError is the storage_full refusal while the store is full (see
// above), nil otherwise.
func (db *DB) SpaceError() error {
	if !db.full.Load() {
		return nil
	}
	if p := db.fullErr.Load(); p != nil {
		return *p
	}
	return storageFull(nil)
}

// probeRoom ends a full episode once the file system has room again and
// the database is below its page cap (LimitPages) by a margin. It runs
// from the checkpointer, so the store recovers without waiting for a
// client to try a write.
func (db *DB) probeRoom() {
	if free, ok := freeBytes(filepath.Dir(db.path)); ok && free < roomBytes {
		return
	}
	if limit := db.maxPages.Load(); limit > 0 {
		var n int64
		if err := db.maint.QueryRow("PRAGMA page_count").Scan(&n); err != nil || n+roomPages > limit {
			return
		}
	}
	db.setFull(false, nil)
}

// LimitPages caps the database at n pages (0 restores SQLite's own cap), as
// a quota on its size would: a write that would grow it past the cap is
// refused as storage_full, exactly as on a full disk, which is how tests
// bring one about. SQLite never sets the cap below the database's size.
func (db *DB) LimitPages(ctx context.Context, n int64) error {
	if n == 0 {
		n = sqliteMaxPages
	}
	var err error
	upkeep := context.WithValue(ctx, uncounted{}, true)
	db.betweenWrites(func() {
		_, err = db.write.ExecContext(upkeep, fmt.Sprintf("PRAGMA max_page_count = %d", n))
	})
	if err != nil {
		return fmt.Errorf("limiting the database to %d pages: %w", n, err)
	}
	if n == sqliteMaxPages {
		n = 0
	}
	db.maxPages.Store(n)
	return nil
}
