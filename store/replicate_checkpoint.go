package store

import (
	"context"
	"math"
	"os"
	"time"

	"github.com/benbjohnson/litestream"
)

// Checkpoints while replicating.
//
// Litestream must see every frame of the log before the log starts over,
// and it makes sure of it with a read transaction it holds from one of its
// checkpoints to the next. Begun just after a checkpoint, when every frame
// is in the database file, that transaction reads the file alone (SQLite's
// read-mark 0), which keeps every other connection from copying frames
// into it: between two checkpoints of Litestream's, no frame can be
// copied. Its checkpoint copies them while it holds SQLite's write lock (a
// barrier write it rolls back, so that no frame lands between its last
// copy of the log and the checkpoint), which tend gives it between two
// writes of its writer, rather than let it poll for the lock against a
// writer that never lets go (its checkpoints then failed and the log grew
// by every write). What can move off the writer does: the log's flush to
// disk and its copy into LTX files run first, beside the writes.

// checkpoint copies the log into the database file once it has grown by
// restartSize since it last started over, while the writes have paused:
// nobody waits for it then but a request that comes during it. Under
// writes that never pause the log grows to replicaForceSize first, and is
// checkpointed between two writes all the same, so that it stays bounded.
func (rp *replication) checkpoint(ctx context.Context) {
	if rp.db.MinCheckpointPageN != math.MaxInt32 {
		return // Litestream checkpoints itself (startReplication)
	}
	h, ok := rp.host.wal.view.header()
	if !ok {
		return
	}
	size := int64(h.mxFrame()) * (4096 + 24)
	if size < restartSize {
		return
	}
	// Quiet: nothing committed for a tick. A checkpoint in a writer that
	// is idle only between two requests of a client that never pauses
	// would hold its next request back.
	now := time.Now()
	if h != rp.seenHdr {
		rp.seenHdr, rp.seenAt = h, now
	}
	quiet := now.Sub(rp.seenAt) >= checkpointEvery
	force := size >= replicaForceSize(rp.host.walLimit)
	if !force && (!quiet || !rp.host.w.idle()) {
		return
	}
	var err error
	run := func() { err = rp.db.Checkpoint(ctx, litestream.CheckpointModePassive) }
	defer func() {
		if err != nil && ctx.Err() == nil {
			rp.log.Debug("checkpoint failed", "err", err)
		}
	}()
	if size >= rp.host.walLimit {
		// Writes come faster than Litestream copies them (or its
		// checkpoints were skipped while it read a snapshot): the copy
		// runs holding writes back, so that the log stays bounded at the
		// cost of a pause rather than outgrowing every later copy.
		rp.host.betweenWrites(func() {
			if err = rp.db.Sync(ctx); err == nil {
				run()
			}
		})
		return
	}
	// The log is flushed to disk and copied into LTX files beside the
	// writes: what the checkpoint flushes and copies while it holds them
	// back is only what was written since.
	rp.host.syncLog()
	if err = rp.db.Sync(ctx); err != nil {
		return
	}
	if force {
		rp.host.betweenWrites(run)
	} else {
		rp.host.whenIdle(run)
	}
}

// litestreamTables makes Litestream's two tables, as Litestream would
// (the same statements), on the writer between two writes: Litestream's
// own connection, making them while writes never paused, lost the write
// lock to them until its busy timeout ran out, and failed to start.
func (db *DB) litestreamTables(ctx context.Context) error {
	var err error
	db.betweenWrites(func() {
		upkeep := context.WithValue(ctx, uncounted{}, true)
		for _, q := range []string{
			`CREATE TABLE IF NOT EXISTS _litestream_seq (id INTEGER PRIMARY KEY, seq INTEGER);`,
			`CREATE TABLE IF NOT EXISTS _litestream_lock (id INTEGER);`,
		} {
			if _, err = db.write.ExecContext(upkeep, q); err != nil {
				return
			}
		}
	})
	return err
}

// replicaForceSize is the log's length past which the replication loop
// checkpoints it without waiting for the writes to pause: a quarter of
// its limit, so that a page written many times is copied once rather than
// at each of many checkpoints.
func replicaForceSize(walLimit int64) int64 { return max(walLimit/4, restartSize) }

// syncLog flushes the log to disk beside the writes. SQLite's checkpoint
// flushes it first (a log written at synchronous=NORMAL is not flushed at
// each commit), which for tens of MiB of log took most of the checkpoint's
// hold on the writer: flushed here first, the checkpoint's own flush has
// only the frames written since.
func (db *DB) syncLog() {
	f, err := os.Open(db.path + "-wal")
	if err != nil {
		return
	}
	_ = f.Sync()
	_ = f.Close()
}
