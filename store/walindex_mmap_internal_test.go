//go:build linux || darwin || freebsd

package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"
)

// TestWALHeaderFault: a -shm cut short under its mapping (by something
// other than SQLite, which never shortens one in use) reads not ok rather
// than ending the process.
func TestWALHeaderFault(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "cut-shm"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mem, err := syscall.Mmap(int(f.Fd()), 0, shmMapLen, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = syscall.Munmap(mem) }()
	v := &shmView{words: (*[2 * walHeaderWords]uint64)(unsafe.Pointer(&mem[0]))}
	if _, ok := v.header(); ok {
		t.Error("a mapping past the end of its file read ok")
	}
}
