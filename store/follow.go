package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/jmoiron/sqlx"
	"github.com/superfly/ltx"

	"tend/app"
)

// A standby follows the primary's replica (Options.Follow) into its own
// file and serves reads from it; it writes nothing of its own until it is
// promoted (Promote).
//
// Litestream's own follow mode writes the new pages straight into the file,
// under no lock SQLite knows of, so a reader could see a transaction half
// applied. tend follows the replica itself instead: every FollowInterval it
// lists the LTX files past the TXID it applied (level 0, one file per sync
// of the primary, and the compacted levels to bridge a gap, as Litestream's
// follow does), and applies each file as one SQLite transaction on a
// connection of its own: BEGIN IMMEDIATE, every page written through SQLite's
// sqlite_dbpage table, the file cut to the size the primary's had, COMMIT.
// The file is in WAL mode, so readers keep the snapshot they began with and
// the next one sees the whole file applied; nothing else ever writes there.
// The decoder checks each file's checksum before the COMMIT. Where the
// replica's files carry the database's rolling checksum, a file whose
// pre-apply checksum is not the one of what the standby holds is refused
// unless it holds every page (a new snapshot of the primary); Litestream
// v0.5.18 leaves it out of its level-0 files (their header says
// NoChecksum), so there the history is followed by TXID alone.
//
// What was applied is noted beside the database, in <path>-follow: the TXID,
// and the checksum of the whole database at that TXID when it is known. The
// note is written after the COMMIT is synced, so it is never ahead of the
// file; a note one file behind (a kill between the two) makes the next step
// apply that file again, which changes nothing. A standby restarted goes on
// from the noted TXID. It restores the file afresh from the replica (the old
// one moved aside, as a restore does) when a checksum was noted and is not
// the file's (the file was written by something else), or when the replica no
// longer goes on from that TXID: it was started over (its newest TXID is
// behind the standby's), or compacted past it with nothing to bridge the
// gap while the standby was down. A running standby that finds the history
// broken stops applying, logs it and reports it in FollowLag.Err;
// restarting it restores afresh.

// DefaultFollowInterval is how often a standby asks the replica for new
// changes unless Options.FollowInterval says otherwise.
const DefaultFollowInterval = time.Second

// followNoteSuffix names the note of what the standby applied.
const followNoteSuffix = "-follow"

// errContinuity is a replica whose history does not continue from what the
// standby applied.
var errContinuity = errors.New("the replica's history does not continue from what this standby applied")

// FollowLag is how far a standby is behind the replica it follows.
type FollowLag struct {
	// Following is true while the store follows a replica.
	Following bool
	// Replica names the replica followed, without credentials.
	Replica string
	// AppliedTXID is the last replica transaction applied to the file;
	// ReplicaTXID the newest the replica held when last asked.
	AppliedTXID, ReplicaTXID uint64
	// Transactions is how many replica transactions are not applied yet.
	Transactions uint64
	// Behind is the age of the oldest change not applied yet; 0 when
	// caught up.
	Behind time.Duration
	// LastApplied is when the last transaction was applied; zero if none
	// was since Open.
	LastApplied time.Time
	// Err is the last failure to read or apply the replica, nil while fine.
	Err error
}

type follower struct {
	db       *DB
	client   litestream.ReplicaClient
	replica  *litestream.Replica // the client's, for its listings
	url      string              // as given, for Promote
	name     string
	refusal  error // app.ReadOnly naming the primary
	interval time.Duration
	log      *slog.Logger
	opts     Options // what Promote starts replication with
	conn     *sqlx.DB
	pageSize uint32

	following atomic.Bool
	pages     atomic.Uint64 // pages written since Open
	promoting sync.Mutex    // one Promote at a time
	stepMu    sync.Mutex    // held while files are applied
	applied   ltx.TXID      // guarded by stepMu
	checksum  ltx.Checksum
	cancel    context.CancelFunc
	done      chan struct{}

	mu      sync.Mutex // guards what FollowLag reports
	lag     FollowLag
	pending []*ltx.FileInfo // files listed and not applied yet, oldest first
}

