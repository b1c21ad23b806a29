package app

import (
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
