package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	lsfile "github.com/benbjohnson/litestream/file"
	"github.com/superfly/ltx"

	"tend/app"
	"tend/store"
)

const primaryURL = "https://primary.example"

// follower opens a standby of replica at path; its loop is left idle (an
// hour's interval) for the test to drive with FollowStep.
func follower(t testing.TB, replica, path string) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.Options{Follow: replica, FollowInterval: time.Hour, PrimaryURL: primaryURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// shipped is a primary replicating to a file replica, its seeded
// contents synced there: what a standby of that replica starts from.
func shipped(t *testing.T) (primary *store.DB, svc *app.Service, s seeded, replica string) {
	t.Helper()
	replica = "file://" + filepath.Join(t.TempDir(), "replica")
	primary, svc, s = replicated(t, replica)
	if err := primary.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	return primary, svc, s, replica
}

// sync ships the primary's writes to the replica and has the standby apply
// them.
func syncBoth(t *testing.T, primary, standby *store.DB) {
	t.Helper()
	if err := primary.SyncReplica(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := standby.FollowStep(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
}

func count(t *testing.T, db *store.DB, query string) int {
	t.Helper()
	var n int
	if err := db.GetSQL(t.Context(), &n, query); err != nil {
		t.Fatal(err)
	}
	return n
}

// asides lists the files a restore moved aside beside path.
func asides(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".before-restore-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFollowSeesPrimaryRefusesWritesAndPromotes(t *testing.T) {
	ctx := t.Context()
	primary, psvc, s, replica := shipped(t)
	path := filepath.Join(t.TempDir(), "standby.db")
	standby := follower(t, replica, path)
	ssvc := app.New(standby, app.Options{})
	const tasks = "SELECT count(*) FROM tasks"
	if got, want := count(t, standby, tasks), count(t, primary, tasks); got != want {
		t.Fatalf("restored standby has %d tasks, the primary %d", got, want)
	}

	addTasks(t, psvc, s, "new", 3)
	syncBoth(t, primary, standby)
	if got, want := count(t, standby, tasks), count(t, primary, tasks); got != want {
		t.Fatalf("standby has %d tasks after following, the primary %d", got, want)
	}

	// Writes are refused, naming the primary, without reaching the writer.
	for _, err := range []error{
		standby.ReadOnly(),
		standby.Update(ctx, func(app.Tx) error { t.Fatal("a standby ran a write"); return nil }),
		func() error {
			_, err := ssvc.CreateTask(ctx, s.admin, s.ws, app.TaskCreate{Title: "refused"})
			return err
		}(),
	} {
		var ae *app.Error
		if !errors.As(err, &ae) || ae.Code != app.CodeReadOnly || !strings.Contains(ae.Detail, primaryURL) {
			t.Fatalf("a write on the standby answered %v, want read_only naming %s", err, primaryURL)
		}
	}
	if err := primary.ReadOnly(); err != nil {
		t.Fatalf("the primary's ReadOnly = %v", err)
	}
	if err := primary.Promote(ctx, ""); err == nil || !strings.Contains(err.Error(), "does not follow") {
		t.Fatalf("Promote on a primary = %v, want a refusal saying it follows nothing", err)
	}
	if lag := primary.FollowLag(); lag.Following {
		t.Fatalf("the primary's FollowLag = %+v", lag)
	}

	// Restarted, the standby goes on from where it was: no restore.
	if err := standby.Close(); err != nil {
		t.Fatal(err)
	}
	addTasks(t, psvc, s, "while down", 2)
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	standby = follower(t, replica, path)
	if a := asides(t, path); len(a) != 0 {
		t.Fatalf("a restarted standby restored afresh (%v)", a)
	}
	if n, err := standby.FollowStep(ctx, 0); err != nil || n == 0 {
		t.Fatalf("FollowStep after a restart = %d, %v", n, err)
	}
	if got, want := count(t, standby, tasks), count(t, primary, tasks); got != want {
		t.Fatalf("restarted standby has %d tasks, the primary %d", got, want)
	}

	// Failover: the primary goes, the standby is promoted (applying first
	// what the primary shipped last) and writes.
	addTasks(t, psvc, s, "last before the failover", 2)
	last := count(t, primary, tasks)
	if err := primary.Close(); err != nil {
		t.Fatal(err)
	}
	if err := standby.Promote(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if got := count(t, standby, tasks); got != last {
		t.Fatalf("the promoted standby has %d tasks, the primary had %d", got, last)
	}
	if err := standby.ReadOnly(); err != nil {
		t.Fatalf("ReadOnly after Promote = %v", err)
	}
	if lag := standby.FollowLag(); lag.Following {
		t.Fatalf("FollowLag after Promote = %+v", lag)
	}
	if err := standby.Promote(ctx, ""); err == nil {
		t.Fatal("a second Promote was accepted")
	}
	ssvc = app.New(standby, app.Options{})
	addTasks(t, ssvc, s, "after promotion", 2)
	want := count(t, standby, tasks)
	if err := standby.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	// What the promoted standby wrote is on the replica it followed.
	again := filepath.Join(t.TempDir(), "again.db")
	if _, err := store.RestoreReplica(ctx, replica, time.Time{}, again); err != nil {
		t.Fatal(err)
	}
	withService(t, again, func(db *store.DB, _ *app.Service) {
		if got := count(t, db, tasks); got != want {
			t.Fatalf("the replica holds %d tasks after the promoted standby wrote, want %d", got, want)
		}
	})
}

func TestFollowRevokedTokenAndLag(t *testing.T) {
	ctx := t.Context()
	primary, psvc, s, replica := shipped(t)
	standby := follower(t, replica, filepath.Join(t.TempDir(), "standby.db"))
	prefix, _ := app.SecretPrefix(seedSecret)
	usable := func() bool {
		c, err := standby.Credential(ctx, prefix)
		if err != nil {
			t.Fatal(err)
		}
		return c.Token.Usable(c.Now)
	}
	if !usable() { // and now the standby's credential cache holds it
		t.Fatal("the seeded token is not usable on the standby")
	}
	if lag := standby.FollowLag(); !lag.Following || lag.Transactions != 0 || lag.Behind != 0 || lag.Err != nil {
		t.Fatalf("FollowLag of a standby just restored = %+v", lag)
	}

	// Three rounds on the primary, three files on the replica; the standby
	// applies one: it is behind by the other two.
	for i := range 3 {
		addTasks(t, psvc, s, "round", i+1)
		if err := primary.SyncReplica(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := standby.FollowStep(ctx, 1); err != nil || n != 1 {
		t.Fatalf("FollowStep(1) = %d, %v", n, err)
	}
	lag := standby.FollowLag()
	if lag.Transactions == 0 || lag.Behind <= 0 || lag.ReplicaTXID <= lag.AppliedTXID || lag.LastApplied.IsZero() {
		t.Fatalf("FollowLag while behind = %+v", lag)
	}
	if _, err := psvc.RevokeToken(ctx, s.admin, s.admin.Token.ID); err != nil {
		t.Fatal(err)
	}
	syncBoth(t, primary, standby)
	if lag := standby.FollowLag(); lag.Transactions != 0 || lag.Behind != 0 || lag.AppliedTXID != lag.ReplicaTXID {
		t.Fatalf("FollowLag once caught up = %+v", lag)
	}
	if usable() {
		t.Fatal("a token revoked on the primary is still usable on the standby once it caught up")
	}
}

func TestFollowRefusals(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	replica := "file://" + filepath.Join(dir, "replica")
	if _, err := store.Open(ctx, filepath.Join(dir, "a.db"), store.Options{Follow: replica}); err == nil || !strings.Contains(err.Error(), "holds no database") {
		t.Fatalf("following an empty replica: %v", err)
	}
	if _, err := store.Open(ctx, filepath.Join(dir, "b.db"), store.Options{Follow: replica, Replica: replica}); err == nil {
		t.Fatal("Follow with Replica was accepted")
	}
	primary, _, s := replicated(t, replica)
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(ctx, s.path, store.Options{Follow: replica}); err == nil || !strings.Contains(err.Error(), "not made by following") {
		t.Fatalf("following into a primary's own file: %v", err)
	}
}

// A standby's file is opened by nothing but a standby: a command that
// wrote there would see its write lost at the next restore afresh, or kept
// after a promotion as the primary's. Once promoted it opens as any file.
func TestFollowFileRefusedToOthers(t *testing.T) {
	ctx := t.Context()
	_, _, _, replica := shipped(t)
	path := filepath.Join(t.TempDir(), "standby.db")
	standby := follower(t, replica, path)
	refused := func(when string) {
		t.Helper()
		if _, err := store.Open(ctx, path, store.Options{}); err == nil || !strings.Contains(err.Error(), "standby's copy of a replica") || !strings.Contains(err.Error(), "tend promote") {
			t.Fatalf("a plain Open of a standby's file %s = %v, want a refusal naming tend promote", when, err)
		}
	}
	refused("beside the standby")
	if err := standby.Close(); err != nil {
		t.Fatal(err)
	}
	refused("with the standby stopped")
	standby = follower(t, replica, path)
	if err := standby.Promote(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if err := standby.Close(); err != nil {
		t.Fatal(err)
	}
	withService(t, path, func(*store.DB, *app.Service) {})
}

// A standby whose file changed under it (here: written by another SQLite
// program, as tend itself refuses to open it) restores afresh at its next
// start, the changed file aside.
func TestFollowRestoresAfreshWhenTheFileChanged(t *testing.T) {
	ctx := t.Context()
	_, _, _, replica := shipped(t)
	path := filepath.Join(t.TempDir(), "standby.db")
	if err := follower(t, replica, path).Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.ExecContext(ctx, "UPDATE tasks SET title = 'changed on the standby'"); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	standby := follower(t, replica, path)
	if len(asides(t, path)) != 1 {
		t.Fatal("a changed standby file was not restored afresh")
	}
	if n := count(t, standby, "SELECT count(*) FROM tasks WHERE title = 'changed on the standby'"); n != 0 {
		t.Fatalf("%d changed tasks on the standby after it restored afresh", n)
	}
}

// ledgerPad makes each ledger row fill most of a page, so that the two rows
// a transfer changes are on different pages.
const ledgerPad = 3000

// TestFollowAtomic is issue 39's test: the primary runs transfers between
// two accounts, each keeping the sum at zero, and readers on the standby
// sum the ledger in a loop while the standby applies them: no reader may
// ever see a transfer half applied.
func TestFollowAtomic(t *testing.T) {
	transfers := 10000
	if testing.Short() {
		transfers = 1000
	}
	ctx := t.Context()
	replica := "file://" + filepath.Join(t.TempDir(), "replica")
	primary, _, _ := replicated(t, replica)
	if err := primary.ExecSQL(ctx, "CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, pad BLOB NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	if err := primary.ExecSQL(ctx, "INSERT INTO ledger VALUES (1, 0, randomblob(?1)), (2, 0, randomblob(?1))", ledgerPad); err != nil {
		t.Fatal(err)
	}
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	standby := follower(t, replica, filepath.Join(t.TempDir(), "standby.db"))

	// The writes, all shipped before the standby applies anything, so that
	// the readers below take no time from the primary: the first hundred
	// each alone (a file holding one transaction), the rest in batches.
	for i := 1; i <= transfers; i++ {
		if err := primary.ExecSQL(ctx, "UPDATE ledger SET amount = amount + CASE id WHEN 1 THEN ?1 ELSE -?1 END", i); err != nil {
			t.Fatal(err)
		}
		if i <= 100 || i%50 == 0 || i == transfers {
			if err := primary.SyncReplica(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}

	var reads atomic.Int64
	var bad atomic.Value
	seen := map[int]bool{}
	var seenMu sync.Mutex
	stop := make(chan struct{})
	var readers sync.WaitGroup
	var stopOnce sync.Once
	stopReaders := func() { stopOnce.Do(func() { close(stop) }); readers.Wait() }
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				var row struct {
					Sum   int `db:"total"`
					First int `db:"first"`
				}
				if err := standby.GetSQL(context.Background(), &row, "SELECT sum(amount) AS total, (SELECT amount FROM ledger WHERE id = 1) AS first FROM ledger"); err != nil {
					bad.Store(err.Error())
					return
				}
				if row.Sum != 0 {
					bad.Store(fmt.Sprintf("the ledger sums to %d: a transfer was seen half applied", row.Sum))
					return
				}
				seenMu.Lock()
				seen[row.First] = true
				seenMu.Unlock()
				reads.Add(1)
			}
		})
	}
	defer stopReaders()

	applyAll := func() int {
		applied := 0
		for {
			n, err := standby.FollowStep(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return applied
			}
			applied++
			// Let the readers read the state just applied before the next:
			// with two readers, at most two reads were under way at the
			// commit, so the third to end began after it. Every file's
			// state is then seen, not by luck of timing.
			after := reads.Load()
			for deadline := time.Now().Add(10 * time.Second); reads.Load() < after+3 && bad.Load() == nil; {
				if time.Now().After(deadline) {
					t.Fatal("the readers stopped reading")
				}
				time.Sleep(50 * time.Microsecond)
			}
		}
	}
	files := applyAll()
	stopReaders()
	if msg := bad.Load(); msg != nil {
		t.Fatal(msg)
	}
	want := transfers * (transfers + 1) / 2
	if got := count(t, standby, "SELECT amount FROM ledger WHERE id = 1"); got != want {
		t.Fatalf("the standby's first account holds %d after all transfers, want %d", got, want)
	}
	if len(seen) < 100 {
		t.Fatalf("the readers saw %d states over %d files applied: they did not run beside the applying", len(seen), files)
	}
	t.Logf("%d transfers in %d files; readers ran %d sums and saw %d states", transfers, files, reads.Load(), len(seen))
}

// A replica started over by another primary: the running standby stops
// applying and says why, and restarted it restores afresh from the new
// history.
func TestFollowReplicaStartedOver(t *testing.T) {
	ctx := t.Context()
	replicaDir := filepath.Join(t.TempDir(), "replica")
	replica := "file://" + replicaDir
	first, fsvc, fs := replicated(t, replica)
	if err := first.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "standby.db")
	standby := follower(t, replica, path)
	for i := range 3 {
		addTasks(t, fsvc, fs, "first primary", i+1)
		syncBoth(t, first, standby)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(replicaDir); err != nil {
		t.Fatal(err)
	}
	second, svc, s := replicated(t, replica)
	addTasks(t, svc, s, "second primary", 2)
	if err := second.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := standby.FollowStep(ctx, 0); err == nil || !strings.Contains(err.Error(), "restore it afresh") {
		t.Fatalf("following a replica started over: %v", err)
	}
	if lag := standby.FollowLag(); lag.Err == nil {
		t.Fatalf("FollowLag after the replica started over = %+v", lag)
	}
	if err := standby.Close(); err != nil {
		t.Fatal(err)
	}
	standby = follower(t, replica, path)
	if len(asides(t, path)) != 1 {
		t.Fatal("a standby restarted on a replica started over did not restore afresh")
	}
	const tasks = "SELECT count(*) FROM tasks"
	if got, want := count(t, standby, tasks), count(t, second, tasks); got != want {
		t.Fatalf("the standby restored afresh has %d tasks, the second primary %d", got, want)
	}
}

// A standby down while the replica compacted level 0 away bridges the gap
// with the compacted file, as Litestream's follow does. Litestream compacts
// on its own clock, so the test compacts: it replaces level-0 files by one
// level-1 file holding their pages, as Litestream's compaction writes it.
func TestFollowBridgesCompactedGap(t *testing.T) {
	ctx := t.Context()
	replicaDir := filepath.Join(t.TempDir(), "replica")
	primary, svc, s := replicated(t, "file://"+replicaDir)
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	standby := follower(t, "file://"+replicaDir, filepath.Join(t.TempDir(), "standby.db"))
	from := standby.FollowLag().AppliedTXID
	for i := range 4 {
		addTasks(t, svc, s, "compacted", i+1)
		if err := primary.SyncReplica(ctx); err != nil {
			t.Fatal(err)
		}
	}
	client := lsfile.NewReplicaClient(replicaDir)
	itr, err := client.LTXFiles(ctx, 0, ltx.TXID(from+1), false)
	if err != nil {
		t.Fatal(err)
	}
	files, err := ltx.SliceFileIterator(itr)
	if err != nil || len(files) < 3 {
		t.Fatalf("level 0 holds %d files past %d (%v)", len(files), from, err)
	}
	// The first three files after the standby's TXID become one level-1
	// file; the last stays at level 0, after the gap.
	gone := files[:3]
	var inputs []io.Reader
	for _, fi := range gone {
		rc, err := client.OpenLTXFile(ctx, 0, fi.MinTXID, fi.MaxTXID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		inputs = append(inputs, rc)
	}
	var out bytes.Buffer
	c, err := ltx.NewCompactor(&out, inputs)
	if err != nil {
		t.Fatal(err)
	}
	c.HeaderFlags = ltx.HeaderFlagNoChecksum
	if err := c.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := client.WriteLTXFile(ctx, 1, gone[0].MinTXID, gone[2].MaxTXID, &out); err != nil {
		t.Fatal(err)
	}
	if err := client.DeleteLTXFiles(ctx, gone); err != nil {
		t.Fatal(err)
	}
	if n, err := standby.FollowStep(ctx, 0); err != nil || n < 2 {
		t.Fatalf("FollowStep over a compacted gap = %d, %v", n, err)
	}
	const tasks = "SELECT count(*) FROM tasks"
	if got, want := count(t, standby, tasks), count(t, primary, tasks); got != want {
		t.Fatalf("the standby has %d tasks after bridging, the primary %d", got, want)
	}
	if lag := standby.FollowLag(); lag.Transactions != 0 || lag.Err != nil {
		t.Fatalf("FollowLag after bridging = %+v", lag)
	}
}

// A primary upgraded under its standby: the standby does not apply a
// schema its binary does not know, and says so.
func TestFollowStopsAtANewSchema(t *testing.T) {
	ctx := t.Context()
	primary, _, _, replica := shipped(t)
	standby := follower(t, replica, filepath.Join(t.TempDir(), "standby.db"))
	version := count(t, primary, "PRAGMA user_version")
	if err := primary.ExecSQL(ctx, fmt.Sprintf("PRAGMA user_version = %d", version+1)); err != nil {
		t.Fatal(err)
	}
	if err := primary.SyncReplica(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := standby.FollowStep(ctx, 0); err == nil || !strings.Contains(err.Error(), "primary's version of tend") {
		t.Fatalf("applying a newer schema: %v", err)
	}
	if got := count(t, standby, "PRAGMA user_version"); got != version {
		t.Fatalf("the standby's schema version is %d, want %d kept", got, version)
	}
	if lag := standby.FollowLag(); lag.Err == nil || lag.Transactions == 0 {
		t.Fatalf("FollowLag after refusing a newer schema = %+v", lag)
	}
}

// A standby whose copy fails its integrity check is not promoted: Promote
// says why, and the store goes on following, refusing writes.
func TestFollowPromoteRefusedOnACorruptCopy(t *testing.T) {
	ctx := t.Context()
	_, _, _, replica := shipped(t)
	path := filepath.Join(t.TempDir(), "standby.db")
	standby := follower(t, replica, path)

	// Another SQLite program changes the rowid an entry of an index on
	// tasks points at (the last byte of the first cell on a leaf page with
	// entries), so that the index misses a task's row.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.QueryContext(ctx, "SELECT d.pgno, d.data FROM sqlite_master m JOIN sqlite_dbpage d ON d.pgno = m.rootpage WHERE m.type = 'index' AND m.tbl_name = 'tasks' AND m.sql IS NOT NULL ORDER BY m.name")
	if err != nil {
		t.Fatal(err)
	}
	root, page := 0, []byte(nil)
	for rows.Next() && root == 0 {
		var pgno int
		var data []byte
		if err := rows.Scan(&pgno, &data); err != nil {
			t.Fatal(err)
		}
		if data[0] == 0x0a && (data[3] != 0 || data[4] != 0) { // an index leaf with cells
			root, page = pgno, data
		}
	}
	if err := rows.Close(); err != nil || root == 0 {
		t.Fatalf("no index leaf with entries on tasks (%v)", err)
	}
	cell := int(page[8])<<8 | int(page[9])
	size, n := binary.Uvarint(page[cell:]) // a payload this small is one byte of varint
	if n != 1 || size >= 128 {
		t.Fatalf("the first cell's payload is %d bytes (varint of %d)", size, n)
	}
	page[cell+1+int(size)-1] ^= 1
	if _, err := raw.ExecContext(ctx, "UPDATE sqlite_dbpage SET data = ? WHERE pgno = ?", page, root); err != nil {
		t.Fatal(err)
	}
	var check string
	if err := raw.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check == "ok" {
		t.Fatalf("the corruption went unseen by SQLite: %q, %v", check, err)
	}

	if err := standby.Promote(ctx, ""); err == nil || !strings.Contains(err.Error(), "integrity") {
		t.Fatalf("promoting a corrupt copy = %v, want a refusal naming the integrity check", err)
	}
	var ae *app.Error
	if err := standby.ReadOnly(); !errors.As(err, &ae) || ae.Code != app.CodeReadOnly {
		t.Fatalf("ReadOnly after a refused promotion = %v, want read_only", err)
	}
	if lag := standby.FollowLag(); !lag.Following {
		t.Fatalf("FollowLag after a refused promotion = %+v, want following", lag)
	}
	if _, err := os.Stat(path + "-follow"); err != nil {
		t.Fatalf("the follow note after a refused promotion: %v", err)
	}
}
