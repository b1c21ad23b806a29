package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	lsfile "github.com/benbjohnson/litestream/file"
	lssftp "github.com/benbjohnson/litestream/sftp"

	"tend/app"
)

// Continuous replication is Litestream (github.com/benbjohnson/litestream,
// pinned in go.mod: its library API is not stable), run inside the
// process on the same SQLite driver. Litestream keeps a read transaction
// open on its own connection so that the log cannot be started over before
// it has copied it, turns the log into LTX files in a directory beside the
// database (.<name>-litestream), checkpoints the log itself, and ships the
// LTX files to the replica, where compaction and snapshots keep about a day
// of history for point-in-time restore. It adds two tables of its own,
// _litestream_seq and _litestream_lock, which backups and restored copies
// carry. Litestream v0.5 keeps one replica per database (its maintainers
// removed multiple replicas as v0.5 needs one authority for the history),
// so tend takes one.
//
// Litestream's own monitors are off: tend runs the sync itself, so that it
// knows exactly what the replica holds. A round notes the time, copies the
// log into LTX files up to its end, and uploads them; when both succeed,
// every write committed before the noted time is on the replica
// (SyncedThrough). Rounds start early by their own length (see run), so an
// acknowledged write is off the machine about one interval after it was made.
//
// tend chooses when the log is checkpointed, not Litestream: under writes
// that never paused, Litestream's own writes (the creation of its tables,
// its checkpoints' barrier) lost SQLite's write lock to tend's writer again
// and again, replication failed and the log grew by every write (243 MB
// after 3,000 creates). Its tables are made on tend's writer before it
// starts, and its checkpoints run from the replication loop between two
// writes of tend's writer (replicate_checkpoint.go).

// DefaultReplicaSyncInterval is how often changes go to the replica unless
// Options.ReplicaSyncInterval says otherwise: Litestream's own default.
const DefaultReplicaSyncInterval = litestream.DefaultSyncInterval

// maxReplicaBackoff bounds the wait between attempts while the replica fails.
const maxReplicaBackoff = 30 * time.Second

// replicaShutdownSync bounds the last sync at Close, for a replica that is
// down when the server stops.
const replicaShutdownSync = 5 * time.Second

type replication struct {
	host     *DB // the database replicated, whose writer the checkpoints wait for
	store    *litestream.Store
	db       *litestream.DB
	replica  *litestream.Replica
	interval time.Duration
	log      *slog.Logger
	cancel   context.CancelFunc
	done     chan struct{}
	// The log's header as the loop last saw it change, and when: the loop's
	// alone reads and writes them.
	seenHdr walHeader
	seenAt  time.Time

	mu      sync.Mutex
	status  app.ReplicationStatus
	decided time.Time       // when the round that set status.Failing began
	said    map[string]bool // Litestream's warnings logged at their level since the state last changed
}

