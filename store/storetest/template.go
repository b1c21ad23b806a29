package storetest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"tend/store"
)

// Template is a database prepared once per test binary, migrated and then
// seeded, and copied for every test that opens it. Migrating a fresh file
// costs seconds under the race detector; a copy costs what reopening a file
// does, so a package's tests pay for the migrations once.
type Template struct {
	seed  func(ctx context.Context, db *store.DB) error
	once  sync.Once
	files map[string][]byte // the database file and its -wal, by suffix
	err   error
}

// NewTemplate returns a template that seed prepares, on the fixed clock at
// Epoch, the first time a test opens it.
func NewTemplate(seed func(ctx context.Context, db *store.DB) error) *Template {
	return &Template{seed: seed}
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
	tp.once.Do(tp.prepare)
	if tp.err != nil {
		tb.Fatal(tp.err)
	}
	for suffix, b := range tp.files {
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// prepare builds the template in a directory of its own, removed once the
// files are read: nothing outlives the test binary.
func (tp *Template) prepare() {
	dir, err := os.MkdirTemp("", "tend-template-")
	if err != nil {
		tp.err = err
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "test.db")
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tp.err = err
		return
	}
	clock := &Clock{now: Epoch}
	db.Now = clock.Now
	tp.err = errors.Join(tp.seed(context.Background(), db), db.Close())
	if tp.err != nil {
		return
	}
	tp.files = map[string][]byte{}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			tp.err = err
			return
		}
		tp.files[suffix] = b
	}
}
