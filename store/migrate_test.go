package store

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"tend/app"
	"tend/migrations"
)

// These tests swap the package's migration source for a synthetic chain, so
// they must not run in parallel: parallel tests are held until every
// sequential one has finished, which keeps the swap invisible to them.

// useMigrations makes Open see the real first migration followed by extra,
// until the test ends.
func useMigrations(t *testing.T, extra map[string]string) {
	t.Helper()
	first, err := fs.ReadFile(migrations.FS, "0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{"0001_init.sql": {Data: first}}
	for name, body := range extra {
		m[name] = &fstest.MapFile{Data: []byte(body)}
	}
	old := migrationFS
	migrationFS = m
	t.Cleanup(func() { migrationFS = old })
}

func rawQuery[T any](t *testing.T, path, query string) T {
	t.Helper()
	c, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var v T
	if err := c.QueryRow(query).Scan(&v); err != nil {
		t.Fatalf("%s on %s: %v", query, path, err)
	}
	return v
}

func tableExists(t *testing.T, path, table string) bool {
	t.Helper()
	return rawQuery[int](t, path, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = '"+table+"'") == 1
}

func openClose(t *testing.T, path string, opts Options, fn func(db *DB)) {
	t.Helper()
	db, err := Open(context.Background(), path, opts)
	if err != nil {
		t.Fatal(err)
	}
	if fn != nil {
		fn(db)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

const widgets = `CREATE TABLE widgets (id INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT;
INSERT INTO widgets (name) SELECT slug FROM workspaces;`

func TestMigrateUpgradeTakesBackupFirst(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	backups := filepath.Join(dir, "copies")
	opts := Options{BackupDir: backups}

	useMigrations(t, nil)
	openClose(t, path, opts, func(db *DB) {
		if got := db.SchemaRevision(); got != "0001_init" {
			t.Errorf("SchemaRevision = %q, want 0001_init", got)
		}
		err := db.Update(context.Background(), func(tx app.Tx) error {
			now := tx.Now()
			return tx.InsertWorkspace(context.Background(), &app.Workspace{ID: "w1", Slug: "old", Name: "Old",
				Timezone: "UTC", CreatedAt: now, UpdatedAt: now, Version: 1})
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Stat(backups); !os.IsNotExist(err) {
		t.Fatalf("creating a fresh database took a backup: %v", err)
	}

	useMigrations(t, map[string]string{"0002_widgets.sql": widgets})
	openClose(t, path, opts, func(db *DB) {
		if got := db.SchemaRevision(); got != "0002_widgets" {
			t.Errorf("SchemaRevision = %q, want 0002_widgets", got)
		}
		bs, err := db.Backups(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 1 || bs[0].TakenFor != app.BackupUpgrade || bs[0].SchemaHead != "0001_init" {
			t.Fatalf("Backups = %+v, want one upgrade backup at 0001_init", bs)
		}
	})

	matches, err := filepath.Glob(filepath.Join(backups, "tend-*-upgrade-0001_init.db"))
	if err != nil || len(matches) != 1 {
		t.Fatalf("upgrade backups: %v, %v; want exactly one tend-*-upgrade-0001_init.db", matches, err)
	}
	if !regexp.MustCompile(`^tend-\d{8}T\d{6}\.\d{3}Z-upgrade-0001_init\.db$`).MatchString(filepath.Base(matches[0])) {
		t.Errorf("backup name %s does not follow tend-<taken at>-<for>-<schema>.db", filepath.Base(matches[0]))
	}
	copyPath := matches[0]
	if got := rawQuery[string](t, copyPath, "PRAGMA integrity_check"); got != "ok" {
		t.Errorf("integrity_check on the upgrade backup = %q", got)
	}
	// The copy is the database as it was before 0002 ran.
	if got := rawQuery[int](t, copyPath, "PRAGMA user_version"); got != 1 {
		t.Errorf("backup user_version = %d, want 1", got)
	}
	if tableExists(t, copyPath, "widgets") {
		t.Error("the upgrade backup already has the table 0002 creates: it was taken after the upgrade")
	}
	if got := rawQuery[string](t, copyPath, "SELECT slug FROM workspaces"); got != "old" {
		t.Errorf("backup workspaces = %q, want the row written before the upgrade", got)
	}

	if got := rawQuery[int](t, path, "PRAGMA user_version"); got != 2 {
		t.Errorf("upgraded user_version = %d, want 2", got)
	}
	if got := rawQuery[string](t, path, "SELECT name FROM widgets"); got != "old" {
		t.Errorf("0002 did not run over the existing data: widgets holds %q", got)
	}
	if entries, _ := os.ReadDir(backups); len(entries) != 1 {
		t.Errorf("backup directory holds %d entries, want 1 (no temporary files left)", len(entries))
	}
}

func TestMigrateFailureLeavesDatabaseAsItWas(t *testing.T) {
	for _, tc := range []struct {
		name, body, wantErr string
	}{
		{"syntax", "CREATE TABLE gadgets (id INTEGER PRIMARY KEY);\nCREATE TABLE broken (", "0003_bad"},
		{"foreign keys", `CREATE TABLE gadgets (id INTEGER PRIMARY KEY,
	workspace_id TEXT REFERENCES workspaces (id) DEFERRABLE INITIALLY DEFERRED);
INSERT INTO gadgets (workspace_id) VALUES ('no-such-workspace');`, "foreign keys"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "tend.db")
			opts := Options{BackupDir: filepath.Join(dir, "backups")}
			useMigrations(t, map[string]string{"0002_widgets.sql": widgets})
			openClose(t, path, opts, nil)
			before := rawQuery[string](t, path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema ORDER BY name)")

			useMigrations(t, map[string]string{"0002_widgets.sql": widgets, "0003_bad.sql": tc.body})
			db, err := Open(context.Background(), path, opts)
			if err == nil {
				_ = db.Close()
				t.Fatal("Open succeeded over a failing migration")
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %q does not mention %q", err, tc.wantErr)
			}
			if got := rawQuery[int](t, path, "PRAGMA user_version"); got != 2 {
				t.Errorf("user_version after a failed migration = %d, want 2", got)
			}
			if after := rawQuery[string](t, path, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema ORDER BY name)"); after != before {
				t.Errorf("schema after a failed migration:\n%s\nwant:\n%s", after, before)
			}
			// The backup taken before the attempt is still there to restore from.
			if m, _ := filepath.Glob(filepath.Join(opts.BackupDir, "tend-*-upgrade-0002_widgets.db")); len(m) != 1 {
				t.Errorf("upgrade backups = %v, want one at 0002_widgets", m)
			}
		})
	}
}

func TestBackupNameRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 30, 15, 123e6, time.UTC)
	name := backupName(at, app.BackupUpgrade, "0001_init")
	if name != "tend-20260301T093015.123Z-upgrade-0001_init.db" {
		t.Errorf("backupName = %q", name)
	}
	b, ok := parseBackupName(name)
	if !ok || !b.TakenAt.Equal(at) || b.TakenFor != app.BackupUpgrade || b.SchemaHead != "0001_init" || b.Name != name {
		t.Errorf("parseBackupName(%q) = %+v, %v", name, b, ok)
	}
	for _, bad := range []string{"tend-.db", "tend-20260301-routine-0001.db", "other-20260301T093015.123Z-routine-0001.db",
		"tend-20260301T093015.123Z-routine-0001.db.tmp", "tend-20260301T093015.123Z-routine.db"} {
		if _, ok := parseBackupName(bad); ok {
			t.Errorf("parseBackupName(%q) accepted it", bad)
		}
	}
}
