package background

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"
)

// Expensive reads. A search, a page larger than the default, a count of
// everything that matches, a listing grouped by status, a feed filtered on
// something other than its order, and a walk of an item's tree can each
// scan a good part of the database. Left alone, a handful of them at once
// take every core and every reader connection, and a cheap request such as
// GET /v1/me waits behind them. So they are bounded twice:
//   - in number: at most Slots run at a time (default half the cores, at
//     least one), the rest of the readers and cores staying for cheap
//     requests; one more waits for a slot up to Queue (a waiting read
//     holds no connection and no core, so cheap requests do not feel it)
//     and is then refused with ErrSaturated;
//   - in time: each has Budget; past it SQLite is interrupted (modernc
//     turns a done context into sqlite3_interrupt) and the read is refused
//     with ErrOverBudget, asking for a narrower query.

// ErrSaturated refuses a read that found no slot free in time.
var ErrSaturated = errors.New("reads saturated")

// ErrOverBudget refuses a read that ran past its budget; the read's own
// error, if any, is wrapped with it.
var ErrOverBudget = errors.New("read over budget")

// DefaultSlots is half the cores, at least one.
func DefaultSlots() int { return max(1, runtime.NumCPU()/2) }

// Budget bounds the expensive reads under way.
type Budget struct {
	slots  chan struct{} // one token per expensive read under way
	queue  time.Duration
	budget time.Duration

	saturated, overBudget atomic.Int64 // reads refused so far
}

// NewBudget lets slots reads run at once, each for at most budget, one
// more waiting up to queue for a slot.
func NewBudget(slots int, queue, budget time.Duration) *Budget {
	return &Budget{slots: make(chan struct{}, slots), queue: queue, budget: budget}
}

// Read takes one of the slots, waiting a moment for one, or refuses, and
// runs read within the budget, on a context that ends when it is spent.
func (b *Budget) Read(ctx context.Context, read func(context.Context) error) error {
	wait := time.NewTimer(b.queue)
	defer wait.Stop()
	select {
	case b.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-wait.C:
		b.saturated.Add(1)
		return ErrSaturated
	}
	defer func() { <-b.slots }()
	budget, cancel := context.WithTimeoutCause(ctx, b.budget, ErrOverBudget)
	defer cancel()
	err := read(budget)
	// Checked even without an error: a query cut short can look like one
	// that ran out of rows to a caller that missed the error.
	if ctx.Err() == nil && errors.Is(context.Cause(budget), ErrOverBudget) {
		b.overBudget.Add(1)
		return errors.Join(ErrOverBudget, err)
	}
	return err
}

// Refused counts the reads refused so far: saturated found no slot in
// time, overBudget ran past the budget.
func (b *Budget) Refused() (saturated, overBudget int64) {
	return b.saturated.Load(), b.overBudget.Load()
}
