package store

import (
	"path/filepath"
	"testing"
)

// TestSynchronousSetting: the writer syncs as Options.Synchronous says
// (SQLite reports NORMAL as 1 and FULL as 2), and an unknown setting is
// refused before any file is made.
func TestSynchronousSetting(t *testing.T) {
	t.Parallel()
	for setting, want := range map[string]int{"": 1, "normal": 1, "full": 2, "FULL": 2} {
		db, err := Open(t.Context(), migratedPath(t, "sync.db"), Options{Synchronous: setting})
		if err != nil {
			t.Fatal(err)
		}
		var got int
		if err := db.write.Get(&got, "PRAGMA synchronous"); err != nil || got != want {
			t.Errorf("synchronous %q: the writer has %d, %v; want %d", setting, got, err, want)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(t.Context(), filepath.Join(t.TempDir(), "sync.db"), Options{Synchronous: "off"}); err == nil {
		t.Error("synchronous off was accepted")
	}
}
