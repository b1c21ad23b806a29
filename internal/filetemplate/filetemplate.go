// Package filetemplate keeps a database file made once per test binary and
// writes a copy of it for every test that asks: making a database (its
// migrations, its seed) costs seconds under the race detector, a copy what
// writing its bytes does. It knows nothing of the store, so the store's own
// tests and storetest share it.
package filetemplate

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Template is a database file that build writes the first time a test asks
// for a copy.
type Template struct {
	build func(path string) error
	once  sync.Once
	files map[string][]byte // the database file and its -wal, by suffix
	err   error
}

// New returns a template that build writes, as a closed database at path.
func New(build func(path string) error) *Template { return &Template{build: build} }

// Copy writes a copy of the template's files at path and returns path.
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

// prepare makes the template in a directory of its own, removed once the
// files are read: nothing outlives the test binary.
func (tp *Template) prepare() {
	dir, err := os.MkdirTemp("", "tend-template-")
	if err != nil {
		tp.err = err
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "test.db")
	if tp.err = tp.build(path); tp.err != nil {
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