// followNote is what <path>-follow holds.
type followNote struct {
	txid     ltx.TXID
	checksum ltx.Checksum
}

func readFollowNote(path string) (followNote, bool, error) {
	b, err := os.ReadFile(path + followNoteSuffix)
	if errors.Is(err, os.ErrNotExist) {
		return followNote{}, false, nil
	}
	if err != nil {
		return followNote{}, false, err
	}
	txid, sum, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	t, err1 := ltx.ParseTXID(txid)
	c, err2 := strconv.ParseUint(sum, 16, 64)
	if !ok || err1 != nil || err2 != nil {
		return followNote{}, false, fmt.Errorf("%s%s does not read: remove it and the database to restore afresh", path, followNoteSuffix)
	}
	return followNote{t, ltx.Checksum(c)}, true, nil
}

// notStandby refuses to open a standby's file as anything but a standby.
// What a command wrote there would be lost when the standby next restores
// afresh, or stand after a promotion as if the primary had written it.
func notStandby(path string) error {
	_, err := os.Stat(path + followNoteSuffix)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%s is a standby's copy of a replica (%s%s notes what it applied), so nothing but the standby opens it: "+
		"run the command against the primary; to make this file the primary, run tend promote on the standby, "+
		"or, with the standby stopped, remove %s%s to take the file as it is", path, path, followNoteSuffix, path, followNoteSuffix)
}

// writeFollowNote replaces the note by renaming, not syncing: a note lost or
// stale after a crash fails the checksum at the next Open, which restores.
func writeFollowNote(path string, n followNote) error {
	tmp := path + followNoteSuffix + ".tmp"
	if err := os.WriteFile(tmp, fmt.Appendf(nil, "%s %016x\n", n.txid, uint64(n.checksum)), fileMode); err != nil {
		return err
	}
	return os.Rename(tmp, path+followNoteSuffix)
}

// prepareFollow makes sure the file at path holds a state of the replica
// that the standby can go on from, restoring it when it does not, and returns
// the note of that state. It runs before Open takes the database's lock, as
// a restore takes it itself.
func prepareFollow(ctx context.Context, path string, opts Options) (followNote, error) {
	client, name, err := replicaClient(opts.Follow)
	if err != nil {
		return followNote{}, err
	}
	note, has, err := readFollowNote(path)
	if err != nil {
		return followNote{}, err
	}
	_, statErr := os.Stat(path)
	exists := statErr == nil
	if exists && !has {
		return followNote{}, fmt.Errorf("%s exists but was not made by following a replica (no %s%s): a standby follows into a file of its own; move the database away or start without following", path, path, followNoteSuffix)
	}
	if exists {
		why, err := checkFollowed(ctx, path, note)
		if err != nil {
			return followNote{}, err
		}
		if why == "" {
			why = probe(ctx, client, note)
		}
		if why == "" {
			return note, nil
		}
		logOf(opts).Warn("restoring the standby afresh", "path", path, "replica", name, "why", why)
	}
	return restoreForFollow(ctx, client, name, path)
}

// checkFollowed says why the file at path cannot be gone on from note, ""
// when it can.
func checkFollowed(ctx context.Context, path string, note followNote) (string, error) {
	if note.checksum == 0 {
		return "", nil
	}
	c, err := openPool(ctx, path, basePragmas("NORMAL"), 1)
	if err != nil {
		return "", err
	}
	defer c.Close()
	sum, err := databaseChecksum(ctx, c)
	if err != nil {
		return "", err
	}
	if sum != note.checksum {
		return fmt.Sprintf("the file's checksum is not that of TXID %s noted in %s%s: it changed since, or the standby stopped between applying and noting", note.txid, path, followNoteSuffix), nil
	}
	return "", nil
}

