//go:build unix

package store_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// TestFileModes: the database, its -wal and -shm, each backup and the
// backup directory are the owner's alone, even under a umask that would
// leave them open to everyone (so not parallel: the umask is the process's).
func TestFileModes(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	ctx := t.Context()
	dir := t.TempDir()
	path := filepath.Join(dir, "tend.db")
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	assertMode(t, path, 0o600)
	if err := insertWorkspace(ctx, db, "modes"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		assertMode(t, p, 0o600)
	}
	b, err := db.Backup(ctx, app.BackupRoutine, 0)
	if err != nil {
		t.Fatal(err)
	}
	assertMode(t, filepath.Join(dir, "backups"), os.ModeDir|0o700)
	assertMode(t, filepath.Join(dir, "backups", b.Name), 0o600)
}

// TestFileModesNarrowed: a database an older tend left readable by others
// is narrowed when it is opened, -wal and -shm included; a backup directory
// that exists already is the operator's and keeps its mode.
func TestFileModesNarrowed(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	path := storetest.Migrated.Copy(t, filepath.Join(dir, "tend.db"))
	backups := filepath.Join(dir, "shared")
	if err := os.Mkdir(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(backups, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, path, store.Options{BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	if err := insertWorkspace(ctx, db, "old"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Closing truncates the -wal; reopening narrows what is there.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path+"-wal", 0o644); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	db, err = store.Open(ctx, path, store.Options{BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		assertMode(t, p, 0o600)
	}
	b, err := db.Backup(ctx, app.BackupRoutine, 0)
	if err != nil {
		t.Fatal(err)
	}
	assertMode(t, backups, os.ModeDir|0o755)
	assertMode(t, filepath.Join(backups, b.Name), 0o600)
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode() & (os.ModeDir | os.ModePerm); got != want {
		t.Errorf("%s has mode %v, want %v", filepath.Base(path), got, want)
	}
}
