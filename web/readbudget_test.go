package web_test

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"tend/app"
	"tend/store"
	"tend/web/webtest"
)

// gatedStore is the real store with a gate in front of its read
// transactions, so a test can hold expensive reads where they stand
// (occupying their slots) or make them outlast their budget, without
// depending on how long a query takes.
type gatedStore struct {
	*store.DB
	hold     atomic.Int64  // how many of the next read transactions to hold
	held     chan struct{} // one send per read held
	release  chan struct{} // closing it lets the held reads go on
	toBudget atomic.Bool   // reads under a budget wait until it runs out
}

func (g *gatedStore) View(ctx context.Context, fn func(app.Tx) error) error {
	for n := g.hold.Load(); n > 0; n = g.hold.Load() {
		if g.hold.CompareAndSwap(n, n-1) {
			g.held <- struct{}{}
			<-g.release
			break
		}
	}
	if _, budgeted := ctx.Deadline(); budgeted && g.toBudget.Load() {
		<-ctx.Done()
	}
	return g.DB.View(ctx, fn)
}

// newGatedEnv is newEnv over a gatedStore with the given limits.
func newGatedEnv(t *testing.T, limits app.Limits) (*env, *gatedStore) {
	t.Helper()
	db, clock, admin := webtest.OpenBootstrapped(t)
	g := &gatedStore{DB: db, held: make(chan struct{}), release: make(chan struct{})}
	svc := app.New(g, app.Options{Version: "test", Limits: limits})
	return &env{webtest.Around(t, g.DB, clock, svc, admin)}, g
}

// TestExpensiveReadsBounded: with every slot for expensive reads taken by
// searches that are still running, cheap requests (who am I, one task, a
// default page) are answered as usual, and a further search, large page,
// filtered journal or tree waits its (here tiny) queue time and is refused
// with reads_saturated and Retry-After; once the searches end, searching
// works again. The held searches' budget is ten minutes: the default two
// seconds would run out while they are held on a loaded machine, and this
// test is about slots, not time (TestExpensiveReadOverBudget is).
func TestExpensiveReadsBounded(t *testing.T) {
	t.Parallel()
	e, g := newGatedEnv(t, app.Limits{ExpensiveReads: 2, ReadQueueMillis: 1, ReadBudgetMillis: 600_000})
	task := e.CreateTask(e.Admin, map[string]any{"title": "alpha task"})
	ref := lstItoa(lstNum(task["ref"]))
	if got := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)["limits"].(map[string]any); got["expensive_reads"] != 2.0 || got["read_budget_ms"] != 600_000.0 {
		t.Fatalf("meta limits %v, want expensive_reads 2 and read_budget_ms 600000", got)
	}

	g.hold.Store(2)
	var wg sync.WaitGroup
	searches := make([]webtest.Response, 2)
	for i := range searches {
		wg.Go(func() { searches[i] = e.Do(http.MethodGet, "/v1/tasks?q=alpha", e.Admin, nil) })
	}
	<-g.held
	<-g.held

	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks/"+ref, e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/changes", e.Admin, nil)
	for _, path := range []string{"/v1/tasks?q=alpha", "/v1/documents?q=alpha", "/v1/tasks?limit=500", "/v1/tasks?include_total=true",
		"/v1/journal?actor=me", "/v1/tasks/" + ref + "/tree"} {
		r := e.Do(http.MethodGet, path, e.Admin, nil)
		webtest.AssertProblem(t, r, http.StatusServiceUnavailable, "reads_saturated")
		if r.Header.Get("Retry-After") != "1" {
			t.Errorf("%s: Retry-After %q, want 1", path, r.Header.Get("Retry-After"))
		}
	}

	close(g.release)
	wg.Wait()
	for _, r := range searches {
		if r.Status != http.StatusOK {
			t.Fatalf("a held search answered %d %s", r.Status, r.Body)
		}
	}
	if items := lstItems(e.OK(http.StatusOK, http.MethodGet, "/v1/tasks?q=alpha", e.Admin, nil)); len(items) != 1 {
		t.Errorf("search after the slots freed: %v", items)
	}
}

// TestReadLimitsDefault: with no limits set, /v1/meta reports the
// defaults a caller plans its reads by.
func TestReadLimitsDefault(t *testing.T) {
	t.Parallel()
	e, _ := newGatedEnv(t, app.Limits{})
	got := e.OK(http.StatusOK, http.MethodGet, "/v1/meta", e.Admin, nil)["limits"].(map[string]any)
	if want := float64(max(1, runtime.NumCPU()/2)); got["read_budget_ms"] != 2000.0 || got["expensive_reads"] != want {
		t.Fatalf("meta limits %v, want read_budget_ms 2000 and expensive_reads %v (half the cores)", got, want)
	}
}

// TestExpensiveReadOverBudget: an expensive read that outlasts its budget
// is cut off and refused with read_over_budget and Retry-After, never left
// to run; cheap reads carry no budget and are answered.
func TestExpensiveReadOverBudget(t *testing.T) {
	t.Parallel()
	e, g := newGatedEnv(t, app.Limits{ReadBudgetMillis: 1})
	e.CreateTask(e.Admin, map[string]any{"title": "alpha task"})
	g.toBudget.Store(true)
	for _, path := range []string{"/v1/tasks?q=alpha", "/v1/journal?actor=me"} {
		r := e.Do(http.MethodGet, path, e.Admin, nil)
		webtest.AssertProblem(t, r, http.StatusServiceUnavailable, "read_over_budget")
		if r.Header.Get("Retry-After") == "" {
			t.Errorf("%s: no Retry-After", path)
		}
	}
	e.OK(http.StatusOK, http.MethodGet, "/v1/me", e.Admin, nil)
	e.OK(http.StatusOK, http.MethodGet, "/v1/tasks", e.Admin, nil)
}
