package app

import (
	"context"
	"errors"
	"time"
)

// Task text is indexed after the request (app/background, "Task text
// indexed after the request"): a create queues the task in its own
// transaction (the store's tasks_unindexed) and counts it toward the
// worker's next batch (taskCreated); the worker indexes the queue in steps
// (indexTasksStep), and a read that matches tasks_fts and finds tasks
// queued waits for it to index them (view) rather than writing itself.

// TaskIndexStepRows is the most tasks one step indexes: 500 short tasks
// take the writer a few milliseconds on an idle machine, far under the
// 50 ms no step may hold it (issue 25 §3). Steps are sized by the time
// the last ones took (work_step.go), up to it: on two cores busy with a
// burst of creates, 500 took several times as long.
const TaskIndexStepRows = 500

// DefaultTaskIndexBatch is how many creates of the server start the worker
// on the queue: indexing after every create would cost what it saves.
const DefaultTaskIndexBatch = 64

// DefaultTaskIndexQuiet is how long the server waits after the last create
// before the worker indexes what is queued, so that a search after a burst
// rarely has any indexing to wait for.
const DefaultTaskIndexQuiet = 100 * time.Millisecond

// errTasksUnindexed stops a read that matches the task index while tasks
// wait to be indexed: view has the worker index them and reads again.
var errTasksUnindexed = errors.New("tasks wait to be indexed")

// checkTasksIndexed answers errTasksUnindexed when tasks wait to be
// indexed in the database tx reads.
func checkTasksIndexed(ctx context.Context, tx Tx) error {
	pending, err := tx.TasksUnindexed(ctx)
	if err == nil && pending {
		err = errTasksUnindexed
	}
	return err
}

// indexedTx is the transaction of a read run again once the worker indexed
// every task that waited (view): a task created since may be found or not,
// as under any snapshot, and is not waited for.
type indexedTx struct{ Tx }

func (indexedTx) TasksUnindexed(context.Context) (bool, error) { return false, nil }

// indexTasksStep indexes one step of the tasks waiting and reports whether
// more may wait. Unwatched: what a reader sees does not change, searches
// waiting for the index first.
func (s *Service) indexTasksStep(ctx context.Context) (bool, error) {
	asked, n := 0, 0
	err := s.raw.Update(ctx, func(tx Tx) (err error) {
		asked, n, err = s.steps.run(StepTaskIndex, s.steps.taskIndex, func(rows int) (int, error) { return tx.IndexTasks(ctx, rows) })
		return err
	})
	return err == nil && n >= asked, err
}

// taskCreated counts a create toward the next batch the worker indexes
// (Options.TaskIndexBatch, Options.TaskIndexQuiet).
func (s *Service) taskCreated() { s.work.Queued() }
