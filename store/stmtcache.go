package store

import (
	"container/list"
	"context"
	"database/sql/driver"
	"sync"
	"sync/atomic"
)

// modernc has no statement cache: every query is parsed and planned afresh,
// and for the task reads (one large statement) parsing costs more than
// running them. The connections of the reader and writer pools therefore
// keep their most recently used prepared statements, keyed by SQL text.
//
// It works below database/sql: a cachingConn deliberately does not offer
// QueryerContext or ExecerContext, so database/sql prepares every statement
// through PrepareContext, runs it and closes it. PrepareContext answers from
// the cache and Close hands the statement back instead of finalizing it. A
// cached statement still in use (its rows not yet closed) is never handed
// out twice: a second user gets a fresh, uncached statement.

// stmtCacheSize is how many statements each connection keeps.
const stmtCacheSize = 128

// cachingConnector opens connections that cache their statements and count
// the statements they run into *queries.
type cachingConnector struct {
	driver.Connector
	queries *atomic.Int64
	last    *atomic.Pointer[cachingConn] // when set, the connection made last (the writer's: ownCommit)
}

func (c cachingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cc := &cachingConn{Conn: conn, queries: c.queries, byQuery: map[string]*list.Element{}, lru: list.New()}
	if c.last != nil {
		c.last.Store(cc)
	}
	return cc, nil
}

// cachingConn is one connection and its statements, most recently used first.
type cachingConn struct {
	driver.Conn
	queries *atomic.Int64

	mu      sync.Mutex
	byQuery map[string]*list.Element // of *cachedStmt
	lru     *list.List
}

// cachedStmt is a statement kept open on its connection.
type cachedStmt struct {
	driver.Stmt
	conn  *cachingConn
	query string
	busy  bool
}

// Close hands the statement back to its connection.
func (s *cachedStmt) Close() error {
	s.conn.mu.Lock()
	s.busy = false
	s.conn.mu.Unlock()
	return nil
}

func (s *cachedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *cachedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
}

func (c *cachingConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

// uncounted marks the context of a statement that QueryCount leaves out:
// upkeep, such as a checkpoint, that runs whenever it is due rather than for
// a request.
type uncounted struct{}

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	if c.queries != nil && ctx.Value(uncounted{}) == nil {
		c.queries.Add(1)
	}
	c.mu.Lock()
	if e, ok := c.byQuery[query]; ok {
		s := e.Value.(*cachedStmt)
		if !s.busy {
			s.busy = true
			c.lru.MoveToFront(e)
			c.mu.Unlock()
			return s, nil
		}
		c.mu.Unlock()
		return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	}
	c.mu.Unlock()
	st, err := c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	_, execCtx := st.(driver.StmtExecContext)
	_, queryCtx := st.(driver.StmtQueryContext)
	if !execCtx || !queryCtx {
		return st, nil
	}
	s := &cachedStmt{Stmt: st, conn: c, query: query, busy: true}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byQuery[query] = c.lru.PushFront(s)
	for c.lru.Len() > stmtCacheSize {
		old := c.lru.Back().Value.(*cachedStmt)
		if old.busy {
			break // evicted once it is handed back and something newer arrives
		}
		c.lru.Remove(c.lru.Back())
		delete(c.byQuery, old.query)
		_ = old.Stmt.Close()
	}
	return s, nil
}

// Close finalizes the cached statements and closes the connection.
func (c *cachingConn) Close() error {
	c.mu.Lock()
	for e := c.lru.Front(); e != nil; e = e.Next() {
		_ = e.Value.(*cachedStmt).Stmt.Close()
	}
	c.lru.Init()
	c.byQuery = map[string]*list.Element{}
	c.mu.Unlock()
	return c.Conn.Close()
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *cachingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *cachingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *cachingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}
