package app

import (
	"context"
	"sync"
)

// Work done in steps (issue 25 §3; docs/api.md, "Work done in steps").
//
// Every write runs on the one writer, so a request whose work grows with
// the data (deleting a tag applied to 100,000 items took 1.7 s) makes every
// other write wait that long. Such a request now does, in its own short
// transaction, the change every reader sees at once (a deleted tag is
// marked so and left out of every read), answers, and leaves the rest to a
// worker here: the rows no reader sees any more are removed a few thousand
// at a time, each step its own transaction, so another write waits at most
// one step. What is left to do is read from the database itself (a tag
// marked deleted is a tag still to purge), so a server stopped in the
// middle, even by kill -9, finishes the work at its next start (ResumeWork)
// and no reader ever sees half of it.

// DefaultBulkStepRows is how many rows one step of bulk work removes: at
// about 17 µs a row (BENCHMARKS.md, "Bulk work in bounded steps"), a step
// holds the writer for a few tens of milliseconds at most.
const DefaultBulkStepRows = 1000

// bulkTx is what the worker reads and writes.
type bulkTx interface {
	// HideTag marks a tag deleted: every read leaves it out from then on,
	// and its name is free for a new tag.
	HideTag(ctx context.Context, id string) error
	// NextHiddenTag names a tag marked deleted whose rows are not all
	// removed yet, "" when there is none.
	NextHiddenTag(ctx context.Context) (string, error)
	// PurgeTag removes at most limit applications of a hidden tag, and the
	// tag itself in the step that finds fewer than limit left.
	PurgeTag(ctx context.Context, id string, limit int) error
}

// worker runs the steps of bulk work one after another, on one goroutine
// at a time, started by the request that left work behind (kick).
type worker struct {
	mu      sync.Mutex
	idle    *sync.Cond
	running bool
	again   bool // kicked while running: look for work once more before stopping
	stopped bool
	err     error // what stopped the last run early, nil when it ran out of work
}

func newWorker() *worker {
	w := &worker{}
	w.idle = sync.NewCond(&w.mu)
	return w
}

// ResumeWork starts the worker on whatever bulk work the database holds
// unfinished, such as a tag deletion a stopped server left in the middle.
// The server calls it once at start; it returns at once.
func (s *Service) ResumeWork() { s.kick() }

// SettleWork waits until the worker has nothing left to do, or stopped,
// and returns the error that stopped it, if any.
func (s *Service) SettleWork() error {
	w := s.work
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.running {
		w.idle.Wait()
	}
	return w.err
}

// StopWork lets the step under way finish and stops the worker; the work
// left is done at the next ResumeWork, here or in the next process.
func (s *Service) StopWork() {
	w := s.work
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	_ = s.SettleWork()
}

// kick starts the worker unless it runs already, in which case it looks
// for work once more before it stops.
func (s *Service) kick() {
	w := s.work
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.running {
		w.again = true
		return
	}
	w.running, w.err = true, nil
	go s.runWork()
}

func (s *Service) runWork() {
	w := s.work
	for {
		more, err := s.workStep(context.Background())
		w.mu.Lock()
		if err == nil && !w.stopped && (more || w.again) {
			w.again = false
			w.mu.Unlock()
			continue
		}
		w.running, w.again, w.err = false, false, err
		w.idle.Broadcast()
		w.mu.Unlock()
		return
	}
}

// workStep does one step, in one transaction, and reports whether work is
// left. It writes through the store unwatched: a step changes nothing a
// reader sees, so no page waiting for the next write needs waking.
func (s *Service) workStep(ctx context.Context) (bool, error) {
	if s.opts.BeforeWorkStep != nil {
		if err := s.opts.BeforeWorkStep(); err != nil {
			return false, err
		}
	}
	more := false
	err := s.raw.Update(ctx, func(tx Tx) error {
		id, err := tx.NextHiddenTag(ctx)
		if err != nil || id == "" {
			return err
		}
		// The next step looks again: for the rest of this tag, or the next.
		more = true
		return tx.PurgeTag(ctx, id, s.opts.BulkStepRows)
	})
	return more, err
}
