package store_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// backupDir is where a store opened with default options puts its backups.
func backupDir(db *store.DB) string { return filepath.Join(filepath.Dir(db.Path()), "backups") }

// tickingClock returns a clock that starts at epoch and moves one second on
// each call to advance, so that backups taken in a row get distinct names.
func tickingClock(db *store.DB) (advance func() time.Time) {
	var mu sync.Mutex
	now := epoch
	db.Now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

func copyFile(t testing.TB, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func names(bs []app.Backup) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestBackupRoundTrip(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	first, err := app.New(db, app.Options{}).Bootstrap(ctx, app.BootstrapOptions{InstanceName: "home", Timezone: "Europe/Berlin", AdminUsername: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Backup(ctx, app.BackupRoutine, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b.TakenFor != app.BackupRoutine || b.SchemaHead != db.SchemaRevision() || b.Profile != "full" {
		t.Errorf("Backup = %+v, want routine, full, at schema %s", b, db.SchemaRevision())
	}
	if filepath.Base(b.Name) != b.Name || !strings.HasPrefix(b.Name, "tend-") {
		t.Errorf("Backup.Name = %q, want a bare tend-… file name", b.Name)
	}
	src := filepath.Join(backupDir(db), b.Name)
	fi, err := os.Stat(src)
	if err != nil {
		t.Fatal(err)
	}
	if b.SizeBytes != fi.Size() || b.SizeBytes == 0 {
		t.Errorf("SizeBytes = %d, file has %d", b.SizeBytes, fi.Size())
	}

	// Restore: the copy, opened by the store somewhere else, is a working database.
	restored := filepath.Join(t.TempDir(), "restored", "tend.db")
	copyFile(t, src, restored)
	db2, err := store.Open(ctx, restored, store.Options{})
	if err != nil {
		t.Fatalf("opening the backup: %v", err)
	}
	defer db2.Close()
	if got := db2.SchemaRevision(); got != b.SchemaHead {
		t.Errorf("restored SchemaRevision = %q, want %q", got, b.SchemaHead)
	}
	var inst app.Instance
	var users []app.User
	if err := db2.View(ctx, func(tx app.Tx) error {
		var err error
		if inst, err = tx.Instance(ctx); err != nil {
			return err
		}
		users, err = tx.Users(ctx, app.UserFilter{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if inst.ID != first.Instance.ID || inst.Name != "home" || inst.Timezone != "Europe/Berlin" {
		t.Errorf("restored instance = %+v, want %+v", inst, first.Instance)
	}
	if len(users) != 1 || users[0].Username != "alice" || !users[0].IsSuperuser || users[0].ID != first.Admin.ID {
		t.Errorf("restored users = %+v, want the administrator alice", users)
	}
	// The administrator's credential travels with the copy.
	a, err := app.New(db2, app.Options{}).Authenticate(ctx, first.Token.Secret, "http")
	if err != nil || a.User.Username != "alice" {
		t.Errorf("Authenticate on the restored copy: %+v, %v", a.User, err)
	}
	// And it can be written to.
	if err := insertWorkspace(ctx, db2, "after-restore"); err != nil {
		t.Errorf("writing to the restored copy: %v", err)
	}
	if bs, err := db2.Backups(ctx); err != nil || len(bs) != 0 {
		t.Errorf("opening a copy at the same schema took backups: %v, %v", bs, err)
	}
}

func TestBackupWhileWriting(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	var (
		written  atomic.Int64
		failures atomic.Int64
		lastErr  atomic.Value
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := insertWorkspace(ctx, db, fmt.Sprintf("g%d-%d", g, i)); err != nil {
					failures.Add(1)
					lastErr.Store(err.Error())
					continue
				}
				written.Add(1)
			}
		}()
	}
	stopped := false
	stopWriters := func() {
		if !stopped {
			stopped = true
			close(stop)
			wg.Wait()
		}
	}
	defer stopWriters()
	waitFor := func(n int64) {
		deadline := time.Now().Add(20 * time.Second)
		for written.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("writers managed only %d rows", written.Load())
			}
			runtime.Gosched() // the writers run on other goroutines; no clock is involved
		}
	}
	waitFor(20)
	before := written.Load()
	b, err := db.Backup(ctx, app.BackupRoutine, 0)
	during := written.Load() - before
	if err != nil {
		t.Fatalf("backup under load: %v", err)
	}
	waitFor(written.Load() + 10) // the writers were not stopped by the backup
	stopWriters()
	if n := failures.Load(); n != 0 {
		t.Fatalf("%d writes failed while the backup ran; last: %v", n, lastErr.Load())
	}
	t.Logf("%d rows before the backup, %d written while it ran, %d in all", before, during, written.Load())

	copyPath := filepath.Join(backupDir(db), b.Name)
	if got := integrityCheck(t, copyPath); got != "ok" {
		t.Fatalf("integrity_check on the copy = %q", got)
	}
	c := rawOpen(t, copyPath)
	var inCopy int64
	if err := c.QueryRow("SELECT count(*) FROM workspaces").Scan(&inCopy); err != nil {
		t.Fatal(err)
	}
	var fkProblems int
	if err := c.QueryRow("SELECT count(*) FROM pragma_foreign_key_check").Scan(&fkProblems); err != nil {
		t.Fatal(err)
	}
	if inCopy < before || inCopy > written.Load() || fkProblems != 0 {
		t.Errorf("copy holds %d workspaces (want between %d and %d) and %d foreign key problems",
			inCopy, before, written.Load(), fkProblems)
	}
	assertNoTemporaries(t, backupDir(db))
}

func TestBackupKeep(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	advance := tickingClock(db)

	// Copies taken before an upgrade or a restore are the oldest here, so a
	// prune that ignored the reason would remove them first.
	upgrade, err := db.Backup(ctx, app.BackupUpgrade, 0)
	if err != nil {
		t.Fatal(err)
	}
	advance()
	restore, err := db.Backup(ctx, app.BackupRestore, 0)
	if err != nil {
		t.Fatal(err)
	}
	var routine []app.Backup
	for i := range 5 {
		advance()
		b, err := db.Backup(ctx, app.BackupRoutine, 2)
		if err != nil {
			t.Fatalf("routine backup %d: %v", i, err)
		}
		routine = append(routine, b)
	}
	bs, err := db.Backups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{routine[4].Name, routine[3].Name, restore.Name, upgrade.Name}
	if got := names(bs); !slices.Equal(got, want) {
		t.Errorf("after five routine backups with keep 2:\n got %q\nwant %q", got, want)
	}
	entries, err := os.ReadDir(backupDir(db))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("backup directory holds %d entries, want %d", len(entries), len(want))
	}

	// keep 0 keeps everything.
	advance()
	if _, err := db.Backup(ctx, app.BackupRoutine, 0); err != nil {
		t.Fatal(err)
	}
	if bs, _ := db.Backups(ctx); len(bs) != len(want)+1 {
		t.Errorf("keep 0 removed backups: %q", names(bs))
	}
}

func TestBackupsListing(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	if bs, err := db.Backups(ctx); err != nil || len(bs) != 0 {
		t.Fatalf("Backups before any backup (no directory yet) = %v, %v; want an empty list", bs, err)
	}
	advance := tickingClock(db)
	var taken []app.Backup
	for _, reason := range []string{app.BackupRoutine, app.BackupUpgrade, app.BackupRoutine} {
		b, err := db.Backup(ctx, reason, 0)
		if err != nil {
			t.Fatal(err)
		}
		taken = append(taken, b)
		advance()
	}
	dir := backupDir(db)
	// Things in the directory that are not backups are not listed.
	for _, name := range []string{"notes.txt", "tend-garbage.db", taken[0].Name + ".tmp"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "tend-20990101T000000.000Z-routine-0001_init.db"), 0o755); err != nil {
		t.Fatal(err)
	}

	bs, err := db.Backups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{taken[2].Name, taken[1].Name, taken[0].Name}
	if got := names(bs); !slices.Equal(got, want) {
		t.Fatalf("Backups = %q, want newest first %q", got, want)
	}
	for i, b := range bs {
		if strings.ContainsAny(b.Name, `/\`) || filepath.Base(b.Name) != b.Name {
			t.Errorf("backup name %q carries a directory", b.Name)
		}
		if i > 0 && !b.TakenAt.Before(bs[i-1].TakenAt) {
			t.Errorf("backup %d taken at %v is not older than the one before it (%v)", i, b.TakenAt, bs[i-1].TakenAt)
		}
		fi, err := os.Stat(filepath.Join(dir, b.Name))
		if err != nil || fi.Size() != b.SizeBytes {
			t.Errorf("%s: listed size %d, file %v, %v", b.Name, b.SizeBytes, fi, err)
		}
		if b.SchemaHead != db.SchemaRevision() || b.Profile != "full" {
			t.Errorf("%s: %+v", b.Name, b)
		}
	}
	if !bs[2].TakenAt.Equal(epoch) || bs[1].TakenFor != app.BackupUpgrade {
		t.Errorf("listing does not read time and reason back from the name: %+v", bs)
	}
	// ListBackups reads the same directory without opening the database.
	if got, err := store.ListBackups(db.Path(), ""); err != nil || !slices.Equal(names(got), want) {
		t.Errorf("ListBackups = %q, %v; want %q", names(got), err, want)
	}
}

func TestBackupNoTemporaries(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	advance := tickingClock(db)
	for range 3 {
		if _, err := db.Backup(ctx, app.BackupRoutine, 1); err != nil {
			t.Fatal(err)
		}
		advance()
	}
	assertNoTemporaries(t, backupDir(db))
	entries, _ := os.ReadDir(backupDir(db))
	if len(entries) != 1 {
		t.Errorf("backup directory holds %d entries, want 1", len(entries))
	}
}

func TestBackupNameTaken(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	tickingClock(db) // stands still until advanced
	first, err := db.Backup(ctx, app.BackupRoutine, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Backup(ctx, app.BackupRoutine, 0); app.CodeOf(err) != app.CodeConflict {
		t.Errorf("second backup in the same millisecond: %v, want conflict", err)
	}
	bs, err := db.Backups(ctx)
	if err != nil || len(bs) != 1 || bs[0].Name != first.Name {
		t.Errorf("the refused backup changed the listing: %q, %v", names(bs), err)
	}
	assertNoTemporaries(t, backupDir(db))
}

func TestBackupDirUnusable(t *testing.T) {
	t.Parallel()
	blocker := storetest.Blocked(t)
	db, err := store.Open(t.Context(), storetest.Migrated.Copy(t, filepath.Join(t.TempDir(), "tend.db")), store.Options{BackupDir: blocker})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Backup(t.Context(), app.BackupRoutine, 0); app.CodeOf(err) != app.CodeBackupUnavailable {
		t.Errorf("Backup into a file: %v, want backup_unavailable", err)
	}
	if _, err := db.Backups(t.Context()); app.CodeOf(err) != app.CodeBackupUnavailable {
		t.Errorf("Backups of a file: %v, want backup_unavailable", err)
	}
	if err := db.Update(t.Context(), func(app.Tx) error { return nil }); err != nil {
		t.Errorf("the database is unusable after a failed backup: %v", err)
	}
}

func TestBackupFileWhileOpen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	if err := insertWorkspace(ctx, db, "live"); err != nil {
		t.Fatal(err)
	}
	// The server keeps the file open and its last write may sit in the WAL;
	// the command line's backup must still see it.
	b, err := store.BackupFile(ctx, db.Path(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if b.TakenFor != app.BackupRoutine || b.SchemaHead != db.SchemaRevision() {
		t.Errorf("BackupFile = %+v, want routine at %s", b, db.SchemaRevision())
	}
	copyPath := filepath.Join(backupDir(db), b.Name)
	if got := integrityCheck(t, copyPath); got != "ok" {
		t.Fatalf("integrity_check = %q", got)
	}
	var slug string
	if err := rawOpen(t, copyPath).QueryRow("SELECT slug FROM workspaces").Scan(&slug); err != nil || slug != "live" {
		t.Errorf("copy holds workspace %q, %v; want the committed row", slug, err)
	}
	// The open store lists what the command line took.
	if bs, err := db.Backups(ctx); err != nil || len(bs) != 1 || bs[0].Name != b.Name {
		t.Errorf("Backups = %q, %v; want [%s]", names(bs), err, b.Name)
	}
}

func TestBackupFileDoesNotMigrate(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	path := storetest.Migrated.Copy(t, filepath.Join(dir, "tend.db"))
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	// A database a newer tend wrote: Open refuses it, but a backup is exactly
	// what its owner needs before deciding what to do.
	setUserVersion(t, path, 99)
	out := filepath.Join(dir, "elsewhere")
	b, err := store.BackupFile(ctx, path, out, 0)
	if err != nil {
		t.Fatalf("BackupFile on a newer database: %v", err)
	}
	if b.SchemaHead != "0099" {
		t.Errorf("SchemaHead = %q, want 0099 (the version the file is at)", b.SchemaHead)
	}
	copyPath := filepath.Join(out, b.Name)
	if got := integrityCheck(t, copyPath); got != "ok" {
		t.Errorf("integrity_check = %q", got)
	}
	if got := userVersion(t, copyPath); got != 99 {
		t.Errorf("copy user_version = %d, want 99", got)
	}
	if got := userVersion(t, path); got != 99 {
		t.Errorf("BackupFile changed the source's user_version to %d", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "backups")); !os.IsNotExist(err) {
		t.Errorf("BackupFile with a directory also wrote to the default one: %v", err)
	}
	if bs, err := store.ListBackups(path, out); err != nil || len(bs) != 1 || bs[0].Name != b.Name {
		t.Errorf("ListBackups = %q, %v", names(bs), err)
	}
}

func TestBackupFileMissingDatabase(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "nothing.db")
	if _, err := store.BackupFile(context.Background(), path, "", 0); err == nil {
		t.Fatal("BackupFile on a missing file succeeded")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("BackupFile created the database it was asked to copy: %v", err)
	}
}
