package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"tend/app"
)

// DB is an open tend database. It implements app.Store.
type DB struct {
	path       string
	backupDir  string
	lock       *fileLock                   // the shared lock every open database holds (lock.go)
	repl       atomic.Pointer[replication] // continuous replication, when Options.Replica names one or once promoted (replicate.go)
	follow     *follower                   // the replica followed, when Options.Follow names one (follow.go)
	write      *sqlx.DB
	read       *sqlx.DB
	auth       *sqlx.DB
	bulk       *sqlx.DB // long reads (Scan): apart from the request readers, not mapping the file
	maint      *sqlx.DB
	revision   string
	backupMu   sync.Mutex
	stop       chan struct{}
	done       chan struct{}
	closeOnce  sync.Once
	queries    atomic.Int64                // statements run on the reader, token-check and writer pools
	caches                                 // every cache, with what invalidates it: cache.go
	wal        walWatch                    // whether anything was committed since auth_rev was read: walindex.go
	writerConn atomic.Pointer[cachingConn] // the writer pool's one connection (ownCommit)
	// betweenCommitAndHeader, set by tests, runs after a commit and before
	// afterCommit reads the header: where another process's commit falls.
	betweenCommitAndHeader func()
	walLimit               int64
	seenFrames             int // the log's length at the checkpointer's last pass; only it touches this
	w                      writer
	full                   atomic.Bool           // the last write was refused for want of space (space.go)
	fullErr                atomic.Pointer[error] // that refusal
	maxPages               atomic.Int64          // the cap LimitPages set; 0 for SQLite's own
	onStorage              func(full bool, err error)

	onWriterWait func(time.Duration) // Options.OnWriterWait

	// Now is the clock every transaction reads once; tests replace it.
	Now func() time.Time
}

// Options configures Open.
type Options struct {
	// BackupDir is where backups go; default "backups" beside the database.
	BackupDir string
	// Readers is the size of the read pool; default max(4, NumCPU).
	Readers int
	// WALLimit is the size of the write-ahead log above which the background
	// checkpointer truncates it; default 64 MiB.
	WALLimit int64
	// OnStorage hears when writes start being refused for want of space
	// (full, with the refusal) and when they succeed again; once per change.
	OnStorage func(full bool, err error)
	// Synchronous is SQLite's synchronous setting: SyncNormal (the default)
	// or SyncFull. See SyncFull.
	Synchronous string
	// Replica, when set, is where the database is replicated continuously
	// with Litestream: a file:///path, s3://bucket/path or sftp://user@host/path
	// URL (replicate.go). Credentials come from the environment only.
	Replica string
	// ReplicaSyncInterval is how often changes are shipped to the replica;
	// default DefaultReplicaSyncInterval.
	ReplicaSyncInterval time.Duration
	// Log hears what replication reports (its failures and recoveries, and
	// Litestream's own messages); nil discards them.
	Log *slog.Logger
	// OnWriterWait hears, for every write request, how long it waited for
	// the writer connection (writer.go) before its work could start.
	OnWriterWait func(time.Duration)
	// Follow, when set, makes the store a read-only standby that follows
	// the primary's replica at this URL (the schemes of Replica) into its
	// own file, restored from the replica when it does not exist yet; see
	// follow.go and Promote. It takes no Replica: Promote names it.
	Follow string
	// FollowInterval is how often a standby asks the replica for new
	// changes; default DefaultFollowInterval.
	FollowInterval time.Duration
	// PrimaryURL is the primary's address, named in a standby's refusals.
	PrimaryURL string
}

// The synchronous settings. In WAL mode NORMAL syncs the log only when it
// is checkpointed: a commit that was acknowledged survives the process
// being killed (the log is in the operating system's hands), but the last
// commits before a power loss or a kernel crash may be lost, never
// half-applied. FULL syncs the log at every commit, so an acknowledged
// write survives power loss too, at the cost of an fsync per commit
// (shared by the requests of a group commit; see writer.go).
const (
	SyncNormal = "normal"
	SyncFull   = "full"
)

// checkpointEvery is how often the WAL is checkpointed in the background.
// Auto-checkpointing is off on the writer because it runs inside whichever
// COMMIT crosses the threshold and makes that request slow.
const checkpointEvery = 250 * time.Millisecond

