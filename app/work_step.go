package app

import (
	"time"

	"tend/app/background"
)

// Steps of bulk work sized by time (issue 39 §3; background.Sizer). Each
// kind of step has its own sizer, as a row of each costs its own: a tag
// taken off an item is a row deleted, a task trashed is a row written and
// an event filed, a task indexed is its text through FTS5. Each grows to
// the size it had when sizes were fixed (a few milliseconds on an idle
// machine), never past it, as a step grown on a quiet moment held the
// writer 100 ms when the cores got busy again. It starts at an eighth of
// that: the first step of a process, at the old size, held the writer
// 150–170 ms on two cores at load 20, and the steps after it were sized by
// it. The floor keeps a step's fixed cost (its transaction, the look-ups
// that find the work) small beside its rows.

// The kinds of step, as OnWorkStep hears them.
const (
	StepTaskIndex = "task_index"
	StepSubtree   = "subtree"
	StepTagPurge  = "tag_purge"
	StepTagNotice = "tag_notice"
	StepDocument  = "document"
)

// stepSizers sizes each kind of step of bulk work.
type stepSizers struct {
	taskIndex, subtree, tagPurge, tagNotice *background.Sizer
	clock                                   func() time.Time
	heard                                   func(kind string, rows int, took time.Duration)
}

// newStepSizers sizes steps by time within their ranges, or fixes a
// kind's size where opts sets one.
func newStepSizers(opts Options) stepSizers {
	budget := opts.StepBudget
	if budget <= 0 {
		budget = background.DefaultStepBudget
	}
	sizer := func(fixed, hi, lo int) *background.Sizer {
		if fixed > 0 {
			return background.FixedSizer(fixed)
		}
		return background.NewSizer(hi/8, lo, hi, budget)
	}
	clock := opts.StepClock
	if clock == nil {
		clock = time.Now
	}
	return stepSizers{
		taskIndex: sizer(opts.TaskIndexStepRows, TaskIndexStepRows, 16),
		subtree:   sizer(opts.SubtreeStepRows, DefaultSubtreeStepRows, 16),
		tagPurge:  sizer(opts.BulkStepRows, DefaultBulkStepRows, 50),
		tagNotice: sizer(opts.BulkStepRows, DefaultBulkStepRows, 50),
		clock:     clock, heard: opts.OnWorkStep,
	}
}

// run does one step of kind, sized by sz (nil for a kind whose size is
// fixed elsewhere, such as a document's chunk): work is given the rows to
// take and answers how many it did. Its time is told to the sizer and to
// Options.OnWorkStep. It runs inside the step's transaction, so what it
// times is the writer held, less the commit.
func (st *stepSizers) run(kind string, sz *background.Sizer, work func(rows int) (int, error)) (asked, done int, err error) {
	if sz != nil {
		asked = sz.Rows()
	}
	start := st.clock()
	done, err = work(asked)
	took := st.clock().Sub(start)
	if err != nil {
		return asked, done, err
	}
	if sz != nil {
		sz.Took(asked, done, took)
	}
	if st.heard != nil {
		st.heard(kind, done, took)
	}
	return asked, done, nil
}
