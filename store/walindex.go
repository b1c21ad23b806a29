package store

import (
	"context"
	"net/url"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/jmoiron/sqlx"
)

// Knowing, without a transaction, that nothing was committed.
//
// The token check needs the instance's auth_rev, current, on every request
// (auth.go). Reading it is a read transaction: in WAL mode SQLite takes and
// drops a read mark in the -shm file to begin and end one, fcntl(2) calls
// that cost more than the rest of a cached check. The -shm file itself says
// whether anything was committed: it begins with the WAL-index header
// (https://sqlite.org/walformat.html, "The WAL-Index Header"), twice. Every
// commit, by any connection of any process, writes a new header: iChange
// counts commits, mxFrame is the last committed frame and the salts change
// whenever the log starts over (wal.c, walFrames, walRestartHdr). A writer
// writes the second copy, then a memory barrier, then the first
// (walIndexWriteHdr); a reader reads the first, then the second, and
// believes them only when they agree (walIndexTryHdr), which is what
// header does here, with atomic loads for the barrier.
//
// So the revision is kept with the header read before the query that read
// it: while the header read now is that very header, nothing was committed
// since, and the revision stands. A commit between reading the header and
// the query changes the header, so the pair never matches again; pairs are
// sound whichever order concurrent checks store them in. A header that is
// torn, uninitialised or of an unknown format, or a -shm that cannot be
// mapped, means the query runs, as it did before.
//
// The -shm file must be the one SQLite uses for as long as it is mapped
// here: SQLite deletes it when the last connection to the database closes
// and recreates it on the next open. The watch therefore holds a
// connection of its own open (anchor): no connection of this process
// closing or being dropped by its pool lets the file go.

// walIndexVersion is WALINDEX_MAX_VERSION, the iVersion of every WAL-index
// header this SQLite writes.
const walIndexVersion = 3007000

// walHeaderWords is the size of one copy of the header in 8-byte words.
const walHeaderWords = 6

// walHeader is one copy of the WAL-index header, 48 bytes, as mapped.
type walHeader [walHeaderWords]uint64

// shmView is the mapped start of a -shm file: the two copies of the header.
type shmView struct {
	words *[2 * walHeaderWords]uint64
}

// header reads the header: the first copy, then the second, ok only when
// they agree and say the index is initialised. A fault reading the mapping
// (a -shm cut short by something other than SQLite) is not ok either.
func (v *shmView) header() (h walHeader, ok bool) {
	if v == nil || v.words == nil {
		return h, false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for i := range walHeaderWords {
		h[i] = atomic.LoadUint64(&v.words[i])
	}
	for i := range walHeaderWords {
		if atomic.LoadUint64(&v.words[walHeaderWords+i]) != h[i] {
			return h, false
		}
	}
	return h, true
}

// valid reports whether h is an initialised header of the known format
// whose checksum holds: SQLite's walChecksumBytes over its first 40 bytes,
// in native byte order, as walIndexWriteHdr computes it.
func (h *walHeader) valid() bool {
	u := h.fields()
	b := (*[8 * walHeaderWords]byte)(unsafe.Pointer(h))
	if u[0] != walIndexVersion || b[12] == 0 { // iVersion, isInit
		return false
	}
	var s1, s2 uint32
	for i := 0; i < 10; i += 2 {
		s1 += u[i] + s2
		s2 += u[i+1] + s1
	}
	return s1 == u[10] && s2 == u[11]
}

// fields is the header as SQLite's WalIndexHdr lays out its 32-bit words:
// iVersion, unused, iChange, isInit/bigEndCksum/szPage, mxFrame, nPage,
// aFrameCksum[2], aSalt[2], aCksum[2].
func (h *walHeader) fields() *[2 * walHeaderWords]uint32 {
	return (*[2 * walHeaderWords]uint32)(unsafe.Pointer(h))
}

// mxFrame is the last committed frame of the log.
func (h *walHeader) mxFrame() uint32 {
	return h.fields()[4]
}

// salts are the log's salts, which change whenever it starts over.
func (h *walHeader) salts() [2]uint32 {
	u := h.fields()
	return [2]uint32{u[8], u[9]}
}

// walWatch is a DB's view of its -shm header and the auth_rev last read
// with it. It is set up on the first token check: a command that checks
// none maps nothing and opens no anchor.
type walWatch struct {
	once   sync.Once
	view   *shmView // nil when the header cannot be watched
	anchor *sqlx.DB // one connection held open, see above
	seen   atomic.Pointer[seenRev]
}

// seenRev is a revision and the header read before it was.
type seenRev struct {
	hdr walHeader
	rev int64
}

// start sets the watch up for the database at path, once. Failing that,
// the view stays nil and every check queries.
func (w *walWatch) start(path string) *shmView {
	w.once.Do(func() {
		anchor, err := sqlx.Open("sqlite", path+"?"+anchorPragmas().Encode())
		if err != nil {
			return
		}
		sizePool(anchor, 1)
		// A read opens the log and maps the -shm in this connection, which
		// keeps both until it closes.
		var v int64
		if err := anchor.QueryRowContext(context.Background(), "PRAGMA data_version").Scan(&v); err != nil {
			_ = anchor.Close()
			return
		}
		// A view comes back with some failures (see mapShm): it is kept
		// to be let go of, and never reads ok.
		if w.view, _ = mapShm(path); w.view == nil {
			_ = anchor.Close()
			return
		}
		w.anchor = anchor
	})
	return w.view
}

func anchorPragmas() url.Values {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "query_only(1)")
	return q
}

// closeAnchor ends the watch, with the pools: no check starts after it.
// unmap comes once every connection of the DB, replication's too, is
// closed (see mapShm).
func (w *walWatch) closeAnchor() error {
	w.once.Do(func() {})
	if w.anchor == nil {
		return nil
	}
	return w.anchor.Close()
}

func (w *walWatch) unmap() error {
	if w.view == nil {
		return nil
	}
	return unmapShm(w.view)
}

// authRev reads the instance's auth_rev, without a query while the -shm
// header says nothing was committed since it was last read.
func (db *DB) authRev(ctx context.Context) (int64, error) {
	h, ok := db.wal.start(db.path).header()
	if ok {
		if s := db.wal.seen.Load(); s != nil && s.hdr == h {
			return s.rev, nil
		}
	}
	var rev int64
	if err := db.auth.QueryRowContext(ctx, "SELECT auth_rev FROM instance").Scan(&rev); err != nil {
		return 0, err
	}
	if ok && h.valid() {
		db.wal.seen.Store(&seenRev{hdr: h, rev: rev})
	}
	return rev, nil
}
