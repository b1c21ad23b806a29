package store_test

import (
	"os"
	"path/filepath"
	"testing"

	"tend/app"
	"tend/store"
)

// TestUpgradeKeepsProjectsAndTasks opens a database written by the release
// before documents and search (schema 0003: one project, two tasks with a
// tag, a blocks link, a status change; testdata/upgrade-0003.sql, loaded
// into a file migrated to 0003) with this one: the upgrade keeps every row,
// indexes the old tasks for search, files the old events under their
// projects (a tag made by use under its item's) and marks the tags that
// were declared on purpose.
func TestUpgradeKeepsProjectsAndTasks(t *testing.T) {
	t.Parallel()
	seed, err := os.ReadFile(filepath.Join("testdata", "upgrade-0003.sql"))
	if err != nil {
		t.Fatal(err)
	}
	// Two tags as later releases recorded them: "made" by use on task 2
	// (its tag.created event followed by the task's own, same actor and
	// moment), "declared" on purpose an hour on, with nothing after it.
	path := atSchema(t, 3, string(seed), `
		INSERT INTO tags (id, workspace_id, name, description, created_at) VALUES
			('a0000000-0000-4000-8000-000000000001', '9f13c907-c5b5-4676-b832-7fae8eb0b482', 'made', NULL, '2026-11-22T09:10:00.000Z'),
			('a0000000-0000-4000-8000-000000000002', '9f13c907-c5b5-4676-b832-7fae8eb0b482', 'declared', NULL, '2026-11-22T10:10:00.000Z');
		INSERT INTO events (seq, id, workspace_id, entity_type, entity_id, action, actor_user_id, actor_interface, changes, item_ref, item_title, created_at) VALUES
			(10, 'b0000000-0000-4000-8000-000000000001', '9f13c907-c5b5-4676-b832-7fae8eb0b482', 'tag', 'a0000000-0000-4000-8000-000000000001', 'tag.created', 'db66b1a3-f471-40d6-b2d4-3ea23819b9b0', 'http', '{"name":"made"}', NULL, NULL, '2026-11-22T09:10:00.000Z'),
			(11, 'b0000000-0000-4000-8000-000000000002', '9f13c907-c5b5-4676-b832-7fae8eb0b482', 'task', '36c7b1bb-e91f-4c39-ad13-2d0b11501ee7', 'task.updated', 'db66b1a3-f471-40d6-b2d4-3ea23819b9b0', 'http', '{"tags":{"from":["ops"],"to":["made","ops"]}}', 2, 'Deploy the fix', '2026-11-22T09:10:00.002Z'),
			(12, 'b0000000-0000-4000-8000-000000000003', '9f13c907-c5b5-4676-b832-7fae8eb0b482', 'tag', 'a0000000-0000-4000-8000-000000000002', 'tag.created', 'db66b1a3-f471-40d6-b2d4-3ea23819b9b0', 'http', '{"name":"declared"}', NULL, NULL, '2026-11-22T10:10:00.000Z');
		INSERT INTO task_tags (task_id, tag_id) VALUES ('36c7b1bb-e91f-4c39-ad13-2d0b11501ee7', 'a0000000-0000-4000-8000-000000000001');`)
	if bs := upgrade(t, path); len(bs) != 1 || bs[0].SchemaHead != "0003_scope_revision" {
		t.Fatalf("the upgrade takes one backup at the old head first: %+v", bs)
	}
	raw := rawOpen(t, path)
	for query, want := range map[string]int{
		`SELECT count(*) FROM tasks`:                                                    2,
		`SELECT count(*) FROM task_tags`:                                                2,
		`SELECT count(*) FROM links`:                                                    1,
		`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'login session'`:          1,
		`SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'deploy'`:                 1,
		`SELECT count(*) FROM events WHERE entity_type = 'task' AND project_id IS NULL`: 0,
		`SELECT count(*) FROM events WHERE entity_type = 'task'`:                        5,
		`SELECT count(*) FROM tasks WHERE links_in + links_out = 1`:                     2,
		`SELECT auth_rev FROM instance`:                                                 0,
		// A tag made by use is filed in its item's project; one declared stays
		// workspace-wide and is marked declared; the seed's "ops" had no event.
		`SELECT count(*) FROM events WHERE seq = 10 AND project_id = 'c743913c-7d22-47c7-9827-a828d7344801'`: 1,
		`SELECT count(*) FROM events WHERE seq = 12 AND project_id IS NULL`:                                  1,
		`SELECT count(*) FROM tags WHERE declared = 1 AND name = 'declared'`:                                 1,
		`SELECT count(*) FROM tags WHERE declared = 1`:                                                       1,
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

// TestUpgradeEndsFeedsOfRevokedCredentials opens a database at schema 0014,
// where revoking a credential left the calendar feeds it created
// answering, with this release: a feed whose credential was revoked ends at
// the moment the credential did; a feed of a live credential, and one made
// in a browser session (no credential), stay as they were.
func TestUpgradeEndsFeedsOfRevokedCredentials(t *testing.T) {
	t.Parallel()
	const at = "2026-11-22T09:00:00.000Z"
	path := atSchema(t, 14, `
		INSERT INTO users (id, username, created_at, updated_at) VALUES ('u1', 'alice', '`+at+`', '`+at+`');
		INSERT INTO workspaces (id, slug, name, timezone, created_at, updated_at) VALUES ('w1', 'default', 'Default', 'UTC', '`+at+`', '`+at+`');
		INSERT INTO tokens (id, prefix, hash, kind, title, user_id, scopes, revoked_at, created_at) VALUES
			('k-revoked', 'tend_aaaaaaaaaa', x'00', 'api_token', 'old', 'u1', '["*"]', '2026-11-23T10:00:00.000Z', '`+at+`'),
			('k-live', 'tend_bbbbbbbbbb', x'00', 'api_token', 'live', 'u1', '["*"]', NULL, '`+at+`');
		INSERT INTO calendars (id, prefix, hash, title, user_id, created_by_token, workspace_id, audience, created_at) VALUES
			('c-of-revoked', 'tend_cccccccccc', x'00', 'a', 'u1', 'k-revoked', 'w1', 'me', '`+at+`'),
			('c-of-live', 'tend_dddddddddd', x'00', 'b', 'u1', 'k-live', 'w1', 'me', '`+at+`'),
			('c-of-session', 'tend_eeeeeeeeee', x'00', 'c', 'u1', NULL, 'w1', 'me', '`+at+`');`)
	upgrade(t, path)
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

// atSchema makes a database file migrated up to migration n holding what
// the statements insert, as a release of that schema left it, and returns
// its path.
func atSchema(t *testing.T, n int, statements ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tend.db")
	if err := store.MigrateTo(t.Context(), path, n); err != nil {
		t.Fatal(err)
	}
	old := rawOpen(t, path)
	for _, q := range statements {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("seeding the %04d database: %v", n, err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// upgrade opens path with this release, which migrates it, backing it up
// first beside it, and closes it; it returns the backups taken.
func upgrade(t *testing.T, path string) []app.Backup {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.Options{BackupDir: filepath.Join(filepath.Dir(path), "backups")})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := db.Backups(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return bs
}

// TestUpgradeKeepsNotifications opens a database at schema 0034 with the
// outbox holding a sent and a pending notification, the newest seq having
// been deleted, with this release, which makes the table again to allow
// clears: both rows come through whole, the pending one still due, and
// AUTOINCREMENT does not hand out the deleted seq again.
func TestUpgradeKeepsNotifications(t *testing.T) {
	t.Parallel()
	const at = "2026-11-22T09:00:00.000Z"
	path := atSchema(t, 34, `
		INSERT INTO users (id, username, created_at, updated_at) VALUES ('u1', 'alice', '`+at+`', '`+at+`');
		INSERT INTO channels (id, user_id, type, url, created_at) VALUES ('c1', 'u1', 'ntfy', 'https://ntfy.example/t', '`+at+`');
		INSERT INTO notifications (id, user_id, channel_id, kind, task_id, title, state, attempts, due_at, sent_at, created_at) VALUES
			('ntf_1', 'u1', 'c1', 'reminder', 't1', 'Renew passport', 'sent', 1, '`+at+`', '`+at+`', '`+at+`'),
			('ntf_2', 'u1', 'c1', 'digest', NULL, 'Today', 'pending', 0, '`+at+`', NULL, '`+at+`'),
			('ntf_3', 'u1', 'c1', 'test', NULL, 'Test', 'sent', 1, '`+at+`', '`+at+`', '`+at+`');
		DELETE FROM notifications WHERE id = 'ntf_3';`)
	upgrade(t, path)
	raw := rawOpen(t, path)
	for query, want := range map[string]int{
		`SELECT count(*) FROM notifications WHERE id = 'ntf_1' AND seq = 1 AND state = 'sent' AND task_id = 't1' AND clears IS NULL`: 1,
		`SELECT count(*) FROM notifications WHERE id = 'ntf_2' AND seq = 2 AND state = 'pending' AND due_at = '` + at + `'`:          1,
		`SELECT seq FROM sqlite_sequence WHERE name = 'notifications'`:                                                               3,
	} {
		var got int
		if err := raw.QueryRow(query).Scan(&got); err != nil || got != want {
			t.Errorf("%s: %d (%v), want %d", query, got, err, want)
		}
	}
	if _, err := raw.Exec(`INSERT INTO notifications (id, user_id, kind, title, due_at, created_at, clears)
		VALUES ('ntf_4', 'u1', 'clear', 'Renew passport', '` + at + `', '` + at + `', 'ntf_1')`); err != nil {
		t.Fatal(err)
	}
	var seq int
	if err := raw.QueryRow(`SELECT seq FROM notifications WHERE id = 'ntf_4'`).Scan(&seq); err != nil || seq != 4 {
		t.Fatalf("the next seq is %d (%v), want 4", seq, err)
	}
	if got := integrityCheck(t, path); got != "ok" {
		t.Fatalf("integrity_check after the upgrade: %s", got)
	}
}