// restoreForFollow restores the replica's latest state to path and notes it.
func restoreForFollow(ctx context.Context, client litestream.ReplicaClient, name, path string) (followNote, error) {
	var note followNote
	_, err := restore(ctx, path, RestoreReport{From: name}, true, func(tmp string) error {
		if err := client.Init(ctx); err != nil {
			return fmt.Errorf("reaching the replica %s: %w", name, err)
		}
		infos, err := litestream.CalcRestorePlan(ctx, client, 0, time.Time{}, slog.New(slog.DiscardHandler))
		if err != nil || len(infos) == 0 {
			return noReplicaDatabase(name, err)
		}
		// The plan's last TXID, asked for by number: what the replica holds
		// past it when the restore runs is for the follow loop.
		note.txid = infos[len(infos)-1].MaxTXID
		return restoreInto(ctx, client, name, tmp, time.Time{}, note.txid)
	})
	if err != nil {
		return note, err
	}
	c, err := openPool(ctx, path, basePragmas("NORMAL"), 1)
	if err != nil {
		return note, err
	}
	defer c.Close()
	if note.checksum, err = databaseChecksum(ctx, c); err != nil {
		return note, err
	}
	return note, writeFollowNote(path, note)
}

// databaseChecksum is LTX's checksum of the whole database as c sees it:
// the checksums of its pages, the lock page left out, combined.
func databaseChecksum(ctx context.Context, c *sqlx.DB) (ltx.Checksum, error) {
	tx, err := c.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer func() { _ = tx.Rollback() }()
	var pageSize uint32
	if err := tx.GetContext(ctx, &pageSize, "PRAGMA page_size"); err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, "SELECT pgno, data FROM sqlite_dbpage")
	if err != nil {
		return 0, fmt.Errorf("reading the database's pages: %w", err)
	}
	defer rows.Close()
	var sum ltx.Checksum
	h := ltx.NewHasher()
	lock := ltx.LockPgno(pageSize)
	for rows.Next() {
		var pgno uint32
		var data []byte
		if err := rows.Scan(&pgno, &data); err != nil {
			return 0, err
		}
		if pgno != lock {
			sum = ltx.ChecksumFlag | (sum ^ ltx.ChecksumPageWithHasher(h, pgno, data))
		}
	}
	return sum, rows.Err()
}

func logOf(opts Options) *slog.Logger {
	if opts.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return opts.Log
}

// probeNewest says, for a standby caught up with the replica, whether the
// newest file there left the database the standby holds: a replica started
// over may have come back to the same TXID with other contents.
func probeNewest(ctx context.Context, f *follower, note followNote) string {
	newest, err := f.replica.MaxLTXFileInfo(ctx, 0)
	if err != nil || newest.MaxTXID != note.txid || newest.Size < ltx.HeaderSize+ltx.TrailerSize {
		return ""
	}
	rc, err := f.client.OpenLTXFile(ctx, newest.Level, newest.MinTXID, newest.MaxTXID, newest.Size-ltx.TrailerSize, ltx.TrailerSize)
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	var tr ltx.Trailer
	if err != nil || tr.UnmarshalBinary(b) != nil || tr.PostApplyChecksum == 0 {
		return ""
	}
	if tr.PostApplyChecksum != note.checksum {
		return fmt.Sprintf("the replica's TXID %s is not the database this standby holds at that TXID (the primary's history was replaced)", note.txid)
	}
	return ""
}

