package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The database, its -wal and -shm, and every backup hold everything the
// instance knows, credentials' hashes included: only their owner reads them.
// SQLite creates a main database file 0644 (less the umask) and gives its
// -wal and -shm the database file's own mode, so creating the file 0600
// before SQLite opens it settles all three; backups are created empty at
// 0600 before VACUUM INTO fills them. Modes are set with chmod, so the
// umask cannot widen or narrow them.
const (
	fileMode = 0o600
	dirMode  = 0o700
)

// ownFile creates path with fileMode if it does not exist, and narrows an
// existing file (one created by an older tend) to it.
func ownFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return fmt.Errorf("creating %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Chmod(path, fileMode)
}

// narrowSidecars narrows an existing database's -wal and -shm, which keep
// the mode they were created with.
func narrowSidecars(path string) error {
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if err := os.Chmod(p, fileMode); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// makeDatabaseDir creates the directory the database file path goes in,
// and those above it, when missing.
func makeDatabaseDir(path string) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("creating the database directory: %w", err)
		}
	}
	return nil
}

// ownDir creates dir with dirMode when it does not exist. A directory that
// exists already is the operator's and keeps its mode.
func ownDir(dir string) error {
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return err
	}
	return os.Chmod(dir, dirMode)
}
