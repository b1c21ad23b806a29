// Package outbox is the loop that sends an outbox the Service keeps
// (webhook deliveries, notifications): lease what is due, send each side
// by side, and record how each went in the next lease's one write. What to
// send and when are the Service's; how to send is the caller's.
package outbox

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"tend/app/outbound"
)

// Options configure a worker that sends an outbox (web/hook, web/notify).
// Zero fields take the defaults.
type Options struct {
	// Outbound is which private and local addresses may be dialled.
	Outbound outbound.Policy
	// Now is the clock the next due time is measured on (and what a
	// sender stamps); time.Now by default.
	Now func() time.Time
	// After waits for the next item to fall due; time.After by default.
	// Tests that run a worker on a fixed clock fire it.
	After func(time.Duration) <-chan time.Time
	// Timeout bounds an attempt; the worker's own bound by default.
	Timeout time.Duration
	Log     *slog.Logger
}

// Defaults fills o's zero fields: the machine's clock, timeout, and a log
// that discards.
func (o Options) Defaults(timeout time.Duration) Options {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	if o.Timeout == 0 {
		o.Timeout = timeout
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return o
}

// Loop is one outbox's worker loop: S is what a lease hands out, R how an
// attempt went.
type Loop[S, R any] struct {
	// Name names the outbox in the log.
	Name string
	// Lease records done and leases up to limit due items; it answers
	// when the next falls due (zero when none is pending).
	Lease func(ctx context.Context, limit int, done []R) ([]S, time.Time, error)
	// Release ends the leases a worker that is gone held.
	Release func(ctx context.Context) error
	// Written is closed by the next commit.
	Written func() <-chan struct{}
	// Round makes the sender of one round's items (which may share work
	// between them); a send answers nil when cut short by the worker
	// stopping, which is not recorded.
	Round func() func(ctx context.Context, s S) *R
	// Parallel is how many sends are under way at once.
	Parallel int
	// Options are the worker's: Now and After are the clock the next due
	// time is waited on.
	Options
}

const (
	// pace is the least time between two rounds. A round is a write:
	// without a floor, a run of API writes wakes the worker after each
	// commit and every ended attempt starts one, so the worker takes the
	// writer as often as the API does. Paced, a round gathers whatever
	// ended or fell due meanwhile.
	pace = 10 * time.Millisecond
	// retryRead is the pause after the outbox could not be read.
	retryRead = time.Second
)

// Run sends items as they fall due until ctx ends, waking on every commit
// and on the next due time rather than polling. Each attempt that ended
// is recorded in the next round's one write, with the next leases. What
// the previous run had in flight when it stopped or was killed goes out
// first, not a lease's length later.
func (l Loop[S, R]) Run(ctx context.Context) {
	if err := l.Release(ctx); err != nil && ctx.Err() == nil {
		l.Log.Error(l.Name, "err", err)
	}
	var wg sync.WaitGroup
	ended := make(chan *R, l.Parallel)
	var done []R
	// An attempt that ended is recorded even as the worker stops, so that
	// the next start does not send it again.
	defer func() {
		wg.Wait()
		close(ended)
		for r := range ended {
			if r != nil {
				done = append(done, *r)
			}
		}
		if len(done) > 0 {
			_, _, _ = l.record(context.WithoutCancel(ctx), 0, done)
		}
	}()
	inflight := 0
	var last time.Time // when the last round began, on the machine's clock
	for {
		written := l.Written()
		var timer <-chan time.Time
		free := l.Parallel - inflight
		if wait := pace - time.Since(last); (free > 0 || len(done) > 0) && wait > 0 {
			timer = time.After(wait)
		} else if free > 0 || len(done) > 0 {
			last = time.Now()
			sends, next, err := l.record(ctx, free, done)
			switch {
			case err != nil && ctx.Err() == nil:
				timer = l.After(retryRead)
			case err == nil:
				done = done[:0]
				if !next.IsZero() {
					timer = l.After(next.Sub(l.Now()))
				}
			}
			send := l.Round()
			for _, s := range sends {
				inflight++
				wg.Add(1)
				go func() {
					defer wg.Done()
					ended <- send(ctx, s)
				}()
			}
		}
		select {
		case <-ctx.Done():
			return
		case r := <-ended:
			// Every attempt that has ended by now goes in the one write.
			for more := true; more; {
				inflight--
				if r != nil {
					done = append(done, *r)
				}
				select {
				case r = <-ended:
				default:
					more = false
				}
			}
		case <-written:
		case <-timer:
		}
	}
}

func (l Loop[S, R]) record(ctx context.Context, limit int, done []R) ([]S, time.Time, error) {
	sends, next, err := l.Lease(ctx, limit, done)
	if err != nil && ctx.Err() == nil {
		l.Log.Error(l.Name, "err", err)
	}
	return sends, next, err
}

// RunOnce sends every item due now, one round after another, until none
// is left, and answers how many attempts it made: for tests, which move
// the clock themselves.
func (l Loop[S, R]) RunOnce(ctx context.Context) (int, error) {
	n := 0
	var done []R
	for {
		sends, _, err := l.Lease(ctx, l.Parallel, done)
		if err != nil || len(sends) == 0 {
			return n, err
		}
		results := make([]*R, len(sends))
		send := l.Round()
		var wg sync.WaitGroup
		for i, s := range sends {
			wg.Go(func() { results[i] = send(ctx, s) })
		}
		wg.Wait()
		done = done[:0]
		for _, r := range results {
			if r != nil {
				done = append(done, *r)
			}
		}
		n += len(sends)
	}
}