// Open opens (creating if needed) the database at path, migrates it, and
// starts the background checkpointer, or, with Options.Replica, continuous
// replication, which then owns checkpoints. A database written by a newer
// tend is refused with app.CodeSchemaTooNew; before pending migrations run
// on an existing database a backup is taken for the upgrade. While a
// restore replaces the file, Open is refused with app.CodeBusy. With
// Options.Follow the store is a standby (follow.go): it never migrates, and
// refuses a file of another schema than this binary's.
func Open(ctx context.Context, path string, opts Options) (db *DB, err error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("database path %q must not contain '?' or '#'", path)
	}
	level, err := syncPragma(opts.Synchronous)
	if err != nil {
		return nil, err
	}
	var note followNote
	if opts.Follow == "" {
		if err := notStandby(path); err != nil {
			return nil, err
		}
	} else {
		if opts.Replica != "" {
			return nil, errors.New("a standby does not replicate while it follows: name the replica when promoting it")
		}
		if note, err = prepareFollow(ctx, path, opts); err != nil {
			return nil, err
		}
	}
	if opts.BackupDir == "" {
		opts.BackupDir = filepath.Join(filepath.Dir(path), "backups")
	}
	if err := makeDatabaseDir(path); err != nil {
		return nil, err
	}
	lock, err := lockShared(path)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			_ = lock.release()
		}
	}()
	if err := ownFile(path); err != nil {
		return nil, err
	}
	if err := narrowSidecars(path); err != nil {
		return nil, err
	}
	if opts.WALLimit <= 0 {
		opts.WALLimit = 64 << 20
	}
	db = &DB{path: path, backupDir: opts.BackupDir, lock: lock, walLimit: opts.WALLimit, onStorage: opts.OnStorage, onWriterWait: opts.OnWriterWait, Now: time.Now, stop: make(chan struct{}), done: make(chan struct{})}
	if db.write, err = openCachingPool(ctx, path, writerPragmas(level), 1, &db.queries, &db.writerConn, true); err != nil {
		return nil, err
	}
	// The maintenance connection checkpoints in the background: a command
	// that is done before the first tick never makes it (see Close).
	if db.maint, err = sqlx.Open("sqlite", path+"?"+basePragmas(level).Encode()); err != nil {
		_ = db.write.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	sizePool(db.maint, 1)
	migrate := db.migrate
	if opts.Follow != "" {
		migrate = db.sameVersion
	}
	if err := migrate(ctx); err != nil {
		_ = db.write.Close()
		_ = db.maint.Close()
		return nil, err
	}
	n := opts.Readers
	if n <= 0 {
		n = max(4, runtime.NumCPU())
	}
	aq := basePragmas(level)
	aq.Add("_pragma", "query_only(1)")
	// The token check runs on connections of its own that do not map the
	// file. A reader that maps it unmaps the whole mapping whenever the
	// database changed since its last read (SQLite's pagerBeginReadTransaction),
	// and the munmap, with the page faults after it, cost the check after
	// every write more than the handful of pages it reads.
	if db.auth, err = openCachingPool(ctx, path, aq, n, &db.queries, nil, false); err != nil {
		_ = db.write.Close()
		_ = db.maint.Close()
		return nil, err
	}
	rq := basePragmas(level)
	rq.Add("_pragma", "query_only(1)")
	// Readers map the file rather than read(2) each page: a page of tasks
	// touches pages all over the indexes, and every commit empties each
	// connection's own page cache.
	rq.Add("_pragma", "mmap_size(268435456)")
	if db.read, err = openCachingPool(ctx, path, rq, n, &db.queries, nil, false); err != nil {
		_ = db.write.Close()
		_ = db.maint.Close()
		_ = db.auth.Close()
		return nil, err
	}
	bq := basePragmas(level)
	bq.Add("_pragma", "query_only(1)")
	// Scans (exports, dumps) are rare: like the readers, their connections
	// are made on first use, as each parses the whole schema when it opens.
	if db.bulk, err = sqlx.Open("sqlite", path+"?"+bq.Encode()); err != nil {
		_ = errors.Join(db.read.Close(), db.auth.Close(), db.write.Close(), db.maint.Close())
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	sizePool(db.bulk, 2)
	if opts.Replica != "" {
		repl, err := startReplication(ctx, db, opts)
		if err != nil {
			_ = errors.Join(db.read.Close(), db.auth.Close(), db.bulk.Close(), db.write.Close(), db.maint.Close())
			return nil, err
		}
		db.repl.Store(repl)
	}
	if opts.Follow != "" {
		if db.follow, err = startFollowing(ctx, db, opts, note); err != nil {
			_ = errors.Join(db.read.Close(), db.auth.Close(), db.bulk.Close(), db.write.Close(), db.maint.Close())
			return nil, err
		}
	}
	go db.checkpointLoop()
	return db, nil
}

// basePragmas go in the DSN so that every pooled connection gets them; an
// Exec would set them on one connection only. busy_timeout comes first
// because the later ones may need to wait for a lock.
func basePragmas(level string) url.Values {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous("+level+")")
	q.Add("_pragma", "journal_mode(WAL)")
	return q
}

// syncPragma is the pragma's value for an Options.Synchronous.
func syncPragma(setting string) (string, error) {
	switch strings.ToLower(setting) {
	case "", SyncNormal:
		return "NORMAL", nil
	case SyncFull:
		return "FULL", nil
	}
	return "", fmt.Errorf("synchronous must be %q or %q, not %q", SyncNormal, SyncFull, setting)
}

func writerPragmas(level string) url.Values {
	q := basePragmas(level)
	q.Add("_pragma", "wal_autocheckpoint(0)")
	q.Add("_pragma", "journal_size_limit(67108864)")
	// Each request of a shared transaction runs in a savepoint (writer.go),
	// whose journal of original pages spills to a temporary file past 64 KiB:
	// a write(2) per page, in the critical section. In memory it stays.
	q.Add("_pragma", "temp_store(MEMORY)")
	q.Set("_txlock", "immediate")
	return q
}

func openPool(ctx context.Context, path string, q url.Values, conns int) (*sqlx.DB, error) {
	p, err := sqlx.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return setUpPool(ctx, path, p, conns)
}

// openCachingPool is openPool for the reader and writer pools: their
// connections keep their prepared statements (see stmtcache.go) and count
// the statements they run into queries; last, when set, follows the
// connection made last (the writer's). Unless check is set, the pool
// connects on its first use, not here: every connection parses the whole
// schema as it opens (about 2 ms of a one-shot command such as tend ls),
// and a command that never checks a credential needs no token-check
// connection. The writer, opened first and checked, has put the file in
// WAL mode, which the file keeps for every connection after it.
func openCachingPool(ctx context.Context, path string, q url.Values, conns int, queries *atomic.Int64, last *atomic.Pointer[cachingConn], check bool) (*sqlx.DB, error) {
	c, err := sqlite.NewConnector(path + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	p := sqlx.NewDb(sql.OpenDB(cachingConnector{Connector: c, queries: queries, last: last}), "sqlite")
	if !check {
		sizePool(p, conns)
		return p, nil
	}
	return setUpPool(ctx, path, p, conns)
}

// sizePool holds conns connections open once made, for good.
func sizePool(p *sqlx.DB, conns int) {
	p.SetMaxOpenConns(conns)
	p.SetMaxIdleConns(conns)
	p.SetConnMaxIdleTime(0)
	p.SetConnMaxLifetime(0)
}

// setUpPool sizes a pool and checks that it is in WAL mode.
func setUpPool(ctx context.Context, path string, p *sqlx.DB, conns int) (*sqlx.DB, error) {
	sizePool(p, conns)
	var mode string
	if err := p.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if mode != "wal" {
		_ = p.Close()
		return nil, fmt.Errorf("opening %s: journal mode is %q, want wal", path, mode)
	}
	return p, nil
}

// Close stops the checkpointer, runs a last checkpoint and closes every
// pool. The last checkpoint truncates the log only when nothing else has
// the database open: a TRUNCATE holds off every writer until all readers
// are done with the log, and the read transaction a replicating server
// keeps open never is, so a command closing beside it would stop that
// server's writes for busy_timeout. While replicating, Litestream owns
// checkpoints: the pools are closed first (Litestream's connection must be
// the last one on the file), then replication makes its last sync and
// stops. The -shm mapping goes after every connection (walindex.go), the
// lock last.
func (db *DB) Close() error {
	var err error
	db.closeOnce.Do(func() {
		close(db.stop)
		<-db.done
		if db.follow != nil && db.follow.following.Load() {
			db.follow.stop()
			err = db.follow.conn.Close()
		}
		repl := db.repl.Load()
		if repl == nil && db.lock.alone() {
			// On the writer, which is open already and idle now: the
			// maintenance connection would parse the schema to open.
			upkeep := context.WithValue(context.Background(), uncounted{}, true)
			db.betweenWrites(func() { _, _ = db.write.ExecContext(upkeep, "PRAGMA wal_checkpoint(TRUNCATE)") })
		}
		err = errors.Join(err, db.read.Close(), db.auth.Close(), db.bulk.Close(), db.write.Close(), db.maint.Close(), db.wal.closeAnchor())
		if repl != nil {
			err = errors.Join(err, repl.close())
		}
		err = errors.Join(err, db.wal.unmap())
		err = errors.Join(err, db.lock.release())
	})
	return err
}

func (db *DB) checkpointLoop() {
	defer close(db.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.stop:
			return
		case <-t.C:
			// Litestream holds a read transaction open to keep the log
			// from being started over under it, and checkpoints itself:
			// a TRUNCATE here would wait out busy_timeout holding the writer.
			if db.repl.Load() == nil {
				db.checkpoint()
			}
			if db.full.Load() {
				db.probeRoom()
			}
		}
	}
}

// restartSize is the size of the log past which the writer is taken to
// finish a checkpoint (see checkpoint).
const restartSize = 4 << 20

// checkpoint copies the WAL back into the database. A PASSIVE checkpoint on
// the maintenance connection never waits and never holds up a write, but
// under writes that never pause it never catches up with the end of the
// log, and SQLite starts the log over only when a write begins with every
// frame copied: the log would grow until its size limit forced a long stop
// of every write. So once the log is of some size and a pass had work to
// do, the writer is taken between transactions to copy the rest, which is
// only what was written during the pass, and the next write starts the log
// over. Past the size limit the log is truncated there too (waiting, within
// busy_timeout, for readers of older snapshots).
func (db *DB) checkpoint() {
	var busy, frames, copied int
	if err := db.maint.QueryRow("PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &frames, &copied); err != nil {
		return
	}
	// Nothing written since the last pass: the writer has nothing to finish.
	written := copied > 0 && frames != db.seenFrames
	db.seenFrames = frames
	if written {
		// A second pass copies what was written during the first, so that
		// what is left for the writer to wait on is smaller still.
		_, _ = db.maint.Exec("PRAGMA wal_checkpoint(PASSIVE)")
	}
	fi, err := os.Stat(db.path + "-wal")
	if err != nil {
		return
	}
	tooBig := fi.Size() > db.walLimit
	if !tooBig && (!written || fi.Size() < restartSize) {
		return
	}
	mode := "PASSIVE"
	if tooBig {
		mode = "TRUNCATE"
	}
	upkeep := context.WithValue(context.Background(), uncounted{}, true)
	db.betweenWrites(func() { _, _ = db.write.ExecContext(upkeep, "PRAGMA wal_checkpoint("+mode+")") })
}

// QueryCount is how many statements the reader, token-check and writer
// pools have run since Open (each run passes through the statement cache
// once; BEGIN, COMMIT and checkpoints are not counted). Tests use it to show
// that a request costs a fixed number of queries.
func (db *DB) QueryCount() int64 { return db.queries.Load() }

// Path is the database file's path.
func (db *DB) Path() string { return db.path }

// SearchBackend names the full-text engine: SQLite's FTS5, words split by
// the unicode61 tokenizer (case and accents folded), ranked by BM25.
func (db *DB) SearchBackend() string { return "sqlite-fts5 (unicode61, bm25)" }

// SchemaRevision names the newest migration applied, such as "0001_init".
func (db *DB) SchemaRevision() string { return db.revision }

// Tx is one transaction. It implements app.Tx.
type Tx struct {
	tx       txConn
	now      time.Time
	onCommit []func()
	db       *DB
	// imp is an import under way (load.go).
	imp *importing
}

// Now is the transaction's clock.
func (t *Tx) Now() time.Time { return t.now }

// OnCommit runs f after the transaction commits, never if it rolls back.
func (t *Tx) OnCommit(f func()) { t.onCommit = append(t.onCommit, f) }

// View runs fn in a read-only transaction on the reader pool.
func (db *DB) View(ctx context.Context, fn func(app.Tx) error) error {
	return db.view(ctx, db.read, fn)
}

// Scan runs fn in a read-only transaction for a long read, such as an
// export, on two connections of its own: it holds none of the readers
// requests wait for while it runs, and it reads the file rather than
// mapping it, so the process does not grow by every page it passes over.
func (db *DB) Scan(ctx context.Context, fn func(app.Tx) error) error {
	return db.view(ctx, db.bulk, fn)
}

func (db *DB) view(ctx context.Context, pool *sqlx.DB, fn func(app.Tx) error) (err error) {
	stx, err := pool.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return mapErr(err)
	}
	tx := &Tx{tx: txConn{tx: stx, revs: &revsRead{}}, now: db.Now().UTC().Truncate(time.Millisecond), db: db}
	defer func() {
		if p := recover(); p != nil {
			_ = stx.Rollback()
			panic(p)
		}
		if err != nil {
			_ = stx.Rollback()
			return
		}
		if err = mapErr(stx.Commit()); err == nil {
			for _, f := range tx.onCommit {
				f()
			}
		}
	}()
	return mapErr(fn(tx))
}

