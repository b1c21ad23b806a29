package store

import (
	"context"
	"database/sql"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"

	"tend/app"
)

// Group commit. All writes go through the one writer connection, so write
// requests queue for it. A request that finishes its work while others are
// already queued leaves its transaction open and hands the connection to the
// next, which does its work in the same SQLite transaction; the last request
// of such a group commits once for all of them. The commit, and the pages it
// writes to the log, are shared instead of paid by each request. A request
// that finds nobody queued yields once before committing alone, so that
// requests still reading their input can join (othersQueue).
//
// Requests stay as separate as if each had a transaction of its own:
//   - each request after the first runs inside a SAVEPOINT, so its failure
//     or panic rolls back its own changes only (a failing first request rolls
//     back the transaction, which nobody else has joined yet). FTS5 writes
//     out its pending rows at a savepoint, but also at the start of every
//     statement that needs a statement journal (a write with triggers or of
//     several rows, as every create runs), so a request of a group writes
//     its own segment with or without one: dropping the savepoints left the
//     log pages of grouped creates unchanged (BENCHMARKS.md, "Creates: FTS5
//     merges and group commit");
//   - a request sees the changes of those before it in the group, as it
//     would had they committed first;
//   - no request returns before the commit holding its changes succeeded,
//     and if that commit fails every request in the group gets the error;
//   - statements of a write ignore the caller's cancellation: SQLite answers
//     an interrupted write inside a transaction by rolling the whole
//     transaction back, which would take the rest of the group with it. A
//     request whose caller gave up while it queued does no work at all.

// writer is the state of the writer connection's transaction.
type writer struct {
	mu      sync.Mutex   // held by the request working in the transaction
	waiting atomic.Int64 // requests blocked on mu
	open    *group       // the transaction being shared; nil when none is open
	// yield lets requests on their way run before a lone request commits
	// (othersQueue): runtime.Gosched when nil. A test sets it to bring a
	// request to the writer during the yield, which the Go scheduler does
	// not promise by itself.
	yield func()
}

// group is one SQLite transaction shared by the requests that joined it.
type group struct {
	tx   *sqlx.Tx
	size int           // requests that have joined
	done chan struct{} // closed once the transaction committed or failed
	err  error         // the outcome, set before done is closed
}

// maxGroup bounds how many requests share a commit, so that a transaction
// under a load that never pauses still commits regularly.
const maxGroup = 32

// Update runs fn in a write transaction (BEGIN IMMEDIATE) on the writer,
// possibly shared with other requests (see above). A standby refuses it
// (ReadOnly).
func (db *DB) Update(ctx context.Context, fn func(app.Tx) error) error {
	if err := db.ReadOnly(); err != nil {
		return err
	}
	return db.noteWrite(db.update(ctx, fn))
}

func (db *DB) update(ctx context.Context, fn func(app.Tx) error) error {
	w := &db.w
	asked := time.Now()
	w.waiting.Add(1)
	w.mu.Lock()
	w.waiting.Add(-1)
	g := w.open
	if g == nil {
		// BEGIN IMMEDIATE may wait too, for another process's write (a
		// tend token issue beside the server): it counts as waiting.
		stx, err := db.write.BeginTxx(context.WithoutCancel(ctx), nil)
		if err != nil {
			w.mu.Unlock()
			return mapErr(err)
		}
		g = &group{tx: stx, done: make(chan struct{})}
		w.open = g
		db.begun()
	}
	if db.onWriterWait != nil {
		db.onWriterWait(time.Since(asked))
	}
	g.size++
	tx := &Tx{tx: txConn{tx: g.tx, noCancel: true, revs: &revsRead{}}, now: db.Now().UTC().Truncate(time.Millisecond), db: db}
	err := ctx.Err()
	var panicked any
	if err == nil {
		panicked, err = db.runIn(g, tx, fn)
	}
	switch {
	case g.size == 1 && (err != nil || panicked != nil):
		// Nobody else has joined: the whole transaction is this request's.
		_ = g.tx.Rollback()
		w.open = nil
		close(g.done)
	case g.err == nil && g.size < maxGroup && w.othersQueue():
		// Someone is queued and will join; the last to join commits.
	default:
		db.finish(g)
	}
	w.mu.Unlock()
	if panicked != nil {
		panic(panicked)
	}
	if err != nil {
		return err
	}
	<-g.done
	if g.err != nil {
		return g.err
	}
	for _, f := range tx.onCommit {
		f()
	}
	return nil
}

// othersQueue reports whether another request is queued for the writer,
// after letting other goroutines run once: requests that are reading or
// decoding their input join the group if they get there, rather than
// waiting for one more commit.
func (w *writer) othersQueue() bool {
	if w.waiting.Load() > 0 {
		return true
	}
	if w.yield != nil {
		w.yield()
	} else {
		runtime.Gosched()
	}
	return w.waiting.Load() > 0
}

