package storetest

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"tend/internal/filetemplate"
	"tend/store"
)

// Template is a database prepared once per test binary, migrated and then
// seeded, and copied for every test that opens it. Migrating a fresh file
// costs seconds under the race detector; a copy costs what reopening a file
// does, so a package's tests pay for the migrations once.
type Template struct{ files *filetemplate.Template }

// NewTemplate returns a template that seed prepares, on the fixed clock at
// Epoch, the first time a test opens it.
func NewTemplate(seed func(ctx context.Context, db *store.DB) error) *Template {
	return &Template{filetemplate.New(func(path string) error {
		db, err := store.Open(context.Background(), path, store.Options{})
		if err != nil {
			return err
		}
		clock := &Clock{now: Epoch}
		db.Now = clock.Now
		return errors.Join(seed(context.Background(), db), db.Close())
	})}
}

// Open opens a fresh copy of the template in tb.TempDir(), on a fixed clock
// at Epoch, closed when the test ends.
func (tp *Template) Open(tb testing.TB) (*store.DB, *Clock) {
	tb.Helper()
	return openFile(tb, tp.Copy(tb, filepath.Join(tb.TempDir(), "test.db")))
}

// Copy writes a copy of the template's files at path, for a test that opens
// the database itself (with options of its own, or as a child process
// does), and returns path.
func (tp *Template) Copy(tb testing.TB, path string) string {
	tb.Helper()
	return tp.files.Copy(tb, path)
}
