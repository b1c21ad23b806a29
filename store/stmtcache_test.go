package store

import (
	"context"
	"fmt"
	"testing"
)

// TestStatementCache runs statements through the reader pool's cache: the
// same statement again while its first run's rows are still open (a second,
// uncached statement serves it), more distinct statements than the cache
// keeps (the oldest are finalized), and the counter behind QueryCount.
func TestStatementCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, migratedPath(t, "t.db"), Options{Readers: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = `SELECT value FROM json_each(?)`

	before := db.QueryCount()
	tx, err := db.read.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	outer, err := tx.QueryContext(ctx, q, `[1, 2, 3]`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for outer.Next() {
		var v int
		if err := outer.Scan(&v); err != nil {
			t.Fatal(err)
		}
		var inner []int
		if err := tx.SelectContext(ctx, &inner, q, fmt.Sprintf("[%d, %d]", v*10, v*10+1)); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(v, inner))
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "[1 [10 11] 2 [20 21] 3 [30 31]]"; fmt.Sprint(got) != want {
		t.Fatalf("nested runs of one statement: %v, want %s", got, want)
	}
	if n := db.QueryCount() - before; n != 4 {
		t.Fatalf("QueryCount grew by %d, want 4", n)
	}

	for i := range stmtCacheSize + 20 {
		var v int
		if err := tx.GetContext(ctx, &v, fmt.Sprintf("SELECT %d + ?", i), 1); err != nil || v != i+1 {
			t.Fatalf("statement %d: %d, %v", i, v, err)
		}
	}
	var n int
	if err := tx.GetContext(ctx, &n, q+` LIMIT 1`, `[7]`); err != nil || n != 7 {
		t.Fatalf("after eviction: %d, %v", n, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	conn, err := db.read.Conn(ctx) // the pool's one connection
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var cached int
	if err := conn.Raw(func(dc any) error {
		c := dc.(*cachingConn)
		c.mu.Lock()
		defer c.mu.Unlock()
		cached = c.lru.Len()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if cached == 0 || cached > stmtCacheSize {
		t.Fatalf("a connection caches %d statements, want 1 to %d", cached, stmtCacheSize)
	}
}