// startReplication starts replicating db to opts.Replica. The replica is
// not reached yet: a replica that is down delays nothing and shows in
// Replication and the log.
func startReplication(ctx context.Context, db *DB, opts Options) (*replication, error) {
	client, name, err := replicaClient(opts.Replica)
	if err != nil {
		return nil, err
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("replica", name)
	interval := opts.ReplicaSyncInterval
	if interval <= 0 {
		interval = DefaultReplicaSyncInterval
	}
	ldb := litestream.NewDB(db.path)
	r := litestream.NewReplicaWithClient(ldb, client)
	r.MonitorEnabled = false
	ldb.Replica = r
	if fc, ok := client.(*lsfile.ReplicaClient); ok {
		fc.Replica = r // the file replica then takes the database's owner and mode
	}
	if sc, ok := client.(*lssftp.ReplicaClient); ok {
		r.Client = connectLater{sc}
	}
	ls := litestream.NewStore([]*litestream.DB{ldb}, litestream.DefaultCompactionLevels)
	loopCtx, cancel := context.WithCancel(context.Background())
	rp := &replication{host: db, store: ls, db: ldb, replica: r, interval: interval, log: log, cancel: cancel, done: make(chan struct{}),
		status: app.ReplicationStatus{Replica: name, Since: time.Now().UTC()}}
	quiet := slog.New(litestreamLog{log.Handler(), rp})
	ls.Logger = quiet
	ldb.SetLogger(quiet)
	ldb.MonitorInterval = 0
	ldb.ShutdownSyncTimeout = replicaShutdownSync
	// The loop starts the log over by a quarter of tend's own limit (a tend
	// database has 4 KiB pages), so that it does so before the checkpointer of
	// another tend process on the file (tend mcp, say) would try a
	// TRUNCATE that Litestream's read transaction holds up, with every
	// writer behind it, for busy_timeout. Litestream's own checkpoints are
	// off, but for its TRUNCATE at the limit: should the loop's fail, the
	// log still does not grow without bound.
	if db.wal.start(db.path) != nil {
		ldb.MinCheckpointPageN = math.MaxInt32
		ldb.CheckpointInterval = 0
		ldb.TruncatePageN = int(max(db.walLimit/4096, int64(litestream.DefaultMinCheckpointPageN)))
		// A sync copies the log to its end as it was when the sync began,
		// in one go. In 64 MiB chunks (Litestream's default) a sync goes on
		// until it reaches the end, which writes faster than the copy push
		// away for ever, and the checkpoints that would bound the log wait
		// behind it: under a race-instrumented build, three minutes of
		// writes never saw the log start over.
		ldb.MaxSyncWALBytes = 0
		if err := db.litestreamTables(ctx); err != nil {
			cancel()
			return nil, fmt.Errorf("starting replication to %s: %w", name, err)
		}
	} else {
		// No view of the log's length (walindex_other.go): Litestream
		// checkpoints as it sees fit, truncating at half the limit.
		ldb.TruncatePageN = int(max(db.walLimit/2/4096, int64(litestream.DefaultMinCheckpointPageN)))
	}
	if err := ls.Open(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("starting replication to %s: %w", name, err)
	}
	go rp.run(loopCtx)
	log.Info("replicating", "interval", interval)
	return rp, nil
}

// run starts the rounds so that each ends about one interval after the
// start of the one before: a round starts early by twice the longest of
// the last few rounds' lengths, so a write committed just after a round
// noted its time is on the replica within one interval, not one interval
// plus a round, even when the next round runs up to twice as long as
// those (a loaded machine's fsync or a slow upload); a round that runs
// longer than the interval is followed at once. While the replica fails,
// attempts back off.
func (rp *replication) run(ctx context.Context) {
	defer close(rp.done)
	t := time.NewTimer(0)
	defer t.Stop()
	var backoff time.Duration
	var lengths [8]time.Duration // the last rounds' lengths, oldest overwritten
	// Checkpoints run in this loop, between rounds: never beside a round,
	// whose Litestream lock a checkpoint would wait for holding the writer.
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			rp.checkpoint(ctx)
			n--
			continue
		case <-t.C:
		}
		start := time.Now()
		err := rp.sync(ctx)
		lengths[n%len(lengths)] = time.Since(start)
		if err == nil {
			// A long round may have let the log grow past where the ticks
			// would have checkpointed it.
			rp.checkpoint(ctx)
		}
		wait := rp.interval - 2*slices.Max(lengths[:])
		if err != nil && ctx.Err() == nil {
			backoff = min(max(2*backoff, rp.interval), maxReplicaBackoff)
			wait = backoff
		} else {
			backoff = 0
		}
		t.Reset(max(wait-time.Since(start), 0))
	}
}

// sync runs one round: the log into LTX files, then the files to the replica.
func (rp *replication) sync(ctx context.Context) error {
	start := time.Now().UTC()
	err := rp.db.Sync(ctx)
	if err == nil {
		err = rp.replica.Sync(ctx)
	}
	if ctx.Err() != nil {
		return err
	}
	end := time.Now().UTC()
	rp.mu.Lock()
	// Rounds may overlap (SyncReplica beside the loop): the outcome of the
	// round that began last says whether replication fails, and a round
	// that began earlier but ended later only adds to the counts.
	latest := !start.Before(rp.decided)
	if latest {
		rp.decided = start
	}
	wasFailing := rp.status.Failing
	if err != nil {
		rp.status.Errors++
		rp.status.LastError = err.Error()
		rp.status.LastErrorAt = end
	} else {
		if start.After(rp.status.SyncedThrough) {
			rp.status.SyncedThrough = start
		}
		if end.After(rp.status.LastSync) {
			rp.status.LastSync = end
		}
	}
	if latest {
		rp.status.Failing = err != nil
	}
	if rp.status.Failing != wasFailing {
		rp.said = nil
	}
	failing, failed := rp.status.Failing, rp.status.Errors
	rp.mu.Unlock()
	// Logged when the state changes, not at every failed attempt.
	switch {
	case failing && !wasFailing:
		rp.log.Error("replication failing: changes stay on this machine until the replica can be reached", "err", err)
	case !failing && wasFailing:
		rp.log.Info("replication recovered", "failed_syncs", failed)
	}
	return err
}

