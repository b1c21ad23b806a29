package app

import (
	"context"
	"encoding/json"
	"time"
)

// Jobs on a subtree (issue 25 §3; docs/api.md, "Work done in steps").
//
// Trashing, restoring or refiling a task changes its whole subtree and
// files an event for each descendant. Done in the request, a subtree of
// 100,000 held the one writer for 14.5 s. A subtree of at most
// SubtreeStepRows descendants still is; a larger one is not: the request
// changes the root, files its event (with the count of descendants it
// takes along) and keeps a job (migration 0020); the worker (bulk.go)
// then changes the descendants SubtreeStepRows a transaction, deepest
// first, filing each one's event as the request would have, and removes
// the job in the step that finds none left. Until the worker reaches a
// descendant, every read leaves it out, as if it did not exist (the
// store's tasks_pending): trashed descendants vanish with the root at
// once and show in the trash as they are reached; restored or refiled
// ones show, in their new state, as they are reached. A task with a job
// under way on itself, an ancestor or a descendant cannot be trashed,
// restored or moved until it is done (409 conflict); a pending descendant
// answers not_found to every request, so no change to it is lost.

// DefaultSubtreeStepRows is the most descendants a request changes itself,
// and the most one step of a job on a subtree changes: each costs a row
// written and an event filed, about 0.15 ms on a loaded 2-core machine
// (BENCHMARKS.md, "Trashing, restoring and refiling a large subtree").
// Steps are sized by the time the last ones took, up to it (work_step.go).
const DefaultSubtreeStepRows = 250

// The kinds of job on a subtree.
const (
	JobTrash   = "trash"
	JobRestore = "restore"
	JobRefile  = "refile"
)

// TaskJob is a change to a subtree left to the worker: its descendants
// still live go to the trash at DeletedAt (trash), those trashed at
// DeletedAt come back (restore), or those outside ProjectID are refiled
// there (refile). Event is the event to file for each, as JSON.
type TaskJob struct {
	Seq       int64
	Kind      string
	RootID    string
	DeletedAt *time.Time
	ProjectID string
	Event     string
}

type taskJobTx interface {
	// InsertTaskJob keeps a job on a subtree for the worker.
	InsertTaskJob(ctx context.Context, j TaskJob) error
	// NextTaskJob reads the oldest job; its Seq is 0 when there is none.
	NextTaskJob(ctx context.Context) (TaskJob, error)
	// TaskJobPending lists the descendants the job has still to change,
	// deepest first.
	TaskJobPending(ctx context.Context, seq int64) ([]string, error)
	// CountPending counts the descendants of a task a job of the kind
	// would change.
	CountPending(ctx context.Context, kind, rootID string, deletedAt *time.Time, projectID string) (int, error)
	// TaskJobNear reports whether a job is under way on the task, an
	// ancestor or a descendant of it.
	TaskJobNear(ctx context.Context, id string) (bool, error)
	// StepTaskJob changes those of ids the job has still to change, and
	// answers them.
	StepTaskJob(ctx context.Context, j TaskJob, ids []string, now time.Time) ([]string, error)
	// EndTaskJob removes a job that is done.
	EndTaskJob(ctx context.Context, seq int64) error
}

// taskPlan is the worker's list of a job's descendants still to change,
// deepest first, read outside the writer (the walk of a large subtree
// takes longer than a step may).
type taskPlan struct {
	job TaskJob
	ids []string
}

// pendingCount counts, before the request's transaction and outside the
// writer, the descendants of the task named that a change of the kind
// would change, so that the request knows whether to leave them to the
// worker. Anything it cannot read counts 0: the request, which checks
// everything again, then does the change itself or refuses it.
func (s *Service) pendingCount(ctx context.Context, a Actor, workspace, idOrRef, kind, project string) int {
	n := 0
	_ = s.store.View(ctx, func(tx Tx) error {
		sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		loc, err := tx.TaskLocator(ctx, sc.ws.Workspace.ID, idOrRef)
		if err != nil {
			return err
		}
		projectID := ""
		if kind == JobRefile {
			p, err := sc.project(project)
			if err != nil {
				return err
			}
			projectID = p.ID
		}
		n, err = tx.CountPending(ctx, kind, loc.ID, loc.DeletedAt, projectID)
		return err
	})
	return n
}

