package store

import (
	"context"
	"path/filepath"
	"testing"

	"tend/app"
	"tend/internal/filetemplate"
)

// migrated is a database with every migration applied, made once per test
// binary, for this package's own tests, which cannot import
// storetest.Migrated (storetest imports store).
var migrated = filetemplate.New(func(path string) error {
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		return err
	}
	return db.Close()
})

// migratedPath writes a copy of the migrated database as name in
// tb.TempDir() and returns its path, for a test that needs a database but
// does not test what Open does to a new file: applying the migrations
// costs seconds under the race detector, a copy a fraction of one.
func migratedPath(tb testing.TB, name string) string {
	tb.Helper()
	return migrated.Copy(tb, filepath.Join(tb.TempDir(), name))
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
