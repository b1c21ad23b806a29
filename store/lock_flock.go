//go:build linux || darwin || freebsd

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// flock takes f's lock without waiting. flock(2) locks belong to the open
// file, not to the process (unlike the fcntl locks SQLite takes on the
// database), so opening and closing the lock file elsewhere in the process
// never drops another's lock, and two opens in one process exclude each
// other just as two processes do.
func flock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLockHeld
		}
		return fmt.Errorf("locking %s: %w", f.Name(), err)
	}
}
