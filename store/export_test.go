package store

import (
	"context"

	"tend/app"
)

// MigrateTo creates the database at path with only the first n migrations
// applied, as the release whose newest migration was n left it, so that an
// upgrade test can load that release's rows from a text seed and then open
// the file with this release.
func MigrateTo(ctx context.Context, path string, n int) error {
	w, names, err := openMigrator(ctx, path, "NORMAL")
	if err != nil {
		return err
	}
	defer w.Close()
	return (&DB{write: w}).applyMigrations(ctx, names[:n], 0)
}

// ForgetCaches empties every cache db keeps, as a newly opened database has
// them, for a test comparing what the caches answer with a read from
// nothing. Nothing else may be using db.
func (db *DB) ForgetCaches() { db.caches = caches{} }

// BetweenCommitAndHeader makes f run after each of db's commits, before the
// writer reads the header it left (owncommit.go): where a commit by another
// process would fall. Set it before db's first write.
func (db *DB) BetweenCommitAndHeader(f func()) { db.betweenCommitAndHeader = f }

// FollowStep applies the replica's files past what a standby applied, at
// most limit of them when limit is above 0, as its loop does every
// interval, and returns how many it applied.
func (db *DB) FollowStep(ctx context.Context, limit int) (int, error) {
	return db.follow.step(ctx, limit)
}

// ExecSQL runs query in a write transaction: tests make tables of their own.
func (db *DB) ExecSQL(ctx context.Context, query string, args ...any) error {
	return db.Update(ctx, func(tx app.Tx) error {
		_, err := tx.(*Tx).tx.ExecContext(ctx, query, args...)
		return err
	})
}

// GetSQL reads the one row query finds into dest on a reader.
func (db *DB) GetSQL(ctx context.Context, dest any, query string, args ...any) error {
	return db.View(ctx, func(tx app.Tx) error {
		return tx.(*Tx).tx.GetContext(ctx, dest, query, args...)
	})
}

// FollowPages is how many pages a standby has written since Open.
func (db *DB) FollowPages() uint64 { return db.follow.pages.Load() }
