package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"time"
)

// What the operator's metrics read of the store. Each is cheap enough to
// run on every scrape or is meant to be cached by its caller: file sizes
// come from stat(2), the newest backup from the backup directory's names,
// and only the count of open sessions is a query.

// FileSizes reports the sizes in bytes of the database file and of its
// write-ahead log (0 when there is none, as after a truncating checkpoint).
func (db *DB) FileSizes() (dbBytes, walBytes int64, err error) {
	fi, err := os.Stat(db.path)
	if err != nil {
		return 0, 0, err
	}
	wi, err := os.Stat(db.path + "-wal")
	if errors.Is(err, fs.ErrNotExist) {
		return fi.Size(), 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	return fi.Size(), wi.Size(), nil
}

// OpenSessions counts the browser sessions that are neither revoked nor
// past their idle or absolute expiry at the store's clock.
func (db *DB) OpenSessions(ctx context.Context) (int64, error) {
	now := fmtTime(db.Now())
	var n int64
	err := db.read.GetContext(ctx, &n, `SELECT count(*) FROM sessions
		WHERE revoked_at IS NULL AND idle_until > ? AND expires_at > ?`, now, now)
	return n, mapErr(err)
}

// NewestBackup is when the newest backup in the backup directory was taken,
// whatever it was taken for; ok is false when there is none. It reads the
// directory's names only, not each file.
func (db *DB) NewestBackup() (at time.Time, ok bool, err error) {
	entries, err := os.ReadDir(db.backupDir)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	for _, e := range entries {
		if b, parsed := parseBackupName(e.Name()); parsed && e.Type().IsRegular() && b.TakenAt.After(at) {
			at, ok = b.TakenAt, true
		}
	}
	return at, ok, nil
}

// WritersWaiting is how many write requests are queued for the writer
// connection at this moment.
func (db *DB) WritersWaiting() int64 { return db.w.waiting.Load() }
