package store_test

import (
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"tend/app"
	"tend/internal/golden"
	"tend/store"
	"tend/store/storetest"
)

// fakeS3 runs an S3-protocol server in the test (gofakes3) with one bucket
// and points the AWS credentials at it; it answers the replica URL for path.
func fakeS3(t testing.TB, path string) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("tend-test"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test-key-id")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret-key")
	// The store moves AWS_CA_BUNDLE aside (see replica_url.go); Setenv
	// puts the test's environment back when it ends.
	t.Setenv("AWS_CA_BUNDLE", os.Getenv("AWS_CA_BUNDLE"))
	t.Setenv("SSL_CERT_FILE", os.Getenv("SSL_CERT_FILE"))
	return "s3://tend-test/" + path + "?endpoint=" + url.QueryEscape(srv.URL)
}

// replicated opens a database replicating to replica, seeds it, and
// returns it open with its service and seed.
func replicated(t testing.TB, replica string) (*store.DB, *app.Service, seeded) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tend.db")
	s := seedDatabase(t, path)
	db, err := store.Open(t.Context(), path, store.Options{Replica: replica, ReplicaSyncInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db, app.New(db, app.Options{}), s
}

func TestReplicateAndRestore(t *testing.T) {
	for _, kind := range []string{"file", "s3"} {
		t.Run(kind, func(t *testing.T) {
			replica := "file://" + filepath.Join(t.TempDir(), "replica")
			if kind == "s3" {
				replica = fakeS3(t, "tend")
			}
			db, svc, s := replicated(t, replica)
			ctx := t.Context()
			if err := db.SyncReplica(ctx); err != nil {
				t.Fatal(err)
			}
			st, ok := db.Replication()
			if !ok || st.Failing || st.Errors != 0 || st.SyncedThrough.IsZero() || !strings.HasPrefix(st.Replica, kind+"://") || strings.Contains(st.Replica, "?") {
				t.Fatalf("Replication() = %+v, %v", st, ok)
			}
			mid := time.Now()
			addTasks(t, svc, s, "later", 4)
			if err := db.SyncReplica(ctx); err != nil {
				t.Fatal(err)
			}
			// Litestream's two tables are in the live file, and nothing else
			// of the schema changed.
			if !tableExists(t, db.Path(), "_litestream_lock") || !tableExists(t, db.Path(), "_litestream_seq") {
				t.Error("no _litestream_lock and _litestream_seq in a replicated database")
			}
			if want, got := readGolden(t), dumpSchema(t, db.Path()); got != want {
				t.Errorf("a replicated database's schema, Litestream's tables aside, differs from the golden:\n%s", golden.FirstDiff(want, got))
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}

			latest := filepath.Join(t.TempDir(), "latest.db")
			rep, err := store.RestoreReplica(ctx, replica, time.Time{}, latest)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Tasks != 9 || rep.Aside != "" || rep.From != st.Replica {
				t.Errorf("restore of the latest = %+v; want 9 tasks from %s", rep, st.Replica)
			}
			if got := len(taskTitles(t, latest)); got != 9 {
				t.Errorf("latest copy holds %d tasks, want 9", got)
			}
			if fi, err := os.Stat(latest); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("restored file: %v, %v; want mode 0600", fi, err)
			}

			earlier := filepath.Join(t.TempDir(), "earlier.db")
			if _, err := store.RestoreReplica(ctx, replica, mid, earlier); err != nil {
				t.Fatal(err)
			}
			if got := taskTitles(t, earlier); len(got) != 5 || strings.HasPrefix(got[len(got)-1], "later") {
				t.Errorf("copy as of before the later tasks holds %q; want the five before", got)
			}
		})
	}
}