// startFollowing opens the connection that applies the replica's files and
// starts the loop.
func startFollowing(ctx context.Context, db *DB, opts Options, note followNote) (*follower, error) {
	client, name, err := replicaClient(opts.Follow)
	if err != nil {
		return nil, err
	}
	// The file is there (prepareFollow restored it if it was not), so a
	// replica out of reach at start (an SFTP host booting after this one)
	// holds nothing up: the standby serves what it has, reports the
	// failure in FollowLag, and the loop reaches the replica when it can,
	// as each of the client's calls initialises it first.
	var unreached error
	if err := client.Init(ctx); err != nil {
		unreached = fmt.Errorf("reaching the replica %s: %w", name, err)
	}
	interval := opts.FollowInterval
	if interval <= 0 {
		interval = DefaultFollowInterval
	}
	// Applying is the only write. Each COMMIT is synced before the note of
	// it is written, so that the note is never ahead of the file, even
	// after a power loss: a note behind makes the next step apply the last
	// file again, which changes nothing (its pages are the state after it).
	q := basePragmas("FULL")
	q.Set("_txlock", "immediate")
	conn, err := openPool(ctx, db.path, q, 1)
	if err != nil {
		return nil, err
	}
	var pageSize uint32
	if err := conn.GetContext(ctx, &pageSize, "PRAGMA page_size"); err != nil {
		_ = conn.Close()
		return nil, err
	}
	loopCtx, cancel := context.WithCancel(context.Background())
	f := &follower{db: db, client: client, replica: litestream.NewReplicaWithClient(nil, client), url: opts.Follow, name: name,
		refusal: app.ReadOnly(opts.PrimaryURL), interval: interval, log: logOf(opts).With("replica", name), opts: opts,
		conn: conn, pageSize: pageSize, applied: note.txid, checksum: note.checksum, cancel: cancel, done: make(chan struct{})}
	f.lag = FollowLag{Following: true, Replica: name, AppliedTXID: uint64(note.txid), ReplicaTXID: uint64(note.txid), Err: unreached}
	f.following.Store(true)
	go f.run(loopCtx)
	f.log.Info("following", "interval", interval, "txid", note.txid.String())
	if unreached != nil {
		f.log.Error("following failing: the standby serves what it has", "txid", note.txid.String(), "err", unreached)
	}
	return f, nil
}

// run applies the replica's new files every interval until cancelled.
func (f *follower) run(ctx context.Context) {
	defer close(f.done)
	t := time.NewTicker(f.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, _ = f.step(ctx, 0)
	}
}

// step lists the replica's files past the applied TXID and applies them,
// at most limit of them when limit is above 0, and returns how many it
// applied. Tests drive it directly.
func (f *follower) step(ctx context.Context, limit int) (int, error) {
	f.stepMu.Lock()
	defer f.stepMu.Unlock()
	n, err := f.catchUp(ctx, limit)
	if ctx.Err() != nil {
		return n, err
	}
	f.mu.Lock()
	was := f.lag.Err
	f.lag.Err = err
	f.mu.Unlock()
	switch {
	case err != nil && was == nil:
		f.log.Error("following failing: the standby serves what it has", "txid", f.applied.String(), "err", err)
	case err == nil && was != nil:
		f.log.Info("following recovered", "txid", f.applied.String())
	}
	return n, err
}

