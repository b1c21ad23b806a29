package background

import (
	"sync"
	"time"
)

// Steps sized by time (issue 39 §3). A step of bulk work holds the one
// writer, and every other write waits for it. Its rows cost what the
// machine gives them: 500 tasks indexed took a few milliseconds on an idle
// machine and well past 50 ms on two busy cores beside a burst of creates.
// So a step is sized by the time the last ones took, not by a fixed count:
// a Sizer aims each step at a budget of time, shrinking the next at once
// after a step that overran it and growing it again, by half at most a
// step, after full steps well under it. Growing faster let a step reach
// four times its start on a quiet moment and then hold the writer 100 ms
// when the cores got busy again (BENCHMARKS.md, "Holding the writer: bulk
// work in steps").

// DefaultStepBudget is the time a step of bulk work aims at: under half
// of the 50 ms no step may hold the writer, so that a step whose rows
// turn out dearer than the last ones' still ends within it.
const DefaultStepBudget = 20 * time.Millisecond

// Sizer sizes one kind of step: how many rows the next one takes. It is
// safe for concurrent use (the urgent lane and the worker's run may both
// index task text).
type Sizer struct {
	mu       sync.Mutex
	rows     int
	min, max int
	budget   time.Duration
}

// NewSizer starts steps at start rows, never fewer than lo nor more than
// hi, aiming each at budget. With lo == hi the size is fixed.
func NewSizer(start, lo, hi int, budget time.Duration) *Sizer {
	lo = max(lo, 1)
	hi = max(hi, lo)
	return &Sizer{rows: min(max(start, lo), hi), min: lo, max: hi, budget: budget}
}

// FixedSizer always answers rows: tests set a step's size to see the work
// between steps.
func FixedSizer(rows int) *Sizer { return NewSizer(rows, rows, rows, DefaultStepBudget) }

// Rows is the size of the next step.
func (s *Sizer) Rows() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rows
}

// Took tells the sizer that a step asked for asked rows, did done and
// held the writer for took. A step over the budget sizes the next to fit
// it at the rate this one went; a full step (done == asked) under half the
// budget lets the next grow towards fitting it, by half at most. A step
// that found fewer rows than it asked for says little of their rate when
// fast, and nothing grows on it.
func (s *Sizer) Took(asked, done int, took time.Duration) {
	if done <= 0 || took <= 0 {
		return
	}
	fit := int(int64(done) * int64(s.budget) / int64(took))
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case took > s.budget:
		s.rows = min(s.rows, fit)
	case done >= asked && took < s.budget/2:
		s.rows = max(s.rows, min(fit, asked+asked/2))
	}
	s.rows = min(max(s.rows, s.min), s.max)
}