func tableExists(t *testing.T, path, table string) bool {
	t.Helper()
	var n int
	if err := rawOpen(t, path).QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

func readGolden(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "schema.sql.golden"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A replica that cannot be written shows as failing, counted, and the
// server goes on; once it can be written it recovers.
func TestReplicationFailsAndRecovers(t *testing.T) {
	t.Parallel()
	blocked := storetest.Blocked(t)
	db, svc, s := replicated(t, "file://"+blocked)
	ctx := t.Context()
	// The server's own first round, right after Open, fails too: counts
	// are compared with the one before.
	var failed int64
	for range 2 {
		if err := db.SyncReplica(ctx); err == nil {
			t.Fatal("sync to a replica that is a file succeeded")
		}
		st, _ := db.Replication()
		if !st.Failing || st.Errors <= failed || st.LastError == "" || st.LastErrorAt.IsZero() || !st.SyncedThrough.IsZero() || st.Lag <= 0 {
			t.Errorf("after %d failed syncs: %+v", failed+1, st)
		}
		failed = st.Errors
	}
	addTasks(t, svc, s, "meanwhile", 2) // writes go on
	if err := os.Remove(blocked); err != nil {
		t.Fatal(err)
	}
	if err := db.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	// (The server's own first round may end late and count once more.)
	if st, _ := db.Replication(); st.Failing || st.Errors < failed || st.SyncedThrough.IsZero() {
		t.Errorf("after the replica came back: %+v", st)
	}
}

func TestReplicaURLRefusals(t *testing.T) {
	t.Setenv(store.EnvSFTPHostKey, "")
	t.Setenv(store.EnvSFTPPassword, "")
	t.Setenv(store.EnvSFTPKey, "")
	for _, tc := range []struct{ url, want string }{
		{"s3://key:hunter2@bucket/tend", "holds a password"},
		{"sftp://backup:hunter2@host/tend", "holds a password"},
		{"s3://bucket/tend?endpoint=http://key:hunter2@127.0.0.1:9000", "endpoint holds a password"},
		{"s3://bucket/tend?region=x&endpoint=" + url.QueryEscape("https://key:hunter2@s3.example.com"), "endpoint holds a password"},
		{"s3://bucket/tend?endpoint=ht%20tp://key:hunter2@host/%25zz", "endpoint \"ht tp://host/%zz\" does not parse"},
		{"s3://who@bucket/tend", "takes no user"},
		{"s3:///tend", "s3://bucket/path"},
		{"file://relative/replica", "file:///absolute/path"},
		{"file:replica", "file:///absolute/path"},
		{"gs://bucket/tend", "must be file, s3 or sftp"},
		{"/srv/replica", "must be file, s3 or sftp"},
		{"sftp://host/tend", "sftp://user@host"},
		{"sftp://backup@host/tend", store.EnvSFTPHostKey},
		{"ht tp://x:hunter2@host/%zz", "does not parse"},
	} {
		path := storetest.Migrated.Copy(t, filepath.Join(t.TempDir(), "tend.db"))
		db, err := store.Open(t.Context(), path, store.Options{Replica: tc.url})
		if err == nil {
			_ = db.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open with replica %q: %v; want an error saying %q, and no password", tc.url, err, tc.want)
		}
		if _, err := store.RestoreReplica(t.Context(), tc.url, time.Time{}, path); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("RestoreReplica from %q: %v; want %q", tc.url, err, tc.want)
		}
	}
	t.Setenv(store.EnvSFTPHostKey, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl")
	if _, err := store.Open(t.Context(), storetest.Migrated.Copy(t, filepath.Join(t.TempDir(), "tend.db")), store.Options{Replica: "sftp://backup@host/tend"}); err == nil || !strings.Contains(err.Error(), store.EnvSFTPPassword) {
		t.Errorf("an sftp replica without a password or key: %v", err)
	}
}

// Restoring from a replica that holds nothing says so, and leaves nothing.
func TestRestoreFromEmptyReplica(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "tend.db")
	_, err := store.RestoreReplica(t.Context(), "file://"+t.TempDir(), time.Time{}, path)
	if err == nil || !strings.Contains(err.Error(), "holds no database") {
		t.Errorf("restore from an empty replica: %v", err)
	}
	if m, _ := filepath.Glob(path + "*"); len(m) != 1 || m[0] != path+".lock" {
		t.Errorf("files left: %q; want only the lock file", m)
	}
}

// A database restored from a backup and served again with the same
// replica replaces, on the replica, the history it was restored over: a
// restore from the replica afterwards holds the backup's state and what
// was written since, none of what the backup undid.
func TestReplicateAfterRestore(t *testing.T) {
	t.Parallel()
	replica := "file://" + filepath.Join(t.TempDir(), "replica")
	db, svc, s := replicated(t, replica)
	backup := backupOf(t, db.Path())
	addTasks(t, svc, s, "undone", 3)
	if err := db.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := store.RestoreFile(t.Context(), backup, s.path); err != nil {
		t.Fatal(err)
	}
	again, err := store.Open(t.Context(), s.path, store.Options{Replica: replica, ReplicaSyncInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	addTasks(t, app.New(again, app.Options{}), s, "since", 2)
	if err := again.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "tend.db")
	if _, err := store.RestoreReplica(t.Context(), replica, time.Time{}, fresh); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(taskTitles(t, fresh), ","); got != "before 0,before 1,before 2,before 3,before 4,since 0,since 1" {
		t.Errorf("the replica after a restore holds %s", got)
	}
}
