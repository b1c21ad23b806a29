package app

import (
	"context"
	"errors"
	"time"
)

// Task text indexed after the request (issue 25 §2; docs/api.md, "Work
// done in steps").
//
// Indexing one task's title and description in tasks_fts cost its create
// about five of the 25 pages it wrote to the log, and 13–18 % of its
// server CPU (BENCHMARKS.md): FTS5 writes a segment, its structure record
// and more at every commit, whatever the rows. So a create only queues the
// task (tasks_unindexed, migration 0023) and the text is indexed later,
// many tasks a transaction, at most TaskIndexStepRows of them:
//   - by the server's worker (Options.TaskIndexBatch), once that many
//     creates wait, or when no task has been created for
//     Options.TaskIndexQuiet, and at start (ResumeWork) for tasks a
//     stopped server or the CLI left;
//   - by any read that matches tasks_fts (taskSearch) that finds tasks
//     queued in the database it reads, written by this process or another
//     on the same file: it indexes them all and reads again. So a task is
//     found by any search that starts after its create returned, as before.

// TaskIndexStepRows is the most tasks one step indexes: 500 short tasks
// take the writer a few milliseconds, far under the 50 ms no step may
// hold it (issue 25 §3).
const TaskIndexStepRows = 500

// DefaultTaskIndexBatch is how many creates of the server start the worker
// on the queue: indexing after every create would cost what it saves.
const DefaultTaskIndexBatch = 64

// DefaultTaskIndexQuiet is how long the server waits after the last create
// before the worker indexes what is queued, so that a search after a burst
// rarely has any indexing to do itself.
const DefaultTaskIndexQuiet = 100 * time.Millisecond

type taskIndexTx interface {
	// TasksUnindexed reports whether any task's text waits to be indexed.
	TasksUnindexed(ctx context.Context) (bool, error)
	// IndexTasks indexes the text of the oldest limit tasks waiting, takes
	// them off the queue, and answers how many it indexed.
	IndexTasks(ctx context.Context, limit int) (int, error)
}

// errTasksUnindexed stops a read that matches the task index while tasks
// wait to be indexed: view indexes them and reads again.
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

// indexedTx is the transaction of a read run again after indexing every
// task that waited (view): a task created since may be found or not, as
// under any snapshot, and is not waited for.
type indexedTx struct{ Tx }

func (indexedTx) TasksUnindexed(context.Context) (bool, error) { return false, nil }

// indexTasks indexes every task waiting, a step a transaction. Unwatched:
// what a reader sees does not change, searches having indexed first.
func (s *Service) indexTasks(ctx context.Context) error {
	for {
		n := 0
		err := s.raw.Update(ctx, func(tx Tx) (err error) {
			n, err = tx.IndexTasks(ctx, s.opts.TaskIndexStepRows)
			return err
		})
		if err != nil || n < s.opts.TaskIndexStepRows {
			return err
		}
	}
}

// taskCreated counts a create toward the next batch the worker indexes,
// and starts the worker once the batch is full or, when the server waits
// for quiet, once no create has come for that long.
func (s *Service) taskCreated() {
	if s.opts.TaskIndexBatch <= 0 {
		return
	}
	w := s.work
	w.mu.Lock()
	w.unindexed++
	full := w.unindexed >= s.opts.TaskIndexBatch
	if full {
		w.unindexed = 0
	}
	if quiet := s.opts.TaskIndexQuiet; quiet > 0 && !full {
		if w.quiet == nil {
			w.quiet = time.AfterFunc(quiet, s.indexQuiet)
		} else {
			w.quiet.Reset(quiet)
		}
	}
	w.mu.Unlock()
	if full {
		s.kick()
	}
}

// indexQuiet starts the worker on the tasks created before the writes
// went quiet.
func (s *Service) indexQuiet() {
	s.work.mu.Lock()
	s.work.unindexed = 0
	s.work.mu.Unlock()
	s.kick()
}
