package background_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"tend/app/background"
)

// TestHurryRunsOnlyTheUrgentStep: a read's Hurry has the worker's
// goroutine run the urgent step until it finds nothing left, and none of
// the other steps, which wait for a Kick.
func TestHurryRunsOnlyTheUrgentStep(t *testing.T) {
	t.Parallel()
	var urgent, other atomic.Int64
	left := int64(3)
	w := background.NewWorker(background.Config{
		Steps: []background.Step{func(context.Context) (bool, error) { other.Add(1); return false, nil }},
		Urgent: func(context.Context) (bool, error) {
			return urgent.Add(1) < left, nil
		},
	})
	if err := w.Hurry(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Settle(); err != nil {
		t.Fatal(err)
	}
	if urgent.Load() != left || other.Load() != 0 {
		t.Fatalf("urgent ran %d times (want %d), the other step %d (want 0)", urgent.Load(), left, other.Load())
	}
	w.Kick()
	if err := w.Settle(); err != nil || other.Load() != 1 {
		t.Fatalf("after a kick the other step ran %d times (%v), want 1", other.Load(), err)
	}
}

// TestStoppedWorker: a step's error stops the run and Settle reports it; a
// Hurry still gets its step; after Stop, Kick does nothing and Hurry is
// refused, the work staying queued for the next process.
func TestStoppedWorker(t *testing.T) {
	t.Parallel()
	crash := errors.New("crash")
	var steps, urgent atomic.Int64
	w := background.NewWorker(background.Config{
		Steps:      []background.Step{func(context.Context) (bool, error) { steps.Add(1); return true, nil }},
		Urgent:     func(context.Context) (bool, error) { urgent.Add(1); return false, nil },
		BeforeStep: func() error { return crash },
	})
	w.Kick()
	if err := w.Settle(); !errors.Is(err, crash) || steps.Load() != 0 {
		t.Fatalf("settled with %v after %d steps, want the crash before any", err, steps.Load())
	}
	if err := w.Hurry(context.Background()); err != nil || urgent.Load() != 1 {
		t.Fatalf("hurry after the crash: %v, urgent ran %d times", err, urgent.Load())
	}
	w.Stop()
	w.Kick()
	if err := w.Hurry(context.Background()); !errors.Is(err, background.ErrStopped) {
		t.Fatalf("hurry after stop answered %v", err)
	}
	if steps.Load() != 0 || urgent.Load() != 1 {
		t.Fatalf("a stopped worker ran: %d steps, %d urgent", steps.Load(), urgent.Load())
	}
}
