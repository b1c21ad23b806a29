package store

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"tend/app"
)

// migrated is a database with every migration applied, made once per test
// binary, for this package's own tests, which cannot import
// storetest.Migrated (storetest imports store).
var migrated struct {
	once  sync.Once
	files map[string][]byte // the database file and its -wal, by suffix
	err   error
}

// migratedPath writes a copy of the migrated database as name in
// tb.TempDir() and returns its path, for a test that needs a database but
// does not test what Open does to a new file: applying the migrations
// costs seconds under the race detector, a copy a fraction of one.
func migratedPath(tb testing.TB, name string) string {
	tb.Helper()
	migrated.once.Do(func() { migrated.files, migrated.err = migrateOnce() })
	if migrated.err != nil {
		tb.Fatal(migrated.err)
	}
	path := filepath.Join(tb.TempDir(), name)
	for suffix, b := range migrated.files {
		if err := os.WriteFile(path+suffix, b, 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	return path
}

// migrateOnce migrates a new file in a directory of its own, removed once
// the files are read.
func migrateOnce() (map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "tend-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tend.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		return nil, err
	}
	if err := db.Close(); err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		files[suffix] = b
	}
	return files, nil
}

// openMigrated opens a migrated, empty copy at name with opts, closed when
// the test ends.
func openMigrated(tb testing.TB, name string, opts Options) *DB {
	tb.Helper()
	db, err := Open(context.Background(), migratedPath(tb, name), opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

// adminOf makes svc's instance and signs its administrator in through
// iface.
func adminOf(tb testing.TB, svc *app.Service, iface string) app.Actor {
	tb.Helper()
	ctx := context.Background()
	first, err := svc.Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		tb.Fatal(err)
	}
	admin, err := svc.Authenticate(ctx, first.Token.Secret, iface)
	if err != nil {
		tb.Fatal(err)
	}
	return admin
}
