package background

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Step does one step of queued work, in one transaction, and reports
// whether it did any: a step that found nothing to do reports false.
type Step func(ctx context.Context) (bool, error)

// ErrStopped answers a Hurry made after Stop.
var ErrStopped = errors.New("background work is stopped")

// Worker runs queued work a Step at a time, on one goroutine at a time,
// started by the request that queued it (Kick). The urgent step a read
// waits for (Hurry) runs on a lane of its own, one goroutine at a time
// too, so that a read never waits behind a long step of other work.
type Worker struct {
	steps  []Step       // in order: each run does the first that finds work
	urgent Step         // what a read waits for (Hurry)
	before func() error // called before each of steps; an error stops the run

	mu      sync.Mutex
	idle    *sync.Cond
	running bool
	again   bool // kicked: look for work in steps (once more) before stopping
	stopped bool
	err     error        // what stopped the last run of steps early, nil when it ran out of work
	waiting []chan error // reads waiting for the urgent step's lane
	hurried bool         // the urgent step's lane is running

	batch    int           // queued items that start the worker (Queued)
	quietFor time.Duration // or this long after the last one
	queued   int
	quiet    *time.Timer
}

// Config is what a Worker runs.
type Config struct {
	// Steps are the kinds of work, in order: each run of the worker does
	// one step of the first that finds work, then looks again.
	Steps []Step
	// Urgent is the step a read waits for (Hurry), run on a lane of its
	// own until it finds nothing left.
	Urgent Step
	// BeforeStep, when set, is called before each step of Steps; an error
	// stops the worker there, as a crash would. For tests.
	BeforeStep func() error
	// Batch, when above 0, is how many items queued (Queued) start the
	// worker; QuietFor, when above 0 too, starts it that long after the
	// last one.
	Batch    int
	QuietFor time.Duration
}

// NewWorker returns a Worker that is not running yet.
func NewWorker(c Config) *Worker {
	w := &Worker{steps: c.Steps, urgent: c.Urgent, before: c.BeforeStep, batch: c.Batch, quietFor: c.QuietFor}
	w.idle = sync.NewCond(&w.mu)
	return w
}

// Kick starts the worker on whatever work the database holds, unless it
// runs already, in which case it looks for work once more before it stops.
// A request calls it after the commit that queued work; the server calls it
// at start for work a stopped process left.
func (w *Worker) Kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.again = true
	if !w.running {
		w.err = nil
		w.start()
	}
}

// start runs the worker's goroutine; w.mu is held.
func (w *Worker) start() {
	w.running = true
	go w.run()
}

// Queued counts an item queued toward the next batch (Config.Batch), and
// kicks the worker once the batch is full or, with Config.QuietFor, once
// no item has been queued for that long. Without a batch it does nothing:
// the items wait for the next Kick or Hurry.
func (w *Worker) Queued() {
	if w.batch <= 0 {
		return
	}
	w.mu.Lock()
	w.queued++
	full := w.queued >= w.batch
	if full {
		w.queued = 0
	}
	if w.quietFor > 0 && !full {
		if w.quiet == nil {
			w.quiet = time.AfterFunc(w.quietFor, w.quieted)
		} else {
			w.quiet.Reset(w.quietFor)
		}
	}
	w.mu.Unlock()
	if full {
		w.Kick()
	}
}

// quieted kicks the worker on the items queued before the queue went quiet.
func (w *Worker) quieted() {
	w.mu.Lock()
	w.queued = 0
	w.mu.Unlock()
	w.Kick()
}

// Hurry has the worker's urgent lane run the urgent step until it finds
// nothing left, and waits for it. A read that needs the queue's text
// indexed calls it, then reads: the read itself writes nothing. Reads
// that hurry at once share one run of the lane; one that comes while the
// lane runs waits for the next, which sees what was queued since.
func (w *Worker) Hurry(ctx context.Context) error {
	done := make(chan error, 1)
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return ErrStopped
	}
	w.waiting = append(w.waiting, done)
	if !w.hurried {
		w.hurried = true
		go w.hurry()
	}
	w.mu.Unlock()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Settle waits until the worker has nothing left to do, or stopped, and
// the urgent lane is idle, and returns the error that stopped the worker,
// if any.
func (w *Worker) Settle() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.running || w.hurried {
		w.idle.Wait()
	}
	return w.err
}

// Stop lets the step under way finish and stops the worker; the work left
// is done at the next Kick, here or in the next process.
func (w *Worker) Stop() {
	w.mu.Lock()
	w.stopped = true
	if w.quiet != nil {
		w.quiet.Stop()
	}
	w.mu.Unlock()
	_ = w.Settle()
}

func (w *Worker) run() {
	ctx := context.Background()
	more := false
	for {
		w.mu.Lock()
		if w.stopped || !(more || w.again) {
			w.running, w.again = false, false
			w.idle.Broadcast()
			w.mu.Unlock()
			return
		}
		w.again = false
		w.mu.Unlock()
		var err error
		if more, err = w.step(ctx); err != nil {
			w.mu.Lock()
			w.running, w.again, w.err = false, false, err
			w.idle.Broadcast()
			w.mu.Unlock()
			return
		}
	}
}

// hurry is the urgent lane: it drains the urgent step for the reads
// waiting, then for those that came meanwhile, until none waits.
func (w *Worker) hurry() {
	ctx := context.Background()
	for {
		w.mu.Lock()
		waiting := w.waiting
		w.waiting = nil
		if len(waiting) == 0 {
			w.hurried = false
			w.idle.Broadcast()
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		err := w.drain(ctx)
		for _, done := range waiting {
			done <- err
		}
	}
}

// drain runs the urgent step until it finds nothing left.
func (w *Worker) drain(ctx context.Context) error {
	for {
		more, err := w.urgent(ctx)
		if err != nil || !more {
			return err
		}
	}
}

// step does one step of the first kind of work that finds any.
func (w *Worker) step(ctx context.Context) (bool, error) {
	if w.before != nil {
		if err := w.before(); err != nil {
			return false, err
		}
	}
	for _, s := range w.steps {
		if more, err := s(ctx); err != nil || more {
			return more, err
		}
	}
	return false, nil
}
