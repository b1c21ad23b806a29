package app

import (
	"context"
	"errors"
	"time"

	"tend/app/background"
)

// Expensive reads are bounded in number and in time (background.Budget):
// at most Limits.ExpensiveReads at once, one more waiting up to
// Limits.ReadQueueMillis before reads_saturated (503, Retry-After 1), each
// interrupted past Limits.ReadBudgetMillis with read_over_budget (503).

func newBudget(l Limits) *background.Budget {
	return background.NewBudget(l.ExpensiveReads, time.Duration(l.ReadQueueMillis)*time.Millisecond,
		time.Duration(l.ReadBudgetMillis)*time.Millisecond)
}

// viewExpensive is store.View for an expensive read: it takes one of the
// slots, waiting a moment for one, or refuses, and runs fn within the read budget.
func (s *Service) viewExpensive(ctx context.Context, fn func(Tx) error) error {
	err := s.budget.Read(ctx, func(ctx context.Context) error { return s.store.View(ctx, fn) })
	switch {
	case errors.Is(err, background.ErrSaturated):
		return Errorf(CodeReadsSaturated, "as many expensive reads (searches, large or counted pages, filtered feeds, trees) as the instance runs at once are under way; try again in a moment")
	case errors.Is(err, background.ErrOverBudget):
		return &Error{Code: CodeReadOverBudget, Detail: "the read took longer than the instance allows one read; narrow it (a project, a filter, a smaller limit) and try again", Err: err}
	}
	return err
}

// view runs fn as an expensive read when expensive holds, as a plain one
// otherwise: one read-only transaction. A read that matches the task index
// and finds tasks waiting to be indexed stops before it reads anything,
// waits for the worker to index them (background.Worker.Hurry), and runs
// fn again, which then finds every task created before it first started.
// A standby, which indexes nothing, reads what the primary had indexed
// when the copy was made: a task created just before may be missed.
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
	if s.standby() {
		return read(func(tx Tx) error { return fn(indexedTx{tx}) })
	}
	if err := s.work.Hurry(ctx); err != nil {
		return err
	}
	return read(func(tx Tx) error { return fn(indexedTx{tx}) })
}
