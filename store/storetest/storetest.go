// Package storetest opens real, migrated tend databases for tests of other
// packages: a file in the test's temporary directory, closed when it ends.
package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"tend/store"
)

// Open opens a fresh database file in tb.TempDir(), migrated and ready.
func Open(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "test.db"), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db
}