// state is the status at now, with Lag measured then.
func (rp *replication) state(now time.Time) app.ReplicationStatus {
	rp.mu.Lock()
	st := rp.status
	rp.mu.Unlock()
	from := st.SyncedThrough
	if from.IsZero() {
		from = st.Since
	}
	st.Lag = max(now.Sub(from), 0)
	return st
}

// close stops the loop and Litestream, which makes a last sync first. The
// database's own pools must be closed by then (see DB.Close).
func (rp *replication) close() error {
	rp.cancel()
	<-rp.done
	ctx, cancel := context.WithTimeout(context.Background(), 2*replicaShutdownSync)
	defer cancel()
	if err := rp.store.Close(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("stopping replication: %w", err)
	}
	return nil
}

// Replication reports the state of continuous replication; ok is false when
// the database is not replicated.
func (db *DB) Replication() (st app.ReplicationStatus, ok bool) {
	repl := db.repl.Load()
	if repl == nil {
		return st, false
	}
	return repl.state(time.Now()), true
}

// SyncReplica runs a replication round now and waits for it: every write
// committed before the call is on the replica when it returns nil. Tests
// and benchmarks use it to know what the replica holds without waiting on
// the clock.
func (db *DB) SyncReplica(ctx context.Context) error {
	repl := db.repl.Load()
	if repl == nil {
		return errors.New("the database is not replicated")
	}
	return repl.sync(ctx)
}

// connectLater is an sftp replica client that connects at its first use
// instead of at Init: Litestream's Store.Open calls Init and fails when the
// host is down, which would keep the server from starting (a NAS that boots
// after the tend host). Every other call of the client connects first if it
// is not connected, so the first round fails like any round to a replica
// that is down, and the rounds after it connect once the host is up.
type connectLater struct{ *lssftp.ReplicaClient }

func (connectLater) Init(context.Context) error { return nil }

// news reports whether a warning or error of Litestream's, msg, is news
// to the log: replication is up (tend logged the change to failing itself,
// and before the first round there is nothing to tell yet) and msg was not
// logged since replication last changed state.
func (rp *replication) news(msg string) bool {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.status.Failing || rp.decided.IsZero() || rp.said[msg] {
		return false
	}
	if rp.said == nil {
		rp.said = map[string]bool{}
	}
	rp.said[msg] = true
	return true
}

// litestreamLog is the handler Litestream logs through. Its informational
// messages (a compaction every half minute, each snapshot) go to debug.
// While the replica fails, its monitors log the failure again on every
// round (compaction, retention: some 500 errors an hour), where tend's
// sync logs once that replication fails and once that it recovered; so a
// warning or error of Litestream's keeps its level only when it is news
// (see replication.news), and goes to debug when it repeats.
type litestreamLog struct {
	slog.Handler
	rp *replication
}

func (h litestreamLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level == slog.LevelInfo || r.Level > slog.LevelInfo && !h.rp.news(r.Message) {
		r.Level = slog.LevelDebug
		if !h.Handler.Enabled(ctx, r.Level) {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h litestreamLog) Enabled(ctx context.Context, l slog.Level) bool {
	return l == slog.LevelInfo || h.Handler.Enabled(ctx, l)
}

func (h litestreamLog) WithAttrs(as []slog.Attr) slog.Handler {
	return litestreamLog{h.Handler.WithAttrs(as), h.rp}
}

func (h litestreamLog) WithGroup(name string) slog.Handler {
	return litestreamLog{h.Handler.WithGroup(name), h.rp}
}
