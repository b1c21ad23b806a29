package store

import (
	"context"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
)

// The writer's own commits and the token check.
//
// The token check knows auth_rev without a query while the -shm's header
// is the one it read it with (authRev, walindex.go). Every commit writes a
// new header, so after each of the server's own writes the next check
// queried again: under a stream of creates, every check did. The writer
// knows what its commit leaves, though. Just before COMMIT it reads
// auth_rev inside its transaction, and the header: BEGIN IMMEDIATE holds
// the log's write lock, so no connection of any process commits between
// the two. After the COMMIT it reads the header again, and keeps the new
// header with that auth_rev for the token check only when its commit was
// provably the only one in between: the salts are unchanged (the log did
// not start over) and the log grew by exactly the pages the commit wrote
// (the connection's SQLITE_DBSTATUS_CACHE_WRITE), none of the
// transaction's pages having been written before (SQLITE_DBSTATUS_CACHE_SPILL
// zero: a spilled page may be rewritten in place, not appended). A commit
// by another process after this one grows the log further; a checkpoint
// that starts it over changes the salts. Anything else (synchronous=full,
// which pads the log at a commit; a header that does not read; a spill)
// keeps nothing, and the next check queries as before.

// ownCommit is what the writer notes before its COMMIT.
type ownCommit struct {
	before walHeader
	rev    int64
	status sqlite.DBStatus
}

// writerStatus is the writer connection's counters, nil unless the token
// check is watching the header (a command that checks no credential skips
// all of this).
func (db *DB) writerStatus() sqlite.DBStatus {
	if db.wal.seen.Load() == nil {
		return nil
	}
	c := db.writerConn.Load()
	if c == nil {
		return nil
	}
	st, _ := c.Conn.(sqlite.DBStatus)
	return st
}

// begun zeroes the writer's spill counter as it opens a transaction.
func (db *DB) begun() {
	if st := db.writerStatus(); st != nil {
		_, _, _ = st.Status(sqlite.DBStatusCacheSpill, true)
	}
}

// beforeCommit reads, under the write lock, the header and the auth_rev
// the commit of tx will leave, and zeroes the count of pages written;
// nil when the commit cannot be followed.
func (db *DB) beforeCommit(tx *sqlx.Tx) *ownCommit {
	st := db.writerStatus()
	if st == nil {
		return nil
	}
	// seen is stored after the view is set, so reading view here is safe.
	h, ok := db.wal.view.header()
	if !ok || !h.valid() {
		return nil
	}
	if spilled, _, err := st.Status(sqlite.DBStatusCacheSpill, false); err != nil || spilled != 0 {
		return nil
	}
	// Upkeep, one a commit however many requests share it: not a
	// request's statement (QueryCount).
	upkeep := context.WithValue(context.Background(), uncounted{}, true)
	var rev int64
	if err := tx.QueryRowContext(upkeep, "SELECT auth_rev FROM instance").Scan(&rev); err != nil {
		return nil
	}
	if _, _, err := st.Status(sqlite.DBStatusCacheWrite, true); err != nil {
		return nil
	}
	return &ownCommit{before: h, rev: rev, status: st}
}

// afterCommit keeps the header the commit left with its auth_rev, when no
// other commit can have come between (see above).
func (db *DB) afterCommit(own *ownCommit) {
	if own == nil {
		return
	}
	if db.betweenCommitAndHeader != nil {
		db.betweenCommitAndHeader()
	}
	written, _, err := own.status.Status(sqlite.DBStatusCacheWrite, false)
	if err != nil || written <= 0 {
		return
	}
	h, ok := db.wal.view.header()
	if !ok || !h.valid() || h.salts() != own.before.salts() || h.mxFrame() != own.before.mxFrame()+uint32(written) {
		return
	}
	db.wal.seen.Store(&seenRev{hdr: h, rev: own.rev})
}
