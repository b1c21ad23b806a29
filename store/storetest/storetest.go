// Package storetest opens real, migrated tend databases for tests of other
// packages: a file in the test's temporary directory, closed when it ends.
package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"tend/store"
)

// Epoch is the instant every test database's clock starts at.
var Epoch = time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)

// Clock is a fixed clock that moves only when a test moves it, so no test
// sleeps to let time pass and timestamps are the same on every run.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's instant.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Open opens a new database file in tb.TempDir(), migrated and ready, on a
// fixed clock at Epoch. The file is a copy of Migrated's.
func Open(tb testing.TB) *store.DB {
	db, _ := OpenClock(tb)
	return db
}

// OpenClock is Open, also returning the database's clock to advance.
func OpenClock(tb testing.TB) (*store.DB, *Clock) {
	tb.Helper()
	return Migrated.Open(tb)
}

// Migrated is a database with every migration applied and nothing else,
// made once per test binary: applying the migrations to a new file costs
// seconds under the race detector, a copy a fraction of one. A test of what
// Open does to a new file opens a path of its own; the migrations are
// tested on new files in store (the schema golden, the upgrades).
var Migrated = NewTemplate(func(context.Context, *store.DB) error { return nil })

// openFile opens the database at path on a fixed clock at Epoch, closed
// when the test ends.
func openFile(tb testing.TB, path string) (*store.DB, *Clock) {
	tb.Helper()
	db, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	clock := &Clock{now: Epoch}
	db.Now = clock.Now
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Error(err)
		}
	})
	return db, clock
}

// Reopen closes db and opens its file again, as the next process would
// after the last one stopped, closed when the test ends.
func Reopen(tb testing.TB, db *store.DB) *store.DB {
	tb.Helper()
	if err := db.Close(); err != nil {
		tb.Fatal(err)
	}
	next, err := store.Open(context.Background(), db.Path(), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = next.Close() })
	return next
}
