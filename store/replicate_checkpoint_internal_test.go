package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
)

// TestReplicatedLogStaysBounded: under writes that never pause, four
// writers one after another on the writer, a replicated database's log
// starts over (the replication loop checkpoints it; it once grew by every
// write), no
// round of replication fails (Litestream's own writes once lost the write
// lock to them until they timed out), and every acknowledged write is on
// the replica after one more round. The test waits for the log to start
// over, however long the machine takes, rather than for a time.
func TestReplicatedLogStaysBounded(t *testing.T) {
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	db := openMigrated(t, "t.db", Options{Replica: replica, WALLimit: 16 << 20})
	ctx := context.Background()
	if _, err := db.write.ExecContext(ctx, "CREATE TABLE burst (id INTEGER PRIMARY KEY, b BLOB)"); err != nil {
		t.Fatal(err)
	}
	if db.wal.view == nil {
		t.Skip("no view of the log's header on this system")
	}
	var stop atomic.Bool
	var acked atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				err := db.Update(ctx, func(tx app.Tx) error {
					_, err := tx.(*Tx).tx.ExecContext(ctx, "INSERT INTO burst (b) VALUES (randomblob(8000))")
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				acked.Add(1)
			}
		}()
	}
	// Once: a race-instrumented Litestream copies slowly, and every round
	// more of writes that never pause makes the database the final sync
	// at Close works on larger (CI's full run once took Close past its
	// shutdown budget after three).
	want := 1
	restarts, last := 0, uint32(0)
	for deadline := time.Now().Add(3 * time.Minute); restarts < want; {
		if time.Now().After(deadline) {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("the log started over %d times in 3 minutes of writes (%d acknowledged); want %d", restarts, acked.Load(), want)
		}
		h, ok := db.wal.view.header()
		if ok {
			if h.mxFrame() < last {
				restarts++
			}
			last = h.mxFrame()
		}
		time.Sleep(5 * time.Millisecond) // polls the header; nothing waits on the clock
	}
	stop.Store(true)
	wg.Wait()
	if err := db.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := db.Replication(); st.Errors != 0 || st.Failing {
		t.Errorf("replication under the burst: %+v; want no failed round", st)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	restored := filepath.Join(t.TempDir(), "restored.db")
	if _, err := RestoreReplica(ctx, replica, time.Time{}, restored); err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", restored)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var n int64
	if err := c.QueryRow("SELECT count(*) FROM burst").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != acked.Load() {
		t.Errorf("the replica holds %d of the %d acknowledged writes", n, acked.Load())
	}
}
