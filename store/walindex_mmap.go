//go:build linux || darwin || freebsd

package store

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// shmFiles are the -shm files this process has mapped, by device and inode,
// each opened once however many DBs use it. Closing any descriptor of a
// file drops every POSIX lock the process holds on it, and SQLite locks the
// -shm with POSIX locks (its read marks, and the lock that tells other
// processes the file is in use): the one descriptor is closed only when no
// DB of this process uses the file any more.
var shmFiles = struct {
	sync.Mutex
	m map[shmKey]*shmFile
}{m: map[shmKey]*shmFile{}}

type shmKey struct{ dev, ino uint64 }

type shmFile struct {
	f    *os.File
	mem  []byte
	view *shmView
	refs int
}

// shmMapLen covers both copies of the WAL-index header and the checkpoint
// information after them (WALINDEX_HDR_SIZE); SQLite sizes the file in
// 32 KiB regions, so a -shm in use is never shorter.
const shmMapLen = 136

// mapShm maps the start of the database's -shm read-only and shared, so a
// commit by any process shows in it at once. The caller holds a connection
// to the database open (the anchor), so the file is in use and stays. Once
// the file is open, the view is returned whatever happens next (unmapped
// when mapping failed: header is then never ok) and the descriptor is kept
// until unmapShm, as closing it could drop SQLite's locks.
func mapShm(dbPath string) (*shmView, error) {
	shm := dbPath + "-shm"
	fi, err := os.Stat(shm)
	if err != nil {
		return nil, err
	}
	key, ok := keyOf(fi)
	if !ok || fi.Size() < shmMapLen {
		return nil, fmt.Errorf("%s is not an initialised WAL index", shm)
	}
	shmFiles.Lock()
	defer shmFiles.Unlock()
	if s := shmFiles.m[key]; s != nil {
		s.refs++
		return s.view, nil
	}
	f, err := os.Open(shm)
	if err != nil {
		return nil, err
	}
	s := &shmFile{f: f, refs: 1, view: &shmView{}}
	shmFiles.m[key] = s
	if fi, err = f.Stat(); err != nil {
		return s.view, err
	}
	if k, ok := keyOf(fi); !ok || k != key {
		return s.view, fmt.Errorf("%s was replaced while it was opened", shm)
	}
	if s.mem, err = syscall.Mmap(int(f.Fd()), 0, shmMapLen, syscall.PROT_READ, syscall.MAP_SHARED); err != nil {
		return s.view, fmt.Errorf("mapping %s: %w", shm, err)
	}
	s.view.words = (*[2 * walHeaderWords]uint64)(unsafe.Pointer(&s.mem[0]))
	return s.view, nil
}

// unmapShm lets go of a view mapShm returned; the last to let go of a file
// unmaps and closes it.
func unmapShm(v *shmView) error {
	shmFiles.Lock()
	defer shmFiles.Unlock()
	for key, s := range shmFiles.m {
		if s.view != v {
			continue
		}
		if s.refs--; s.refs > 0 {
			return nil
		}
		delete(shmFiles.m, key)
		var err error
		if s.mem != nil {
			err = syscall.Munmap(s.mem)
		}
		return errors.Join(err, s.f.Close())
	}
	return nil
}

func keyOf(fi os.FileInfo) (shmKey, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return shmKey{}, false
	}
	// Dev and Ino are of different types on different platforms.
	return shmKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}, true
}
