package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"tend/store"
)

// TestUpgradeEndsFeedsOfRevokedCredentials opens a database at schema 0014,
// where revoking a credential left the calendar feeds it created
// answering, with this release: a feed whose credential was revoked ends at
// the moment the credential did; a feed of a live credential, and one made
// in a browser session (no credential), stay as they were.
func TestUpgradeEndsFeedsOfRevokedCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	if err := store.MigrateTo(context.Background(), path, 14); err != nil {
		t.Fatal(err)
	}
	old := rawOpen(t, path)
	const at = "2026-11-22T09:00:00.000Z"
	if _, err := old.Exec(`
		INSERT INTO users (id, username, created_at, updated_at) VALUES ('u1', 'alice', '` + at + `', '` + at + `');
		INSERT INTO workspaces (id, slug, name, timezone, created_at, updated_at) VALUES ('w1', 'default', 'Default', 'UTC', '` + at + `', '` + at + `');
		INSERT INTO tokens (id, prefix, hash, kind, title, user_id, scopes, revoked_at, created_at) VALUES
			('k-revoked', 'tend_aaaaaaaaaa', x'00', 'api_token', 'old', 'u1', '["*"]', '2026-11-23T10:00:00.000Z', '` + at + `'),
			('k-live', 'tend_bbbbbbbbbb', x'00', 'api_token', 'live', 'u1', '["*"]', NULL, '` + at + `');
		INSERT INTO calendars (id, prefix, hash, title, user_id, created_by_token, workspace_id, audience, created_at) VALUES
			('c-of-revoked', 'tend_cccccccccc', x'00', 'a', 'u1', 'k-revoked', 'w1', 'me', '` + at + `'),
			('c-of-live', 'tend_dddddddddd', x'00', 'b', 'u1', 'k-live', 'w1', 'me', '` + at + `'),
			('c-of-session', 'tend_eeeeeeeeee', x'00', 'c', 'u1', NULL, 'w1', 'me', '` + at + `');`); err != nil {
		t.Fatalf("seeding the 0014 database: %v", err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), path, store.Options{BackupDir: filepath.Join(dir, "backups")})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw := rawOpen(t, path)
	for id, want := range map[string]string{"c-of-revoked": "2026-11-23T10:00:00.000Z", "c-of-live": "", "c-of-session": ""} {
		var got string
		if err := raw.QueryRow(`SELECT coalesce(revoked_at, '') FROM calendars WHERE id = ?`, id).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("feed %s: revoked_at %q after the upgrade, want %q", id, got, want)
		}
	}
}
