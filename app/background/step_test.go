package background_test

import (
	"testing"
	"time"

	"tend/app/background"
)

// TestSizerShrinksAfterASlowStep: a step that held the writer past the
// budget sizes the next to fit it at the rate it went, however large the
// overrun, and never below the floor.
func TestSizerShrinksAfterASlowStep(t *testing.T) {
	s := background.NewSizer(500, 10, 5000, 20*time.Millisecond)
	s.Took(500, 500, 100*time.Millisecond) // 0.2 ms a row: 100 rows fit
	if got := s.Rows(); got != 100 {
		t.Fatalf("after 500 rows in 100 ms, next step %d rows, want 100", got)
	}
	s.Took(100, 100, 10*time.Second)
	if got := s.Rows(); got != 10 {
		t.Fatalf("after a 10 s step, next step %d rows, want the floor 10", got)
	}
}

// TestSizerGrowsByHalfAtMost: full steps well under the budget let the
// next grow, by half at most, up to the ceiling; a step inside the
// budget's upper half keeps the size.
func TestSizerGrowsByHalfAtMost(t *testing.T) {
	s := background.NewSizer(100, 10, 200, 20*time.Millisecond)
	s.Took(100, 100, time.Millisecond) // 2,000 would fit
	if got := s.Rows(); got != 150 {
		t.Fatalf("after a fast full step of 100, next %d, want 150", got)
	}
	s.Took(150, 150, time.Millisecond)
	if got := s.Rows(); got != 200 {
		t.Fatalf("after another, next %d, want the ceiling 200", got)
	}
	s.Took(200, 200, 15*time.Millisecond)
	if got := s.Rows(); got != 200 {
		t.Fatalf("a step within budget changed the size to %d", got)
	}
	s = background.NewSizer(100, 10, 1000, 20*time.Millisecond)
	s.Took(100, 100, 9*time.Millisecond) // 222 fit: grows by half, to 150
	if got := s.Rows(); got != 150 {
		t.Fatalf("after 100 rows in 9 ms, next %d, want 150", got)
	}
	s.Took(150, 150, 9500*time.Microsecond) // 315 fit, 225 at most
	if got := s.Rows(); got != 225 {
		t.Fatalf("after 150 rows in 9.5 ms, next %d, want 225", got)
	}
}

// TestSizerIgnoresShortSteps: a step that found fewer rows than it asked
// for does not grow the next however fast it went, nor does an empty one
// or one timed at zero change anything; it still shrinks when slow.
func TestSizerIgnoresShortSteps(t *testing.T) {
	s := background.NewSizer(100, 10, 1000, 20*time.Millisecond)
	s.Took(100, 3, time.Microsecond)
	s.Took(100, 0, time.Second)
	s.Took(100, 100, 0)
	if got := s.Rows(); got != 100 {
		t.Fatalf("next %d, want 100 unchanged", got)
	}
	s.Took(100, 50, 50*time.Millisecond) // 1 ms a row
	if got := s.Rows(); got != 20 {
		t.Fatalf("after 50 rows in 50 ms, next %d, want 20", got)
	}
}

// TestFixedSizer: a fixed size stays whatever the steps take.
func TestFixedSizer(t *testing.T) {
	s := background.FixedSizer(3)
	s.Took(3, 3, time.Hour)
	s.Took(3, 3, time.Nanosecond)
	if got := s.Rows(); got != 3 {
		t.Fatalf("fixed at 3, answers %d", got)
	}
}
