package app_test

import (
	"context"
	"sync/atomic"
	"testing"

	"tend/app"
	"tend/store"
)

// readKey marks the context of a read under test.
type readKey struct{}

// writeCounter is the real store, counting the write transactions begun on
// a read's context (readKey) and on any other.
type writeCounter struct {
	*store.DB
	onRead, elsewhere atomic.Int64
}

func (w *writeCounter) Update(ctx context.Context, fn func(app.Tx) error) error {
	if ctx.Value(readKey{}) != nil {
		w.onRead.Add(1)
	} else {
		w.elsewhere.Add(1)
	}
	return w.DB.Update(ctx, fn)
}

// TestReadNeverWrites: a read is one transaction and writes nothing, even
// a search that meets task text still waiting to be indexed: the worker
// indexes it, each step its own write, and the search still finds every
// task created before it (app/background).
func TestReadNeverWrites(t *testing.T) {
	t.Parallel()
	db, clock := seeded.Open(t)
	counter := &writeCounter{DB: db}
	// No batch: created tasks wait, as the command line leaves them.
	svc := app.New(counter, app.Options{Version: "test"})
	t.Cleanup(svc.StopWork)
	f := &fixture{t: t, ctx: context.Background(), svc: svc, clock: clock}
	f.admin = f.login(adminSecret)
	for _, title := range []string{"Alpha one", "Alpha two", "Alpha three"} {
		f.task(f.admin, app.TaskCreate{Title: title})
	}
	f.doc(f.admin, app.DocumentCreate{Title: "Alpha notes"})
	before := counter.elsewhere.Load()

	read := context.WithValue(f.ctx, readKey{}, true)
	tasks := must(svc.Tasks(read, f.admin, app.TaskListQuery{Q: "alpha"}))(t)
	if len(tasks.Items) != 3 {
		t.Errorf("the task listing found %d tasks, want the 3 just created", len(tasks.Items))
	}
	found := must(svc.SearchItems(read, f.admin, app.ItemSearchQuery{Q: "alpha -nothing"}))(t)
	if len(found.Tasks) != 3 {
		t.Errorf("the search found %d tasks, want 3", len(found.Tasks))
	}
	docs := must(svc.Documents(read, f.admin, app.DocumentListQuery{Q: "alpha"}))(t)
	if len(docs.Items) != 1 {
		t.Errorf("the document listing found %d documents, want 1", len(docs.Items))
	}
	must(svc.Changes(read, f.admin, app.FeedQuery{}))(t)
	must(svc.TaskGet(read, f.admin, "", "1"))(t)
	must(svc.Me(read, f.admin))(t)

	if n := counter.onRead.Load(); n != 0 {
		t.Errorf("the reads began %d write transactions", n)
	}
	if counter.elsewhere.Load() == before {
		t.Error("nothing indexed the tasks waiting: the worker wrote nothing")
	}
}
