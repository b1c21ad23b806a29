package store

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"

	"tend/app"
	"tend/migrations"
)

// migrationFS is where the migration files come from. Only tests replace
// it, to run the upgrade path against a synthetic chain.
var migrationFS fs.FS = migrations.FS

// migrationNames lists the embedded migration files in order.
func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrationFS, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// openMigrator opens one writing connection on the file at path, synced at
// the given level, and lists the migrations this binary holds: what a copy
// being restored, or a test's database of an older release, is migrated
// with before anything opens it as a DB.
func openMigrator(ctx context.Context, path, synchronous string) (*sqlx.DB, []string, error) {
	w, err := openPool(ctx, path, writerPragmas(synchronous), 1)
	if err != nil {
		return nil, nil, err
	}
	names, err := migrationNames()
	if err != nil {
		_ = w.Close()
		return nil, nil, err
	}
	return w, names, nil
}

// revisionOf names a schema version: the migration file without ".sql".
func revisionOf(names []string, version int) string {
	if version == 0 || version > len(names) {
		return fmt.Sprintf("%04d", version)
	}
	return strings.TrimSuffix(names[version-1], ".sql")
}

// schemaVersion reads the migrations this binary holds and the version
// the database is at.
func (db *DB) schemaVersion(ctx context.Context) ([]string, int, error) {
	names, err := migrationNames()
	if err != nil {
		return nil, 0, err
	}
	var have int
	if err := db.write.GetContext(ctx, &have, "PRAGMA user_version"); err != nil {
		return nil, 0, fmt.Errorf("reading the schema version: %w", err)
	}
	return names, have, nil
}

// sameVersion is a standby's migrate: it changes nothing, and refuses a
// database whose schema is not this binary's.
func (db *DB) sameVersion(ctx context.Context) error {
	names, have, err := db.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if have > len(names) {
		return app.Errorf(app.CodeSchemaTooNew, "the followed database's schema (version %d) is newer than this binary's (%d): follow it with the primary's version of tend", have, len(names))
	}
	if have != len(names) {
		return fmt.Errorf("the followed database's schema (version %d) is older than this binary's (%d): follow it with the primary's version of tend", have, len(names))
	}
	db.revision = revisionOf(names, have)
	return nil
}

// migrate brings the schema up to date, tracked by PRAGMA user_version. All
// pending files run in one transaction on the writer, so a failure leaves
// the database exactly as it was. An existing database is backed up first.
func (db *DB) migrate(ctx context.Context) error {
	names, have, err := db.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if have > len(names) {
		return app.Errorf(app.CodeSchemaTooNew,
			"database schema version %d is newer than this binary (%d): it was written by a newer tend; run that release, or restore a backup taken before the upgrade",
			have, len(names))
	}
	db.revision = revisionOf(names, len(names))
	if have == len(names) {
		return nil
	}
	if have > 0 {
		if _, err := db.takeBackup(ctx, db.maint, app.BackupUpgrade, 0, revisionOf(names, have)); err != nil {
			return fmt.Errorf("backing up before upgrading the schema from %d: %w", have, err)
		}
	}
	return db.applyMigrations(ctx, names, have)
}

func (db *DB) applyMigrations(ctx context.Context, names []string, have int) (err error) {
	tx, err := db.write.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	for i := have; i < len(names); i++ {
		body, err := fs.ReadFile(migrationFS, names[i])
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("migration %s: %w", names[i], err)
		}
	}
	// user_version is transactional, so the version moves with the schema.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(names))); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	bad := rows.Next()
	if cerr := rows.Close(); cerr != nil {
		return cerr
	}
	if bad {
		return fmt.Errorf("migrations left rows that break foreign keys")
	}
	return tx.Commit()
}
