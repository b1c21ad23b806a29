package app

import (
	"context"
	"errors"
	"runtime"
	"time"
)

// Expensive reads. A search, a page larger than the default, a count of
// everything that matches, a listing grouped by status, a feed filtered on
// something other than its order, and a walk of an item's tree can each
// scan a good part of the database. Left alone, a handful of them at once
// take every core and every reader connection, and a cheap request such as
// GET /v1/me waits behind them. So they are bounded twice:
//   - in number: at most Limits.ExpensiveReads run at a time (default half
//     the cores, at least one), the rest of the readers and cores staying
//     for cheap requests; one more waits for a slot up to
//     Limits.ReadQueueMillis (a waiting read holds no connection and no
//     core, so cheap requests do not feel it) and is then refused with
//     reads_saturated (503, Retry-After 1);
//   - in time: each has Limits.ReadBudgetMillis; past it SQLite is
//     interrupted (modernc turns a done context into sqlite3_interrupt) and
//     the read is refused with read_over_budget (503), asking for a
//     narrower query.

// errOverBudget is the cause of a context ended by the read budget.
var errOverBudget = errors.New("read over budget")

// defaultExpensiveReads is half the cores, at least one.
func defaultExpensiveReads() int { return max(1, runtime.NumCPU()/2) }

// viewExpensive is store.View for an expensive read: it takes one of the
// slots, waiting a moment for one, or refuses, and runs fn within the read budget.
func (s *Service) viewExpensive(ctx context.Context, fn func(Tx) error) error {
	wait := time.NewTimer(time.Duration(s.limits.ReadQueueMillis) * time.Millisecond)
	defer wait.Stop()
	select {
	case s.expensive <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-wait.C:
		s.refused.saturated.Add(1)
		return Errorf(CodeReadsSaturated, "as many expensive reads (searches, large or counted pages, filtered feeds, trees) as the instance runs at once are under way; try again in a moment")
	}
	defer func() { <-s.expensive }()
	budget, cancel := context.WithTimeoutCause(ctx, time.Duration(s.limits.ReadBudgetMillis)*time.Millisecond, errOverBudget)
	defer cancel()
	err := s.store.View(budget, fn)
	// Checked even without an error: a query cut short can look like one
	// that ran out of rows to a caller that missed the error.
	if ctx.Err() == nil && errors.Is(context.Cause(budget), errOverBudget) {
		s.refused.overBudget.Add(1)
		return &Error{Code: CodeReadOverBudget, Detail: "the read took longer than the instance allows one read; narrow it (a project, a filter, a smaller limit) and try again", Err: err}
	}
	return err
}

// view runs fn as an expensive read when expensive holds, as a plain one
// otherwise. A read that matches the task index and finds tasks waiting to
// be indexed (task_index.go) stops; view indexes them and runs fn again,
// which then finds every task created before it first started.
func (s *Service) view(ctx context.Context, expensive bool, fn func(Tx) error) error {
	read := func(fn func(Tx) error) error {
		if expensive {
			return s.viewExpensive(ctx, fn)
		}
		return s.store.View(ctx, fn)
	}
	err := read(fn)
	if !errors.Is(err, errTasksUnindexed) {
		return err
	}
	if err := s.indexTasks(ctx); err != nil {
		return err
	}
	return read(func(tx Tx) error { return fn(indexedTx{tx}) })
}
