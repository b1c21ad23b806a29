package store

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"tend/app"
)

func openWriterTest(t *testing.T) *DB {
	t.Helper()
	db, err := Open(t.Context(), migratedPath(t, "t.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func addWorkspace(ctx context.Context, tx app.Tx, slug string) error {
	now := tx.Now()
	w := app.Workspace{ID: uuid.NewString(), Slug: slug, Name: slug, Timezone: "UTC", CreatedAt: now, UpdatedAt: now, Version: 1}
	return tx.InsertWorkspace(ctx, &w)
}

func workspaceSlugs(t *testing.T, db *DB) []string {
	t.Helper()
	var slugs []string
	if err := db.View(t.Context(), func(tx app.Tx) error {
		ws, err := tx.InstanceWorkspaces(t.Context())
		for _, w := range ws {
			slugs = append(slugs, w.Workspace.Slug)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(slugs)
	return slugs
}

// holdWriter starts an Update that writes slug and then keeps the writer
// until n more requests are queued behind it, so that they join its
// transaction; it returns that Update's result.
func holdWriter(t *testing.T, db *DB, slug string, n int64) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		done <- db.Update(t.Context(), func(tx app.Tx) error {
			close(started)
			if err := addWorkspace(t.Context(), tx, slug); err != nil {
				return err
			}
			for deadline := time.Now().Add(10 * time.Second); db.w.waiting.Load() < n; {
				if time.Now().After(deadline) {
					return fmt.Errorf("only %d requests queued, want %d", db.w.waiting.Load(), n)
				}
				runtime.Gosched() // the requests queue on other goroutines; no clock is involved
			}
			return nil
		})
	}()
	<-started
	return done
}

// TestGroupCommitKeepsRequestsApart: requests that share one transaction
// each get their own outcome. A failing request and a panicking one roll
// back only their own writes, a request sees the writes of those before
// it (a second insert of the same slug is a conflict), and a request whose
// caller gave up while it queued does nothing.
func TestGroupCommitKeepsRequestsApart(t *testing.T) {
	db := openWriterTest(t)
	ctx := t.Context()
	failure := errors.New("changed my mind")
	gaveUp, cancel := context.WithCancel(ctx)
	cancel()
	type outcome struct {
		err      error
		panicked any
		group    *group
	}
	requests := []struct {
		slug string
		ctx  context.Context
		fn   func(tx app.Tx) error
	}{
		{"ok-1", ctx, nil},
		{"fails", ctx, func(app.Tx) error { return failure }},
		{"panics", ctx, func(app.Tx) error { panic("boom") }},
		{"first", ctx, nil},
		{"gave-up", gaveUp, nil},
		{"ok-2", ctx, nil},
	}
	held := holdWriter(t, db, "first", int64(len(requests)))
	outcomes := make([]outcome, len(requests))
	var wg sync.WaitGroup
	for i, r := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { outcomes[i].panicked = recover() }()
			outcomes[i].err = db.Update(r.ctx, func(tx app.Tx) error {
				outcomes[i].group = db.w.open
				if err := addWorkspace(r.ctx, tx, r.slug); err != nil {
					return err
				}
				if r.fn != nil {
					return r.fn(tx)
				}
				return nil
			})
		}()
	}
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	var shared *group
	for i, r := range requests {
		o := outcomes[i]
		var want string
		switch r.slug {
		case "fails":
			if !errors.Is(o.err, failure) {
				want = "its own error"
			}
		case "panics":
			if o.panicked != "boom" {
				want = "its own panic"
			}
		case "first":
			if app.CodeOf(o.err) != app.CodeConflict {
				want = "conflict with the holder's write"
			}
		case "gave-up":
			if !errors.Is(o.err, context.Canceled) || o.group != nil {
				want = "context.Canceled without running"
			}
		default:
			if o.err != nil || o.panicked != nil {
				want = "success"
			}
		}
		if want != "" {
			t.Errorf("%s: err %v, panic %v; want %s", r.slug, o.err, o.panicked, want)
		}
		if o.group != nil {
			if shared == nil {
				shared = o.group
			}
			if o.group != shared {
				t.Errorf("%s ran in another transaction than the rest", r.slug)
			}
		}
	}
	if got, want := workspaceSlugs(t, db), []string{"first", "ok-1", "ok-2"}; !slices.Equal(got, want) {
		t.Errorf("workspaces %v, want %v", got, want)
	}
}

// TestGroupCommitFailureReachesEveryone: when the shared transaction is
// lost (here a request ends it behind the store's back, as SQLite does
// after an I/O error), no request of the group reports success and none of
// their writes is kept, while a request queued behind the loss is not
// joined to it but starts a transaction of its own.
func TestGroupCommitFailureReachesEveryone(t *testing.T) {
	db := openWriterTest(t)
	ctx := t.Context()
	held := holdWriter(t, db, "held", 1)
	wrecker, follower := make(chan error, 1), make(chan error, 1)
	go func() {
		wrecker <- db.Update(ctx, func(tx app.Tx) error {
			if err := addWorkspace(ctx, tx, "wrecker"); err != nil {
				return err
			}
			if _, err := tx.(*Tx).tx.ExecContext(ctx, "ROLLBACK"); err != nil {
				return err
			}
			go func() {
				follower <- db.Update(ctx, func(tx app.Tx) error { return addWorkspace(ctx, tx, "follower") })
			}()
			for db.w.waiting.Load() < 1 {
				runtime.Gosched() // the requests queue on other goroutines; no clock is involved
			}
			return nil
		})
	}()
	if err := <-held; err == nil {
		t.Error("the first request of a lost transaction reported success")
	}
	if err := <-wrecker; err == nil {
		t.Error("the request that lost the transaction reported success")
	}
	if err := <-follower; err != nil {
		t.Errorf("the request queued behind the loss: %v", err)
	}
	if got := workspaceSlugs(t, db); !slices.Equal(got, []string{"follower"}) {
		t.Errorf("workspaces %v, want [follower]", got)
	}
}

// TestBetweenWritesFindsNoTransactionOpen: the checkpointer's turn on the
// writer comes between transactions, even when it arrives while a shared
// transaction is held open for a queued request: that transaction is
// committed first (the writer's connection can begin a transaction in the
// turn) and every write lands.
func TestBetweenWritesFindsNoTransactionOpen(t *testing.T) {
	db := openWriterTest(t)
	held := holdWriter(t, db, "held", 1)
	turn := make(chan error, 1)
	go func() {
		var err error
		db.betweenWrites(func() {
			if db.w.open != nil {
				err = errors.New("a write transaction was open")
				return
			}
			// BEGIN fails on a connection whose transaction is still open.
			// (A checkpoint's frame count once stood in for this; another
			// connection's snapshot held it back on a loaded machine.)
			if _, err = db.write.Exec("BEGIN IMMEDIATE"); err == nil {
				_, err = db.write.Exec("ROLLBACK")
			}
		})
		turn <- err
	}()
	queued := make(chan error, 1)
	go func() {
		queued <- db.Update(t.Context(), func(tx app.Tx) error { return addWorkspace(t.Context(), tx, "queued") })
	}()
	for _, c := range []<-chan error{held, queued, turn} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	if got, want := workspaceSlugs(t, db), []string{"held", "queued"}; !slices.Equal(got, want) {
		t.Errorf("workspaces %v, want %v", got, want)
	}
}

// TestRequestOnItsWayJoinsTheGroup: a request that finishes its work with
// nobody queued yields once before it commits alone (othersQueue), and a
// request that reaches the writer during that yield joins its transaction
// instead of waiting for a commit of its own. The yield is where the test
// starts the second request and waits until it is blocked on the writer:
// what runtime.Gosched lets run in the server is up to the scheduler (with
// one P and an idle machine, the request on its way; preempted on a
// loaded one, perhaps not), so the test holds the writer's side of it.
func TestRequestOnItsWayJoinsTheGroup(t *testing.T) {
	db := openWriterTest(t)
	// Each request notes the transaction it runs in; fn runs holding the
	// writer, so reading db.w.open there is safe.
	var firstGroup, secondGroup *group
	second := make(chan error, 1)
	var once sync.Once
	yielded := false
	db.w.yield = func() {
		once.Do(func() {
			yielded = true
			go func() {
				second <- db.Update(t.Context(), func(tx app.Tx) error {
					secondGroup = db.w.open
					return addWorkspace(t.Context(), tx, "second")
				})
			}()
			for db.w.waiting.Load() == 0 {
				runtime.Gosched()
			}
		})
	}
	err := db.Update(t.Context(), func(tx app.Tx) error {
		firstGroup = db.w.open
		return addWorkspace(t.Context(), tx, "first")
	})
	if err != nil {
		t.Fatal(err)
	}
	if !yielded {
		t.Fatal("the request committed alone without yielding to requests on their way")
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if firstGroup == nil || secondGroup != firstGroup {
		t.Errorf("the second request ran in transaction %p, the first in %p: want one transaction", secondGroup, firstGroup)
	}
	if got := workspaceSlugs(t, db); !slices.Contains(got, "first") || !slices.Contains(got, "second") {
		t.Errorf("workspaces %v, want first and second", got)
	}
}
