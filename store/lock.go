package store

import (
	"errors"
	"fmt"
	"os"
	"time"

	"tend/app"
)

// Who has the database open is said by a lock file beside it, path+".lock",
// held with flock(2) (lock_flock.go). Every Open and BackupFile (so serve,
// mcp, token, signin and backup) holds a shared lock on it for as long as
// the database is open; tend restore takes it exclusively, for the whole
// restore. So a restore never replaces a file that a server or another
// command is using, and nothing opens the file while a restore replaces it.
// The kernel drops the lock when its process ends, however it ends, so a
// killed server leaves no stale lock. The lock file is never removed:
// removing it would let two processes lock two different files.

// errLockHeld is what lockFile returns when another process holds the lock
// in a mode that excludes the one asked for.
var errLockHeld = errors.New("lock held")

// fileLock is a held lock on a database's lock file.
type fileLock struct{ f *os.File }

func lockPath(dbPath string) string { return dbPath + ".lock" }

// sharedLockWait is how long Open waits for an exclusive holder to let go:
// besides a restore, a database closing alone holds the lock exclusively
// for its last checkpoint (see DB.Close), for a moment.
var sharedLockWait = 2 * time.Second

// lockShared takes the shared lock an open database holds.
func lockShared(dbPath string) (*fileLock, error) {
	deadline := time.Now().Add(sharedLockWait)
	for {
		l, err := lockFile(lockPath(dbPath), false)
		if !errors.Is(err, errLockHeld) {
			return l, err
		}
		if time.Now().After(deadline) {
			return nil, app.Errorf(app.CodeBusy, "tend restore is replacing the database %s; try again once it has finished", dbPath)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lockExclusive takes the lock a restore holds: refused while anything has
// the database open.
func lockExclusive(dbPath string) (*fileLock, error) {
	l, err := lockFile(lockPath(dbPath), true)
	if errors.Is(err, errLockHeld) {
		return nil, app.Errorf(app.CodeBusy,
			"the database %s is open in another tend process (tend serve, or a command such as tend token or tend mcp): stop it, then restore", dbPath)
	}
	return l, err
}

func lockFile(path string, exclusive bool) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return nil, fmt.Errorf("opening the lock file: %w", err)
	}
	if err := flock(f, exclusive); err != nil {
		_ = f.Close()
		return nil, err
	}
	return &fileLock{f: f}, nil
}

// alone reports whether no other process (nor other DB in this one) has
// the database open, by trading the shared lock for an exclusive one
// without waiting. flock(2) does not trade atomically (it drops the shared
// lock first), so this is for Close only, after which the lock goes anyway.
func (l *fileLock) alone() bool {
	return l != nil && flock(l.f, true) == nil
}

// release drops the lock; closing the file is what drops it.
func (l *fileLock) release() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
