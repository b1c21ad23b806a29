package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tend/store"
)

// TestUpgradeKeepsProjectsAndTasks opens a database written by the release
// before documents and search (schema 0003: one project, two tasks with a
// tag, a blocks link, a status change; testdata/upgrade-0003.sql, loaded
// into a file migrated to 0003) with this one: the upgrade keeps every row,
// indexes the old tasks for search, and files the old events under their
// projects.
func TestUpgradeKeepsProjectsAndTasks(t *testing.T) {
	seed, err := os.ReadFile(filepath.Join("testdata", "upgrade-0003.sql"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	if err := store.MigrateTo(context.Background(), path, 3); err != nil {
		t.Fatal(err)
	}
	old := rawOpen(t, path)
	if _, err := old.Exec(string(seed)); err != nil {
		t.Fatalf("loading the 0003 seed: %v", err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), path, store.Options{BackupDir: filepath.Join(dir, "backups")})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := db.Backups(context.Background())
	if err != nil || len(bs) != 1 || bs[0].SchemaHead != "0003_scope_revision" {
		t.Fatalf("the upgrade takes one backup at the old head first: %+v, %v", bs, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw := rawOpen(t, path)
	for query, want := range map[string]int{
		`SELECT count(*) FROM tasks`:                                                    2,
		`SELECT count(*) FROM task_tags`:                                                1,
		`SELECT count(*) FROM links`:                                                    1,
		`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'login session'`:          1,
		`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'deploy'`:                 1,
		`SELECT count(*) FROM events WHERE entity_type = 'task' AND project_id IS NULL`: 0,
		`SELECT count(*) FROM events WHERE entity_type = 'task'`:                        4,
		`SELECT count(*) FROM tasks WHERE links_in + links_out = 1`:                     2,
		`SELECT auth_rev FROM instance`:                                                 0,
	} {
		var got int
		if err := raw.QueryRow(query).Scan(&got); err != nil || got != want {
			t.Errorf("%s: %d (%v), want %d", query, got, err, want)
		}
	}
	if got := integrityCheck(t, path); got != "ok" {
		t.Fatalf("integrity_check after the upgrade: %s", got)
	}
}