// getRow reads the one row query finds into the row struct R and makes the
// domain record of it with conv; no row is not_found.
func getRow[R, T any](ctx context.Context, t *Tx, conv func(R) T, query string, args ...any) (T, error) {
	return getRowChecked(ctx, t, sure(conv), query, args...)
}

// getRowChecked is getRow for a record whose making can fail, as reading
// a JSON column can.
func getRowChecked[R, T any](ctx context.Context, t *Tx, conv func(R) (T, error), query string, args ...any) (T, error) {
	var r R
	if err := t.tx.GetContext(ctx, &r, query, args...); err != nil {
		var zero T
		return zero, mapErr(err)
	}
	return conv(r)
}

// selectRows reads the rows query finds into row structs R and makes the
// domain record of each with conv.
func selectRows[R, T any](ctx context.Context, t *Tx, conv func(R) T, query string, args ...any) ([]T, error) {
	return selectRowsChecked(ctx, t, sure(conv), query, args...)
}

// selectRowsChecked is selectRows for records whose making can fail.
func selectRowsChecked[R, T any](ctx context.Context, t *Tx, conv func(R) (T, error), query string, args ...any) ([]T, error) {
	var rows []R
	if err := t.tx.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, mapErr(err)
	}
	out := make([]T, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = conv(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sure is a conversion that cannot fail, as the Checked reads take one.
func sure[R, T any](conv func(R) T) func(R) (T, error) {
	return func(r R) (T, error) { return conv(r), nil }
}

// mapErr turns driver errors into app errors by code, never by message:
// no rows is not_found, a uniqueness violation conflict, a lock held past
// busy_timeout busy, no room for a write storage_full. Anything else stays
// as it is (and so is internal).
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var ae *app.Error
	if errors.As(err, &ae) {
		return err
	}
	if errors.Is(err, sql.ErrNoRows) {
		return &app.Error{Code: app.CodeNotFound, Detail: "not found", Err: err}
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return &app.Error{Code: app.CodeConflict, Detail: "that already exists", Err: err}
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_BUSY_SNAPSHOT, sqlite3.SQLITE_BUSY_RECOVERY:
			return &app.Error{Code: app.CodeBusy, Detail: "the database is busy; try again", Err: err}
		case sqlite3.SQLITE_FULL:
			return storageFull(err)
		}
	}
	return err
}