// finish ends the shared transaction g: it commits unless a request's
// failure already doomed it, and lets every request of g know. A commit
// tells the token check the auth_rev it leaves (ownCommit).
func (db *DB) finish(g *group) {
	w := &db.w
	w.open = nil
	if g.err == nil {
		own := db.beforeCommit(g.tx)
		g.err = mapErr(g.tx.Commit())
		if g.err == nil {
			db.afterCommit(own)
		}
	} else {
		_ = g.tx.Rollback()
	}
	close(g.done)
}

// betweenWrites runs fn on the writer's connection while no write
// transaction is open: it takes its turn like a write request, and commits
// first a shared transaction left open for a request still queued (which
// then opens the next one).
func (db *DB) betweenWrites(fn func()) {
	w := &db.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if g := w.open; g != nil {
		db.finish(g)
	}
	fn()
}

// idle reports whether the writer is idle: no request holds it, none
// waits for it and no shared transaction is open.
func (w *writer) idle() bool {
	if w.waiting.Load() > 0 || !w.mu.TryLock() {
		return false
	}
	defer w.mu.Unlock()
	return w.open == nil
}

// whenIdle runs fn on the writer's connection if the writer is idle (see
// idle), holding it so that requests that come meanwhile wait.
func (db *DB) whenIdle(fn func()) {
	w := &db.w
	if w.waiting.Load() > 0 || !w.mu.TryLock() {
		return
	}
	defer w.mu.Unlock()
	if w.open == nil {
		fn()
	}
}

// runIn runs fn as one request of g, under a savepoint unless it is the
// first, and reports any panic and fn's error. A savepoint that cannot be
// rolled back or released means SQLite has rolled the transaction back
// already (an I/O error, for one): the group is then marked failed.
func (db *DB) runIn(g *group, tx *Tx, fn func(app.Tx) error) (panicked any, err error) {
	ctx := context.Background()
	savepoint := g.size > 1
	if savepoint {
		if _, err := g.tx.ExecContext(ctx, "SAVEPOINT request"); err != nil {
			g.err = mapErr(err)
			return nil, g.err
		}
	}
	defer func() {
		if panicked = recover(); !savepoint {
			return
		}
		if err != nil || panicked != nil {
			if _, rerr := g.tx.ExecContext(ctx, "ROLLBACK TO request"); rerr != nil && g.err == nil {
				g.err = mapErr(rerr)
			}
		}
		if _, rerr := g.tx.ExecContext(ctx, "RELEASE request"); rerr != nil && g.err == nil {
			g.err = mapErr(rerr)
		}
		if err == nil && panicked == nil && g.err != nil {
			err = g.err
		}
	}()
	return nil, mapErr(fn(tx))
}

// txConn runs one transaction's statements, in a write transaction without
// the caller's cancellation (see the group commit notes above), and keeps
// the revisions the transaction has read until a statement may have moved
// them (see revsRead).
type txConn struct {
	tx       *sqlx.Tx
	noCancel bool
	revs     *revsRead
}

// revsRead holds the revisions a transaction has read, so that it reads
// each once however many caches it consults: a create checks its status
// and its item type against the vocabulary, each keyed on vocab_rev, which
// the scope read already read beside scope_rev. Triggers move revisions
// in the statement that changes what they cover, so every statement that
// may write (anything but a SELECT) forgets them all; the next look-up
// reads the revision again, and sees the move. These are the transaction's
// own reads in its own snapshot, so nothing here outlives it or needs a
// commit to be trusted (unlike a revCache's values).
type revsRead struct {
	vocab map[string]int64 // workspace → vocab_rev
}

// rememberVocab keeps a workspace's vocab_rev, just read, for the
// transaction's next look-ups.
func (c txConn) rememberVocab(workspaceID string, rev int64) {
	if c.revs.vocab == nil {
		c.revs.vocab = map[string]int64{}
	}
	c.revs.vocab[workspaceID] = rev
}

func (c txConn) ctx(ctx context.Context, query string) context.Context {
	if c.revs.vocab != nil && !readsOnly(query) {
		c.revs.vocab = nil
	}
	if c.noCancel {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// readsOnly reports whether a statement is a SELECT, which cannot write
// (nor so move a revision); a WITH may lead to a write and is taken as one.
func readsOnly(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n")
	return len(q) >= 6 && strings.EqualFold(q[:6], "SELECT")
}

func (c txConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.tx.ExecContext(c.ctx(ctx, query), query, args...)
}

func (c txConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.tx.QueryContext(c.ctx(ctx, query), query, args...)
}

func (c txConn) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	return c.tx.QueryRowxContext(c.ctx(ctx, query), query, args...)
}

func (c txConn) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return c.tx.GetContext(c.ctx(ctx, query), dest, query, args...)
}

func (c txConn) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return c.tx.SelectContext(c.ctx(ctx, query), dest, query, args...)
}
