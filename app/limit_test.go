package app

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRateLimitTake: Max events pass in a window, the next is refused with
// too_many_attempts and the wait until the oldest leaves the window, and
// the key acts again once it has; refused attempts do not lengthen it.
func TestRateLimitTake(t *testing.T) {
	var r rateLimits
	lim := RateLimit{Name: "test", Max: 3, Window: 10 * time.Minute, What: "tries"}
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		if err := r.take(lim, "a", t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatalf("try %d: %v", i, err)
		}
	}
	for _, at := range []time.Duration{3 * time.Minute, 9 * time.Minute} {
		err := r.take(lim, "a", t0.Add(at))
		e, ok := err.(*Error)
		if !ok || e.Code != CodeTooManyAttempts || e.RetryAfter != 10*time.Minute-at {
			t.Fatalf("at %v: %#v", at, err)
		}
	}
	if err := r.take(lim, "b", t0.Add(3*time.Minute)); err != nil {
		t.Fatalf("another key: %v", err)
	}
	if err := r.take(lim, "a", t0.Add(10*time.Minute)); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	if got := waitText(90 * time.Second); got != "2 minutes" {
		t.Errorf("waitText = %q", got)
	}
	if got := waitText(time.Second); got != "1 second" {
		t.Errorf("waitText = %q", got)
	}
}

// TestRateLimitTakeConcurrent: 64 attempts at once on one key pass exactly
// Max times, however they interleave.
func TestRateLimitTakeConcurrent(t *testing.T) {
	var r rateLimits
	lim := RateLimit{Name: "test", Max: 5, Window: time.Minute, What: "tries"}
	now := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	var passed atomic.Int32
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			if r.take(lim, "a", now) == nil {
				passed.Add(1)
			}
		})
	}
	wg.Wait()
	if got := passed.Load(); got != int32(lim.Max) {
		t.Fatalf("%d attempts passed, want %d", got, lim.Max)
	}
}
