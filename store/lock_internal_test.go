package store

import (
	"strings"
	"testing"

	"tend/app"
)

// The lock a restore holds keeps every opener out, and every opener keeps
// a restore out; the locks go with Close and release.
func TestRestoreLock(t *testing.T) {
	ctx := t.Context()
	path := lockTestPath(t)
	restoring, err := lockExclusive(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, path, Options{}); app.CodeOf(err) != app.CodeBusy || !strings.Contains(err.Error(), "tend restore is replacing") {
		t.Errorf("Open during a restore: %v; want busy", err)
	}
	if _, err := lockExclusive(path); app.CodeOf(err) != app.CodeBusy {
		t.Errorf("a second restore at once: %v; want busy", err)
	}
	if err := restoring.release(); err != nil {
		t.Fatal(err)
	}

	one, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Open(ctx, path, Options{}) // a command beside a server
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockExclusive(path); app.CodeOf(err) != app.CodeBusy {
		t.Errorf("restore while the database is open: %v; want busy", err)
	}
	if err := one.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := lockExclusive(path); app.CodeOf(err) != app.CodeBusy {
		t.Errorf("restore while the database is still open once: %v; want busy", err)
	}
	if err := two.Close(); err != nil {
		t.Fatal(err)
	}
	if restoring, err = lockExclusive(path); err != nil {
		t.Fatalf("restore once every opener closed: %v", err)
	}
	if _, err := BackupFile(ctx, path, "", 0); app.CodeOf(err) != app.CodeBusy {
		t.Errorf("BackupFile during a restore: %v; want busy", err)
	}
	_ = restoring.release()
}

// A database is alone when no other opener holds the lock.
func TestLockAlone(t *testing.T) {
	path := lockTestPath(t)
	one, err := lockShared(path)
	if err != nil {
		t.Fatal(err)
	}
	two, err := lockShared(path)
	if err != nil {
		t.Fatal(err)
	}
	if one.alone() {
		t.Error("alone while another opener holds the lock")
	}
	_ = one.release()
	if !two.alone() {
		t.Error("not alone once the other opener released the lock")
	}
	if _, err := lockShared(path); app.CodeOf(err) != app.CodeBusy {
		t.Errorf("opening while the lone opener holds the lock exclusively: %v; want busy", err)
	}
	_ = two.release()
}

// lockTestPath is a migrated file for a test of the locks, with Open
// made to give up at once on a lock it would wait for: the tests are not
// parallel, as sharedLockWait is the package's.
func lockTestPath(t *testing.T) string {
	t.Helper()
	wait := sharedLockWait
	sharedLockWait = 0
	t.Cleanup(func() { sharedLockWait = wait })
	return migratedPath(t, "tend.db")
}
