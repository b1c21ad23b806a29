//go:build !(linux || darwin || freebsd)

package store

import (
	"errors"
	"os"
)

// flock: this platform has no flock(2) here. Opening the database goes
// ahead unlocked; a restore, which must know that nothing has the file
// open, is refused.
func flock(_ *os.File, exclusive bool) error {
	if exclusive {
		return errors.New("tend restore needs flock(2), which this platform lacks: stop every tend process, then copy the backup over the database and delete its -wal and -shm by hand")
	}
	return nil
}