// hidesSubtree reports whether a request whose change takes n descendants
// along (pendingCount) leaves them to a job (subtreeJob), unless it is
// refused. Its reads of the task then skip its subtask counts, which walk
// every child in the writer (100,000 here took half a second, twice); the
// answer, read once the change is made, has none (keepJob) when a job is
// kept, and is read with them when none is.
func (s *Service) hidesSubtree(n int) bool { return n > s.opts.SubtreeStepRows }

// subtreeJob refuses any change to a subtree a job is under way in or
// near, and answers the job to keep for t's subtree when it is larger than
// one step (n descendants), nil when the request changes it itself. The
// request keeps it (keepJob) once it has read its answer: with a job kept,
// counting the root's subtasks walks up from each.
func (s *Service) subtreeJob(ctx context.Context, tx Tx, sc *scope, t Task, n int, j TaskJob, action string, changes map[string]any) (*TaskJob, error) {
	near, err := tx.TaskJobNear(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	if near {
		return nil, Errorf(CodeConflict, "#%d's subtree, or one it is part of, is still being trashed, restored or refiled; try again in a moment", t.Ref)
	}
	if !s.hidesSubtree(n) {
		return nil, nil
	}
	b, err := json.Marshal(alongEvent(sc.acc.actor, "task", action, t.Ref, changes))
	if err != nil {
		return nil, err
	}
	j.RootID, j.Event = t.ID, string(b)
	return &j, nil
}

// keepJob keeps j, if any, for the worker and reports whether it did; out,
// the request's answer, then has no subtasks: the root's subtasks are all
// still to change, and seen by no reader until the worker reaches them.
func keepJob(ctx context.Context, tx Tx, j *TaskJob, out *Task) (bool, error) {
	if j == nil {
		return false, nil
	}
	out.SubTasks, out.SubTasksOpen = 0, 0
	return true, tx.InsertTaskJob(ctx, *j)
}

// taskJobStep does one step of the oldest job on a subtree and reports
// whether it did one. The worker reads the job's descendants still to
// change outside the writer (walking a large subtree takes longer than a
// step may) and changes them a step at a time; when a read finds none
// left, a last short step removes the job. No descendant can become one
// to change meanwhile: those still to change are seen by no request, and
// the job's root, its ancestors and its descendants refuse to be trashed,
// restored or moved (subtreeJob).
func (s *Service) taskJobStep(ctx context.Context) (bool, error) {
	w := &s.jobs
	if len(w.plan.ids) == 0 {
		var p taskPlan
		// A long read: on a connection of its own, none of the requests'.
		err := s.raw.Scan(ctx, func(tx Tx) error {
			j, err := tx.NextTaskJob(ctx)
			if err != nil || j.Seq == 0 {
				return err
			}
			p.job = j
			p.ids, err = tx.TaskJobPending(ctx, j.Seq)
			return err
		})
		if err != nil || p.job.Seq == 0 {
			return false, err
		}
		if len(p.ids) == 0 {
			return true, s.raw.Update(ctx, func(tx Tx) error { return tx.EndTaskJob(ctx, p.job.Seq) })
		}
		w.plan = p
	}
	j := w.plan.job
	n := 0
	// Watched: a step changes what readers see.
	err := s.store.Update(ctx, func(tx Tx) error {
		_, _, err := s.steps.run(StepSubtree, s.steps.subtree, func(rows int) (int, error) {
			n = min(len(w.plan.ids), rows)
			changed, err := tx.StepTaskJob(ctx, j, w.plan.ids[:n], tx.Now())
			if err != nil || len(changed) == 0 {
				return n, err
			}
			var e Event
			if err := json.Unmarshal([]byte(j.Event), &e); err != nil {
				return n, err
			}
			e.CreatedAt = tx.Now()
			ids := make([]string, len(changed))
			for i := range ids {
				ids[i] = newID()
			}
			return n, tx.InsertEventsAlong(ctx, e, changed, ids)
		})
		return err
	})
	if err != nil {
		// The next run reads the job afresh.
		w.plan = taskPlan{}
		return false, err
	}
	w.plan.ids = w.plan.ids[n:]
	return true, nil
}