func (f *follower) catchUp(ctx context.Context, limit int) (int, error) {
	files, err := f.list(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for (limit <= 0 || n < limit) && ctx.Err() == nil {
		next, err := f.next(ctx, files)
		if err != nil || next == nil {
			return n, err
		}
		// A file begun is finished: stopping (Close, Promote) waits for it.
		if err := f.apply(context.WithoutCancel(ctx), next); err != nil {
			return n, err
		}
		n++
		f.settle(files)
	}
	return n, nil
}

// list lists the level-0 files past the applied TXID and notes what the
// replica holds.
func (f *follower) list(ctx context.Context) ([]*ltx.FileInfo, error) {
	itr, err := f.client.LTXFiles(ctx, 0, f.applied+1, false)
	if err != nil {
		return nil, fmt.Errorf("listing the replica's changes: %w", err)
	}
	files, err := ltx.SliceFileIterator(itr)
	if err != nil {
		return nil, fmt.Errorf("listing the replica's changes: %w", err)
	}
	f.settle(files)
	return files, nil
}

// next is the file to apply after the applied TXID: the first of files
// (level 0) when it goes on from there, else the compacted file that
// bridges to it; nil when the standby is caught up. A replica whose history
// does not go on from the applied TXID (compacted past it with nothing to
// bridge, or started over behind it) is errContinuity.
func (f *follower) next(ctx context.Context, files []*ltx.FileInfo) (*ltx.FileInfo, error) {
	i := 0
	for i < len(files) && files[i].MaxTXID <= f.applied {
		i++
	}
	if i < len(files) && files[i].MinTXID == f.applied+1 {
		return files[i], nil
	}
	var newest ltx.FileInfo
	if i == len(files) {
		var err error
		if newest, err = f.replica.MaxLTXFileInfo(ctx, 0); err != nil {
			return nil, fmt.Errorf("listing the replica's changes: %w", err)
		}
		if newest.MaxTXID == f.applied {
			return nil, nil // caught up: one listing of level 0 more
		}
	}
	// Level 0 does not go on from the applied TXID: its files were
	// compacted away, or the replica was started over.
	b, err := f.bridge(ctx)
	if err != nil || b != nil {
		return b, err
	}
	switch {
	case i < len(files):
		return nil, fmt.Errorf("%w: it holds TXID %s onwards and this standby applied up to %s (compacted away while the standby was behind): restart the standby to restore it afresh", errContinuity, files[i].MinTXID, f.applied)
	case newest.MaxTXID != 0:
		return nil, fmt.Errorf("%w: the replica's newest TXID is %s and this standby applied up to %s (the replica was started over): restart the standby to restore it afresh", errContinuity, newest.MaxTXID, f.applied)
	}
	return nil, nil
}

// probe says why the replica cannot be followed on from note, "" when it
// can: its history goes on from there (next), and the next file was made
// from the database the standby holds. A replica that cannot be reached is
// the loop's to report, not a reason to restore.
func probe(ctx context.Context, client litestream.ReplicaClient, note followNote) string {
	f := &follower{client: client, replica: litestream.NewReplicaWithClient(nil, client), applied: note.txid}
	files, err := f.list(ctx)
	if err != nil {
		return ""
	}
	next, err := f.next(ctx, files)
	if errors.Is(err, errContinuity) {
		return err.Error()
	}
	if err != nil || note.checksum == 0 {
		return ""
	}
	if next == nil {
		return probeNewest(ctx, f, note)
	}
	if next.MinTXID != note.txid+1 {
		return ""
	}
	rc, err := client.OpenLTXFile(ctx, next.Level, next.MinTXID, next.MaxTXID, 0, 0)
	if err != nil {
		return ""
	}
	defer rc.Close()
	dec := ltx.NewDecoder(rc)
	if err := dec.DecodeHeader(); err != nil {
		return ""
	}
	if h := dec.Header(); !h.NoChecksum() && h.PreApplyChecksum != note.checksum {
		return fmt.Sprintf("the replica's changes after TXID %s were made to another database than this standby's (the primary's history was replaced)", note.txid)
	}
	return ""
}

// settle notes, after a listing or an applied file, what is left to apply.
func (f *follower) settle(files []*ltx.FileInfo) {
	var left []*ltx.FileInfo
	for _, fi := range files {
		if fi.MaxTXID > f.applied {
			left = append(left, fi)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending = left
	f.lag.AppliedTXID = uint64(f.applied)
	if len(left) > 0 {
		f.lag.ReplicaTXID = max(f.lag.ReplicaTXID, uint64(left[len(left)-1].MaxTXID))
	}
	f.lag.ReplicaTXID = max(f.lag.ReplicaTXID, f.lag.AppliedTXID)
}

// bridge finds, in the compacted levels and the snapshots, the file that
// goes furthest from the applied TXID: one that begins at or before the next
// TXID and ends after it. Its pages are the newest of every page changed in
// its range (a snapshot's are every page), so applying it over a state
// within that range yields the state at its end.
func (f *follower) bridge(ctx context.Context) (*ltx.FileInfo, error) {
	var best *ltx.FileInfo
	for level := 1; level <= litestream.SnapshotLevel; level++ {
		itr, err := f.client.LTXFiles(ctx, level, 0, false)
		if err != nil {
			return nil, fmt.Errorf("listing the replica's level %d: %w", level, err)
		}
		files, err := ltx.SliceFileIterator(itr)
		if err != nil {
			return nil, fmt.Errorf("listing the replica's level %d: %w", level, err)
		}
		for _, fi := range files {
			if fi.MinTXID <= f.applied+1 && fi.MaxTXID > f.applied && (best == nil || fi.MaxTXID > best.MaxTXID) {
				best = fi
			}
		}
	}
	return best, nil
}

// apply applies one LTX file as one transaction, and notes it.
func (f *follower) apply(ctx context.Context, info *ltx.FileInfo) (err error) {
	rc, err := f.client.OpenLTXFile(ctx, info.Level, info.MinTXID, info.MaxTXID, 0, 0)
	if err != nil {
		return fmt.Errorf("reading the replica's changes %s-%s: %w", info.MinTXID, info.MaxTXID, err)
	}
	defer rc.Close()
	dec := ltx.NewDecoder(rc)
	if err := dec.DecodeHeader(); err != nil {
		return fmt.Errorf("reading the replica's changes %s-%s: %w", info.MinTXID, info.MaxTXID, err)
	}
	hdr := dec.Header()
	if hdr.PageSize != f.pageSize {
		return fmt.Errorf("%w: its pages are of %d bytes and this standby's of %d", errContinuity, hdr.PageSize, f.pageSize)
	}
	// Contiguous with what was applied: the checksum before must be ours.
	chained := hdr.MinTXID == f.applied+1 && !hdr.NoChecksum() && f.checksum != 0
	tx, err := f.conn.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("applying the replica's changes: %w", mapErr(err))
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	put, err := tx.PrepareContext(ctx, "INSERT INTO sqlite_dbpage(pgno, data) VALUES (?, ?)")
	if err != nil {
		return fmt.Errorf("applying the replica's changes: %w", err)
	}
	defer put.Close()
	data := make([]byte, hdr.PageSize)
	pages := uint32(0)
	for {
		var ph ltx.PageHeader
		if err := dec.DecodePage(&ph, data); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("reading the replica's changes %s-%s: %w", info.MinTXID, info.MaxTXID, err)
		}
		if ph.Pgno == 1 {
			if err := sameSchema(data); err != nil {
				return err
			}
		}
		if _, err := put.ExecContext(ctx, ph.Pgno, data); err != nil {
			return fmt.Errorf("writing page %d: %w", ph.Pgno, err)
		}
		pages++
	}
	// Pages past the primary's size go; SQLite cuts the file at COMMIT.
	// Written last, as a page written after it cancels the cut.
	if _, err := tx.ExecContext(ctx, "INSERT INTO sqlite_dbpage(pgno, data) VALUES (?, NULL)", hdr.Commit+1); err != nil {
		return fmt.Errorf("cutting the database to %d pages: %w", hdr.Commit, err)
	}
	if err := dec.Close(); err != nil {
		return fmt.Errorf("the replica's changes %s-%s do not check: %w", info.MinTXID, info.MaxTXID, err)
	}
	all := hdr.Commit
	if all >= hdr.LockPgno() {
		all-- // the lock page is never in a file
	}
	whole := pages >= all
	if chained && hdr.PreApplyChecksum != f.checksum && !whole {
		return fmt.Errorf("%w: the changes %s-%s were made to a database other than the one this standby holds at %s: restart the standby to restore it afresh", errContinuity, hdr.MinTXID, hdr.MaxTXID, f.applied)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("applying the replica's changes: %w", mapErr(err))
	}
	f.pages.Add(uint64(pages))
	f.applied, f.checksum = hdr.MaxTXID, dec.Trailer().PostApplyChecksum
	if hdr.NoChecksum() {
		f.checksum = 0
	}
	now := time.Now()
	f.mu.Lock()
	f.lag.LastApplied = now
	f.mu.Unlock()
	if err := writeFollowNote(f.db.path, followNote{f.applied, f.checksum}); err != nil {
		return fmt.Errorf("noting what was applied: %w", err)
	}
	return nil
}

// sameSchema refuses a first page whose schema version (its user_version,
// at offset 60) is not this binary's: the primary was upgraded, and this
// binary would read the new schema wrongly.
func sameSchema(page1 []byte) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	v := int(page1[60])<<24 | int(page1[61])<<16 | int(page1[62])<<8 | int(page1[63])
	if v != len(names) {
		return fmt.Errorf("the primary's schema is now version %d and this binary's is %d: the standby stops applying; restart it with the primary's version of tend", v, len(names))
	}
	return nil
}

// lagNow is the lag with Behind measured now.
func (f *follower) lagNow(now time.Time) FollowLag {
	f.mu.Lock()
	defer f.mu.Unlock()
	l := f.lag
	l.Following = f.following.Load()
	if l.ReplicaTXID > l.AppliedTXID {
		l.Transactions = l.ReplicaTXID - l.AppliedTXID
	}
	if len(f.pending) > 0 && l.Transactions > 0 {
		l.Behind = max(now.Sub(f.pending[0].CreatedAt), 0)
	}
	return l
}

// stop ends the loop after the file being applied.
func (f *follower) stop() {
	f.cancel()
	<-f.done
}

// FollowLag reports how far the standby is behind the replica it follows;
// Following is false on a store that does not follow one (or no longer, once
// promoted).
func (db *DB) FollowLag() FollowLag {
	if db.follow == nil {
		return FollowLag{}
	}
	return db.follow.lagNow(time.Now())
}

// ReadOnly is the read_only refusal while the store follows a replica, nil
// otherwise. Update answers it without touching the writer.
func (db *DB) ReadOnly() error {
	if f := db.follow; f != nil && f.following.Load() {
		return f.refusal
	}
	return nil
}

// Promote makes a standby a primary: it stops following after the file
// being applied, applies what the replica holds past it, checks the
// database's integrity, starts replicating, to
// replica when given, else to the replica it followed (where Litestream
// starts a new generation past the TXIDs there), and then accepts writes. A
// promotion refused (integrity, or replication that does not start) leaves
// the store following.
func (db *DB) Promote(ctx context.Context, replica string) error {
	f := db.follow
	if f == nil {
		return errors.New("this database does not follow a replica: there is nothing to promote")
	}
	f.promoting.Lock()
	defer f.promoting.Unlock()
	if !f.following.Load() {
		return errors.New("this database was promoted already")
	}
	f.stop()
	// What the replica holds and the loop had not applied yet is applied
	// first: the primary's last acknowledged writes are there. A replica
	// that cannot be read now does not hold the promotion up.
	if _, err := f.step(ctx, 0); err != nil {
		f.log.Warn("promoting without the replica's latest changes", "txid", f.applied.String(), "err", err)
	}
	resume := func() {
		loopCtx, cancel := context.WithCancel(context.Background())
		f.cancel, f.done = cancel, make(chan struct{})
		go f.run(loopCtx)
	}
	var problems []string
	if err := f.conn.SelectContext(ctx, &problems, "PRAGMA integrity_check"); err != nil {
		resume()
		return fmt.Errorf("checking the database before promoting: %w", err)
	}
	if len(problems) != 1 || problems[0] != "ok" {
		resume()
		return fmt.Errorf("the database fails its integrity check, so it is not promoted: %s", strings.Join(problems, "; "))
	}
	opts := f.opts
	opts.Replica = replica
	if opts.Replica == "" {
		opts.Replica = f.url
	}
	repl, err := startReplication(ctx, db, opts)
	if err != nil {
		resume()
		return err
	}
	db.repl.Store(repl)
	f.following.Store(false)
	_ = f.conn.Close()
	if err := os.Remove(db.path + followNoteSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	f.log.Info("promoted: this database is the primary now", "txid", f.applied.String(), "replicating_to", repl.state(time.Now()).Replica)
	return nil
}