// timeLayout is how every instant is stored: fixed width, so text order is time order.
const timeLayout = "2006-01-02T15:04:05.000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func fmtTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return fmtTime(*t)
}

func parseTime(s string) time.Time {
	if t, ok := parseStored(s); ok {
		return t
	}
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		t, _ = time.Parse(time.RFC3339Nano, s)
	}
	return t.UTC()
}

// parseStored reads an instant written in timeLayout, by hand: time.Parse
// was a twentieth of a 2,000-task calendar feed (BENCHMARKS.md). Anything
// else, out-of-range fields included, is left to time.Parse (ok false).
func parseStored(s string) (t time.Time, ok bool) {
	if len(s) != len(timeLayout) || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' || s[23] != 'Z' {
		return t, false
	}
	num := func(from, to int) int {
		n := 0
		for _, c := range []byte(s[from:to]) {
			if c < '0' || c > '9' {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	y, mo, d, h, mi, sec, ms := num(0, 4), num(5, 7), num(8, 10), num(11, 13), num(14, 16), num(17, 19), num(20, 23)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || d > daysIn(time.Month(mo), y) || h < 0 || h > 23 || mi < 0 || mi > 59 ||
		sec < 0 || sec > 59 || ms < 0 {
		return t, false
	}
	return time.Date(y, time.Month(mo), d, h, mi, sec, ms*int(time.Millisecond), time.UTC), true
}

func daysIn(m time.Month, year int) int {
	if m == time.February && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		return 29
	}
	return [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
}

func parseTimePtr(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t := parseTime(s.String)
	return &t
}

// nullInt stores 0 as NULL: for counts that start at 1 when they exist.
func nullInt(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}
