package storetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Blocked is a path in the test's temporary directory where a file
// stands, so that nothing can make a directory there (a backup directory,
// a file replica) until the test removes it.
func Blocked(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "blocked")
	if err := os.WriteFile(path, []byte("not a directory"), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}
