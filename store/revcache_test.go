package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"

	"tend/app"
	"tend/store"
	"tend/store/storetest"
)

// cacheFixture is a workspace with a project status, ready for projects.
type cacheFixture struct {
	db       *store.DB
	ws       app.Workspace
	statusID string
}

func newCacheFixture(t *testing.T) cacheFixture {
	t.Helper()
	f := cacheFixture{db: storetest.Open(t), statusID: uuid.NewString()}
	ctx := t.Context()
	if err := f.db.Update(ctx, func(tx app.Tx) error {
		f.ws = newWorkspace("cache", tx.Now())
		if err := tx.InsertWorkspace(ctx, &f.ws); err != nil {
			return err
		}
		st := app.Status{VocabEntry: app.VocabEntry{ID: f.statusID, WorkspaceID: f.ws.ID, EntityType: "project", Key: "active", Label: "Active",
			Category: app.CategoryInProgress, IsDefault: true}, CreatedAt: tx.Now(), UpdatedAt: tx.Now()}
		return tx.InsertStatus(ctx, &st)
	}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f cacheFixture) addProject(ctx context.Context, tx app.Tx, key string) error {
	p := app.Project{ID: uuid.NewString(), WorkspaceID: f.ws.ID, Key: key, Title: key, Visibility: "public",
		StatusID: f.statusID, CreatedAt: tx.Now(), UpdatedAt: tx.Now(), Version: 1}
	return tx.InsertProject(ctx, &p)
}

// addAndRead commits a project key that the transaction adding it also
// reads the project tree after.
func (f cacheFixture) addAndRead(t *testing.T, key string) {
	t.Helper()
	ctx := t.Context()
	if err := f.db.Update(ctx, func(tx app.Tx) error {
		if err := f.addProject(ctx, tx, key); err != nil {
			return err
		}
		_, err := f.projectKeys(ctx, tx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func (f cacheFixture) projectKeys(ctx context.Context, tx app.Tx) ([]string, error) {
	ps, err := tx.ScopeProjects(ctx, f.ws.ID, "nobody")
	var keys []string
	for _, p := range ps.Projects {
		keys = append(keys, p.Key)
	}
	slices.Sort(keys)
	return keys, err
}

// TestScopeCacheAfterRollback: a write transaction that reads its own
// uncommitted project and then rolls back must leave nothing behind, even
// though the next committed change brings the scope revision to the very
// value the rolled-back transaction read its rows at.
func TestScopeCacheAfterRollback(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	ctx := t.Context()
	rollBack := errors.New("roll back")
	err := f.db.Update(ctx, func(tx app.Tx) error {
		if err := f.addProject(ctx, tx, "ghost"); err != nil {
			return err
		}
		keys, err := f.projectKeys(ctx, tx)
		if err != nil {
			return err
		}
		if !slices.Equal(keys, []string{"ghost"}) {
			t.Errorf("inside the transaction: %v, want [ghost]", keys)
		}
		return rollBack
	})
	if !errors.Is(err, rollBack) {
		t.Fatal(err)
	}
	f.addAndRead(t, "real")
	for range 2 {
		var keys []string
		if err := f.db.View(ctx, func(tx app.Tx) (err error) {
			keys, err = f.projectKeys(ctx, tx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(keys, []string{"real"}) {
			t.Fatalf("after the commit: %v, want [real]", keys)
		}
	}
}

// TestScopeCacheFilledByCommittedWrite: what a write transaction read is
// served from memory once it has committed, so a workload of writes alone
// still reads the project tree once per change, not once per request.
func TestScopeCacheFilledByCommittedWrite(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	ctx := t.Context()
	f.addAndRead(t, "one")
	before := f.db.QueryCount()
	if err := f.db.View(ctx, func(tx app.Tx) error {
		keys, err := f.projectKeys(ctx, tx)
		if !slices.Equal(keys, []string{"one"}) {
			t.Errorf("keys %v, want [one]", keys)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := f.db.QueryCount() - before; n != 1 {
		t.Errorf("reading the scope took %d statements, want 1 (the revision)", n)
	}
}

// vocabKeys reads the workspace's statuses, item types and link types as
// one line of keys each.
func (f cacheFixture) vocabKeys(t *testing.T) string {
	t.Helper()
	ctx := t.Context()
	var out string
	if err := f.db.View(ctx, func(tx app.Tx) error {
		sts, err := tx.Statuses(ctx, f.ws.ID)
		if err != nil {
			return err
		}
		its, err := tx.ItemTypes(ctx, f.ws.ID)
		if err != nil {
			return err
		}
		lts, err := tx.LinkTypes(ctx, f.ws.ID)
		if err != nil {
			return err
		}
		for _, st := range sts {
			out += st.Key + ":" + st.Label + " "
		}
		out += "|"
		for _, it := range its {
			out += " " + it.Key
		}
		out += " |"
		for _, lt := range lts {
			out += " " + lt.Key + ":" + lt.Title
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestVocabularyCacheFollowsChanges: every kind of change to statuses, item
// types and link types is seen by the next read, with the vocabulary read
// (and so cached) before each change.
func TestVocabularyCacheFollowsChanges(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	ctx := t.Context()
	st := app.Status{VocabEntry: app.VocabEntry{ID: uuid.NewString(), WorkspaceID: f.ws.ID, EntityType: "task", Key: "todo", Label: "To do",
		Category: app.CategoryTodo, IsDefault: true}}
	lt := app.LinkType{ID: uuid.NewString(), WorkspaceID: f.ws.ID, Key: "blocks", Title: "blocks", InverseTitle: "blocked by",
		Category: app.LinkSequencing}
	steps := []struct {
		name string
		fn   func(tx app.Tx) error
		want string
	}{
		{"add a status", func(tx app.Tx) error { return tx.InsertStatus(ctx, &st) },
			"active:Active todo:To do | |"},
		{"rename a status", func(tx app.Tx) error { st.Label = "Open"; return tx.UpdateStatus(ctx, &st) },
			"active:Active todo:Open | |"},
		{"remove a status", func(tx app.Tx) error { return tx.DeleteStatus(ctx, st.ID) },
			"active:Active | |"},
		{"add an item type", func(tx app.Tx) error {
			return tx.InsertItemType(ctx, &app.ItemType{ID: uuid.NewString(), WorkspaceID: f.ws.ID, EntityType: "task",
				Key: "bug", Label: "Bug", IsDefault: true})
		}, "active:Active | bug |"},
		{"add a link type", func(tx app.Tx) error { return tx.InsertLinkType(ctx, &lt) },
			"active:Active | bug | blocks:blocks"},
		{"reword a link type", func(tx app.Tx) error { lt.Title = "holds up"; return tx.UpdateLinkType(ctx, &lt) },
			"active:Active | bug | blocks:holds up"},
		{"remove a link type", func(tx app.Tx) error { return tx.DeleteLinkType(ctx, lt.ID) },
			"active:Active | bug |"},
	}
	if got, want := f.vocabKeys(t), "active:Active | |"; got != want {
		t.Fatalf("at the start: %q, want %q", got, want)
	}
	for _, s := range steps {
		if err := f.db.Update(ctx, s.fn); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for range 2 { // the first read after the change fills the cache, the second is served from it
			if got := f.vocabKeys(t); got != s.want {
				t.Fatalf("after %s: %q, want %q", s.name, got, s.want)
			}
		}
	}
	before := f.db.QueryCount()
	f.vocabKeys(t)
	if n := f.db.QueryCount() - before; n != 1 {
		t.Errorf("reading the vocabulary took %d statements, want 1 (the revision, read once for all three)", n)
	}
}

// errRollBack makes a test's write roll back.
var errRollBack = errors.New("roll back")

// TestScopeTreesShared: transactions at the same committed scope revision
// share one map of resolved trees, writes included; a write that changed
// the projects in its own transaction reads its own rows and gets no map.
func TestScopeTreesShared(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	ctx := t.Context()
	if err := f.db.Update(ctx, func(tx app.Tx) error { return f.addProject(ctx, tx, "a") }); err != nil {
		t.Fatal(err)
	}
	read := func() app.ScopeRows {
		var rows app.ScopeRows
		if err := f.db.View(ctx, func(tx app.Tx) (err error) {
			rows, err = tx.ScopeProjects(ctx, f.ws.ID, "nobody")
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	read() // fills the cache
	first, second := read(), read()
	if first.Trees == nil || first.Trees != second.Trees {
		t.Fatalf("readers at one revision got trees %p and %p, want one shared map", first.Trees, second.Trees)
	}
	if err := f.db.Update(ctx, func(tx app.Tx) error {
		rows, err := tx.ScopeProjects(ctx, f.ws.ID, "nobody")
		if rows.Trees != first.Trees {
			t.Errorf("a write that changed no project got trees %p, want the shared %p", rows.Trees, first.Trees)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := f.db.Update(ctx, func(tx app.Tx) error {
		if err := f.addProject(ctx, tx, "c"); err != nil {
			return err
		}
		rows, err := tx.ScopeProjects(ctx, f.ws.ID, "nobody")
		if err != nil {
			return err
		}
		if rows.Trees != nil || len(rows.Projects) != 2 {
			t.Errorf("a write after adding a project: %d projects, trees %p; want its own 2 rows and no map", len(rows.Projects), rows.Trees)
		}
		return errRollBack
	}); !errors.Is(err, errRollBack) {
		t.Fatal(err)
	}
	if err := f.db.Update(ctx, func(tx app.Tx) error { return f.addProject(ctx, tx, "b") }); err != nil {
		t.Fatal(err)
	}
	read()
	if after := read(); after.Trees == first.Trees || len(after.Projects) != 2 {
		t.Fatalf("after a project was added: %d projects, same trees %v", len(after.Projects), after.Trees == first.Trees)
	}
}

// TestCredentialCachedUnderAuthRev: a credential checked again while
// nothing was committed costs no statement at all (the -shm header says the
// revision stands: walindex.go), and a revocation takes effect on the very
// next check.
func TestCredentialCachedUnderAuthRev(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	svc, admin, first := storetest.Admin(t, db, app.Options{}, "test") // signing in stamps last_used_at, which moves the revision
	secret := first.Token.Secret
	if _, err := svc.Authenticate(ctx, secret, "test"); err != nil { // reads and caches
		t.Fatal(err)
	}
	before := db.QueryCount()
	if _, err := svc.Authenticate(ctx, secret, "test"); err != nil {
		t.Fatal(err)
	}
	if n := db.QueryCount() - before; n != 0 {
		t.Errorf("checking an unchanged credential took %d statements, want none", n)
	}
	if _, err := svc.RevokeToken(ctx, admin, first.Token.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, secret, "test"); app.CodeOf(err) != app.CodeUnauthorized {
		t.Fatalf("the check after revoking answered %v, want unauthorized", err)
	}
}

// TestVocabRevisionReadOncePerTransaction: a transaction that has read
// vocab_rev with the scope checks its vocabulary without reading it again,
// until it writes; a change it makes itself, one committed by another
// transaction and one committed through a second handle on the file (as
// another process would) are each seen by the next look-up.
func TestVocabRevisionReadOncePerTransaction(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	ctx := t.Context()
	other, err := store.Open(ctx, f.db.Path(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Close() })
	newStatus := func(key string) *app.Status {
		return &app.Status{VocabEntry: app.VocabEntry{ID: uuid.NewString(), WorkspaceID: f.ws.ID, EntityType: "task", Key: key, Label: key,
			Category: app.CategoryTodo}}
	}
	// statusKeys lists the keys of the workspace's statuses as tx sees
	// them, and counts the statements that took.
	statusKeys := func(tx app.Tx) ([]string, int64) {
		t.Helper()
		before := f.db.QueryCount()
		sts, err := tx.Statuses(ctx, f.ws.ID)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, st := range sts {
			keys = append(keys, st.Key)
		}
		return keys, f.db.QueryCount() - before
	}
	f.vocabKeys(t) // fills the cache

	for _, change := range []struct {
		key string
		add func(st *app.Status) error
	}{
		{"another-transaction", func(st *app.Status) error {
			return f.db.Update(ctx, func(tx app.Tx) error { return tx.InsertStatus(ctx, st) })
		}},
		{"a-second-handle", func(st *app.Status) error {
			return other.Update(ctx, func(tx app.Tx) error { return tx.InsertStatus(ctx, st) })
		}},
	} {
		if err := change.add(newStatus(change.key)); err != nil {
			t.Fatalf("%s: %v", change.key, err)
		}
		if err := f.db.Update(ctx, func(tx app.Tx) error {
			if _, err := tx.ScopeProjects(ctx, f.ws.ID, "nobody"); err != nil {
				return err
			}
			// The revision is remembered from the scope's read; the rows
			// are read, and kept once the transaction commits.
			if keys, n := statusKeys(tx); !slices.Contains(keys, change.key) || n != 1 {
				t.Errorf("after a status added through %s: %v in %d statements, want it there, its rows read in 1",
					change.key, keys, n)
			}
			// A write of its own is seen by the transaction's next look-up,
			// which reads the revision again.
			own := change.key + "-own"
			if err := tx.InsertStatus(ctx, newStatus(own)); err != nil {
				return err
			}
			if keys, n := statusKeys(tx); !slices.Contains(keys, own) || n != 2 {
				t.Errorf("after a status added in the transaction: %v in %d statements, want %s there, read in 2", keys, n, own)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// Committed, the vocabulary is cached at the revision the scope
		// read reads: a look-up runs nothing.
		if err := f.db.Update(ctx, func(tx app.Tx) error {
			if _, err := tx.ScopeProjects(ctx, f.ws.ID, "nobody"); err != nil {
				return err
			}
			if keys, n := statusKeys(tx); !slices.Contains(keys, change.key+"-own") || n != 0 {
				t.Errorf("after the commit: %v in %d statements, want %s-own there, read in none", keys, n, change.key)
			}
			// Then a write: the cached copy, at the remembered revision,
			// is not served past it.
			if err := tx.InsertStatus(ctx, newStatus(change.key+"-then")); err != nil {
				return err
			}
			if keys, _ := statusKeys(tx); !slices.Contains(keys, change.key+"-then") {
				t.Errorf("after a status added in the transaction: %v, want %s-then there", keys, change.key)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}
