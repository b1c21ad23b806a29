package store

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
)

var statsEpoch = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// openStats opens a database on a fixed clock with the writer's wait
// counted, and bootstraps it; it returns the administrator's id.
func openStats(tb testing.TB, waits *atomic.Int64) (*DB, string) {
	tb.Helper()
	db := openMigrated(tb, "t.db", Options{OnWriterWait: func(d time.Duration) {
		if d < 0 {
			tb.Errorf("a negative wait: %v", d)
		}
		waits.Add(1)
	}})
	db.Now = func() time.Time { return statsEpoch }
	first, err := app.New(db, app.Options{}).Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "UTC"})
	if err != nil {
		tb.Fatal(err)
	}
	return db, first.Admin.ID
}

// addSessions inserts n sessions of user, each open until until.
func addSessions(tb testing.TB, db *DB, user string, n int, until time.Time, revoked bool) {
	tb.Helper()
	var rev any
	if revoked {
		rev = fmtTime(statsEpoch)
	}
	_, err := db.write.ExecContext(context.Background(), `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
		INSERT INTO sessions (id, prefix, hash, user_id, last_seen_at, idle_until, expires_at, revoked_at, created_at)
		SELECT hex(randomblob(16)), hex(randomblob(8)), randomblob(32), ?, ?, ?, ?, ?, ? FROM n`,
		n, user, fmtTime(statsEpoch), fmtTime(until), fmtTime(until), rev, fmtTime(statsEpoch))
	if err != nil {
		tb.Fatal(err)
	}
}

func TestOpenSessions(t *testing.T) {
	var waits atomic.Int64
	db, admin := openStats(t, &waits)
	addSessions(t, db, admin, 3, statsEpoch.Add(time.Hour), false)
	addSessions(t, db, admin, 2, statsEpoch.Add(time.Hour), true)
	addSessions(t, db, admin, 4, statsEpoch.Add(-time.Second), false)
	addSessions(t, db, admin, 1, statsEpoch, false) // ends at this very instant
	n, err := db.OpenSessions(t.Context())
	if err != nil || n != 3 {
		t.Fatalf("OpenSessions = %d, %v; want the 3 neither revoked nor expired", n, err)
	}
}

func TestFileSizesAndNewestBackup(t *testing.T) {
	var waits atomic.Int64
	db, _ := openStats(t, &waits)
	dbBytes, walBytes, err := db.FileSizes()
	fi, serr := os.Stat(db.path)
	if err != nil || serr != nil || dbBytes != fi.Size() || dbBytes == 0 || walBytes < 0 {
		t.Fatalf("FileSizes = %d, %d, %v; the file is %d bytes (%v)", dbBytes, walBytes, err, fi.Size(), serr)
	}

	if _, ok, err := db.NewestBackup(); ok || err != nil {
		t.Fatalf("NewestBackup before any: ok %v, %v", ok, err)
	}
	if _, err := db.Backup(t.Context(), app.BackupRoutine, 0); err != nil {
		t.Fatal(err)
	}
	later := statsEpoch.Add(time.Hour)
	db.Now = func() time.Time { return later }
	if _, err := db.Backup(t.Context(), app.BackupUpgrade, 0); err != nil {
		t.Fatal(err)
	}
	// Neither a file of another name nor a directory of a backup's name counts.
	if err := os.WriteFile(filepath.Join(db.backupDir, "tend-20990101T000000.000Z-routine-notes.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(db.backupDir, backupName(later.Add(time.Hour), app.BackupRoutine, "x")), 0o700); err != nil {
		t.Fatal(err)
	}
	at, ok, err := db.NewestBackup()
	if !ok || err != nil || !at.Equal(later) {
		t.Fatalf("NewestBackup = %v, %v, %v; want the upgrade copy at %v", at, ok, err, later)
	}
}

// TestWriterWaitHeard: every write request reports its wait for the writer
// once, and one queued behind a write in progress is counted as waiting
// until the writer is free.
func TestWriterWaitHeard(t *testing.T) {
	var waits atomic.Int64
	db, _ := openStats(t, &waits)
	before := waits.Load()
	if before == 0 {
		t.Fatal("the first start's writes were not heard")
	}
	hold, holding := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		_ = db.Update(t.Context(), func(app.Tx) error {
			close(holding)
			<-hold
			return nil
		})
	})
	<-holding
	wg.Go(func() { _ = db.Update(t.Context(), func(app.Tx) error { return nil }) })
	for db.WritersWaiting() != 1 {
		time.Sleep(time.Millisecond) // the second request reaching the writer's queue
	}
	close(hold)
	wg.Wait()
	if got := waits.Load() - before; got != 2 {
		t.Errorf("%d waits heard for 2 write requests", got)
	}
	if n := db.WritersWaiting(); n != 0 {
		t.Errorf("WritersWaiting = %d after both finished", n)
	}
}

// BenchmarkOpenSessions counts the open sessions among 100,000 that
// accumulated over the years (sessions are kept after they end): 100 open,
// the rest expired or revoked.
func BenchmarkOpenSessions(b *testing.B) {
	var waits atomic.Int64
	db, admin := openStats(b, &waits)
	addSessions(b, db, admin, 100, statsEpoch.Add(time.Hour), false)
	addSessions(b, db, admin, 89_900, statsEpoch.Add(-time.Hour), false)
	addSessions(b, db, admin, 10_000, statsEpoch.Add(time.Hour), true)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if n, err := db.OpenSessions(ctx); err != nil || n != 100 {
			b.Fatalf("OpenSessions = %d, %v", n, err)
		}
	}
}
