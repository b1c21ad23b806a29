package store

import (
	"context"
	"testing"
	"time"

	"tend/app"
)

// TestViewInterrupted: a read whose context ends while SQLite is working
// is interrupted, not left to run: a query that would never finish returns
// an error once its budget is spent. This is what the read budget of
// expensive reads (app/readbudget.go) stands on.
func TestViewInterrupted(t *testing.T) {
	t.Parallel()
	db := openMigrated(t, "interrupt.db", Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	err := db.View(ctx, func(tx app.Tx) error {
		var n int64
		return tx.(*Tx).tx.GetContext(ctx, &n, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c")
	})
	if err == nil {
		t.Fatal("an endless query ended without an error")
	}
	if ctx.Err() == nil {
		t.Fatalf("the query failed before its context ended: %v", err)
	}
	var one int
	if err := db.View(t.Context(), func(tx app.Tx) error { return tx.(*Tx).tx.GetContext(t.Context(), &one, "SELECT 1") }); err != nil || one != 1 {
		t.Errorf("the reader is unusable after an interrupt: %d, %v", one, err)
	}
}
