package store

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestWALStaysBounded: under writes that never pause, the background
// checkpointer keeps up, and its next pass after them brings the
// write-ahead log back under its limit. That pass is run here directly,
// once the loop has stopped, rather than waited for.
func TestWALStaysBounded(t *testing.T) {
	ctx := context.Background()
	db := openMigrated(t, "wal.db", Options{WALLimit: 256 << 10})
	svc := app.New(db, app.Options{})
	if _, err := svc.Bootstrap(ctx, app.BootstrapOptions{}); err != nil {
		t.Fatal(err)
	}
	sys := app.SystemActor("cli")
	deadline := time.Now().Add(1500 * time.Millisecond)
	for i := 0; time.Now().Before(deadline); i++ {
		if _, err := svc.CreateUser(ctx, sys, app.UserCreate{Username: fmt.Sprintf("u%d", i), DisplayName: strings.Repeat("x", 150)}); err != nil {
			t.Fatal(err)
		}
	}
	// Stop the loop, so that seenFrames has one owner again, and run its
	// next pass; Close then finds the loop already stopped.
	close(db.stop)
	<-db.done
	db.stop, db.done = make(chan struct{}), make(chan struct{})
	close(db.done)
	db.checkpoint()
	fi, err := os.Stat(db.Path() + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 256<<10 {
		t.Fatalf("the WAL is %d bytes after writes stopped, over the 256 KiB limit", fi.Size())
	}
}
