package background_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// bootstrapped is an instance with its administrator, whose credential's
// secret adminSecret keeps.
var (
	bootstrapped = storetest.NewTemplate(func(ctx context.Context, db *store.DB) error {
		first, err := app.New(db, app.Options{}).Bootstrap(ctx, app.BootstrapOptions{Timezone: "UTC"})
		adminSecret = first.Token.Secret
		return err
	})
	adminSecret string
)

// hiddenTag reads the tag the worker has still to purge, "" when none.
func hiddenTag(t *testing.T, db *store.DB) string {
	t.Helper()
	var id string
	err := db.View(context.Background(), func(tx app.Tx) error {
		tag, _, err := tx.NextHiddenTag(context.Background())
		id = tag.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestQueuedWithTheRequest: work queued in a request's transaction (here a
// tag hidden, its rows still to purge) is kept only if the request
// commits; once committed, the worker does it after the commit, and if the
// process stops first (the store closed as by kill -9, the worker never
// started), the next process opening the file finds it and does it.
func TestQueuedWithTheRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := bootstrapped.Copy(t, filepath.Join(t.TempDir(), "queue.db"))
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(db, app.Options{})
	a, err := svc.Authenticate(ctx, adminSecret, "test")
	if err != nil {
		t.Fatal(err)
	}
	tag := func(name string) string {
		tg, err := svc.AddTag(ctx, a, "", app.CreateTag{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		return tg.ID
	}
	hide := func(db *store.DB, id string, fail error) error {
		return db.Update(ctx, func(tx app.Tx) error {
			if err := tx.HideTag(ctx, id, ""); err != nil {
				return err
			}
			return fail
		})
	}

	// Rolled back: nothing is queued, nothing runs.
	rollback := errors.New("the request fails after queueing")
	if err := hide(db, tag("rolled"), rollback); !errors.Is(err, rollback) {
		t.Fatalf("the request answered %v", err)
	}
	if id := hiddenTag(t, db); id != "" {
		t.Fatalf("a rolled back request left %s queued", id)
	}

	// Committed: queued, and done by the worker after the commit.
	if err := hide(db, tag("committed"), nil); err != nil {
		t.Fatal(err)
	}
	if hiddenTag(t, db) == "" {
		t.Fatal("the committed request queued nothing")
	}
	svc.ResumeWork()
	if err := svc.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if id := hiddenTag(t, db); id != "" {
		t.Fatalf("the worker left %s queued", id)
	}

	// Committed, then the process stops before its worker runs.
	svc.StopWork()
	left := tag("left")
	if err := hide(db, left, nil); err != nil {
		t.Fatal(err)
	}
	svc.ResumeWork() // stopped: does nothing
	db = storetest.Reopen(t, db)
	if id := hiddenTag(t, db); id != left {
		t.Fatalf("the reopened file has %q queued, want %s", id, left)
	}
	next := app.New(db, app.Options{})
	next.ResumeWork()
	if err := next.SettleWork(); err != nil {
		t.Fatal(err)
	}
	if id := hiddenTag(t, db); id != "" {
		t.Fatalf("the next process left %s queued", id)
	}
}
