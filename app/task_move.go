package app

import (
	"context"
	"time"
)

// TaskMove is a new parent for a task (null for the top level of its
// project) and/or a project to refile its subtree into.
type TaskMove struct {
	Parent  Patch[FlexRef]
	Project Patch[string]
}

// refile moves a task under another parent and/or into another project,
// taking its whole subtree along. A task cannot move under itself.
func (s *Service) refile(ctx context.Context, tx Tx, sc *scope, t *Task, project Patch[string], parent Patch[FlexRef], changes map[string]any, n int, job **TaskJob) error {
	at := TaskLocation{ID: t.ID, ProjectID: t.ProjectID, Ref: t.Ref, ParentID: t.ParentID}
	newParent, target, err := refileParent(ctx, tx, sc, "task", at, parent, findTaskIn, tx.TaskSubtree)
	if err != nil {
		return err
	}
	if project.Set && !project.Null && project.Value != "" {
		n, err := sc.project(project.Value)
		if err != nil {
			return bodyRef(err, "body.project", "no such project: "+project.Value)
		}
		if !n.canReadItems() {
			return bodyRef(NotFound("project"), "body.project", "no such project: "+project.Value)
		}
		if parent.Set && newParent != "" && n.ID != target.ID {
			return Invalidf("body.project", "a subtask lives in its parent's project (%s)", target.Path)
		}
		if !parent.Set && n.ID != target.ID {
			newParent = ""
		}
		target = n
	} else if project.Set {
		return Invalidf("body.project", "a task is always filed in a project")
	}
	if err := target.requireItemWrite(); err != nil {
		return err
	}
	if newParent != t.ParentID {
		changes["parent"] = map[string]any{"from": t.ParentRef, "to": string(parent.Value)}
		t.ParentID = newParent
	}
	if target.ID != t.ProjectID {
		changes["project"] = map[string]any{"from": t.ProjectKey, "to": target.Key}
		j, err := s.subtreeJob(ctx, tx, sc, *t, n, TaskJob{Kind: JobRefile, ProjectID: target.ID}, "task.moved", map[string]any{"project": target.Key})
		if err != nil {
			return err
		}
		if j != nil {
			*job = j
			t.ProjectID = target.ID
			return tx.MoveTasks(ctx, []string{t.ID}, target.ID, tx.Now())
		}
		sub, err := tx.TaskSubtree(ctx, t.ID)
		if err != nil {
			return err
		}
		if err := tx.MoveTasks(ctx, sub, target.ID, tx.Now()); err != nil {
			return err
		}
		if err := recordAlong(ctx, tx, sc, sub[1:], "task.moved", t.Ref, map[string]any{"project": target.Key}); err != nil {
			return err
		}
		t.ProjectID = target.ID
	}
	return nil
}

// MoveTask re-parents a task (or refiles it into another project) with its subtree.
func (s *Service) MoveTask(ctx context.Context, a Actor, workspace, idOrRef string, in TaskMove) (Task, error) {
	if !in.Parent.Set && !in.Project.Set {
		return Task{}, Invalidf("body.parent", "send parent (a ref, an id, or null for the top level) and/or project")
	}
	return s.refileTask(ctx, a, workspace, idOrRef, in.Project, func(tx Tx, sc *scope, t Task, n int) (Task, bool, error) {
		changes := map[string]any{}
		var job *TaskJob
		if err := s.refile(ctx, tx, sc, &t, in.Project, in.Parent, changes, n, &job); err != nil {
			return Task{}, false, err
		}
		if len(changes) > 0 {
			if err := saveTask(ctx, tx, a, &t, "task.moved", changes); err != nil {
				return Task{}, false, err
			}
		}
		return answerKeeping(ctx, tx, sc, t.ID, false, job)
	})
}

// refileTask is the write of a change that may refile a task into project
// with its subtree: n, the subtree's size counted before the transaction,
// decides whether the subtree is hidden at once or by the worker, and
// change, given the writable task, answers the task and whether it kept a
// job for the worker.
func (s *Service) refileTask(ctx context.Context, a Actor, workspace, idOrRef string, project Patch[string],
	change func(tx Tx, sc *scope, t Task, n int) (Task, bool, error)) (Task, error) {
	n := s.refileCount(ctx, a, workspace, idOrRef, project)
	var out Task
	err := s.updateKicking(ctx, func(tx Tx) (kept bool, err error) {
		sc, t, err := writableTaskAs(ctx, tx, a, workspace, idOrRef, !s.hidesSubtree(n))
		if err != nil {
			return false, err
		}
		out, kept, err = change(tx, sc, t, n)
		return kept, err
	})
	return out, err
}

// updateKicking runs fn in one write transaction and, when fn kept a job
// for the worker, wakes the worker once the transaction has committed.
func (s *Service) updateKicking(ctx context.Context, fn func(tx Tx) (kept bool, err error)) error {
	kept := false
	err := s.store.Update(ctx, func(tx Tx) (err error) {
		kept, err = fn(tx)
		return err
	})
	if err == nil && kept {
		s.kick()
	}
	return err
}

// answerKeeping reads the task a write on its subtree answers with (from
// the trash when trashed) and keeps job, if any, for the worker: with a
// job the answer leaves out the subtask counts the worker has yet to settle.
func answerKeeping(ctx context.Context, tx Tx, sc *scope, id string, trashed bool, job *TaskJob) (Task, bool, error) {
	out, err := readTaskAs(ctx, tx, sc, id, trashed, job == nil)
	if err != nil {
		return Task{}, false, err
	}
	kept, err := keepJob(ctx, tx, job, &out)
	return out, kept, err
}

// refileParent resolves where a refile's parent puts the item at, a task
// or a document as noun says: under the parent it has when parent is not
// sent, at the top level for null, or under the item find finds, which
// must be neither the item nor inside it (subtree lists the item and all
// below it). It answers the new parent's id ("" for the top level) and the
// project the parent puts the item in.
func refileParent(ctx context.Context, tx Tx, sc *scope, noun string, at ItemLocation, parent Patch[FlexRef],
	find func(ctx context.Context, tx Tx, sc *scope, idOrRef string) (ItemLocation, error),
	subtree func(ctx context.Context, id string) ([]string, error)) (string, *projectNode, error) {
	target := sc.byID[at.ProjectID]
	if !parent.Set {
		return at.ParentID, target, nil
	}
	if parent.Null || parent.Value == "" {
		return "", target, nil
	}
	p, err := find(ctx, tx, sc, string(parent.Value))
	if err != nil {
		return "", nil, bodyRef(err, "body.parent", "no such "+noun+": "+string(parent.Value))
	}
	sub, err := subtree(ctx, at.ID)
	if err != nil {
		return "", nil, err
	}
	if has(sub, p.ID) {
		return "", nil, FieldErrorf(CodeCycle, "body.parent", "#%d is #%d or inside it; a %s cannot move under itself", p.Ref, at.Ref, noun)
	}
	return p.ID, sc.byID[p.ProjectID], nil
}

// refileCount is pendingCount for a refile, when project is sent: a move
// to another parent in the same project takes no descendant along.
func (s *Service) refileCount(ctx context.Context, a Actor, workspace, idOrRef string, project Patch[string]) int {
	if !project.Set || project.Null || project.Value == "" {
		return 0
	}
	return s.pendingCount(ctx, a, workspace, idOrRef, JobRefile, project.Value)
}

// DeleteTask moves a task to the trash and returns it.
func (s *Service) DeleteTask(ctx context.Context, a Actor, workspace, idOrRef string) (Task, error) {
	n := s.pendingCount(ctx, a, workspace, idOrRef, JobTrash, "")
	var out Task
	err := s.updateKicking(ctx, func(tx Tx) (kept bool, err error) {
		sc, t, err := writableTaskAs(ctx, tx, a, workspace, idOrRef, !s.hidesSubtree(n))
		if err != nil {
			return false, err
		}
		now := tx.Now()
		out, kept, err = s.trashSubtree(ctx, tx, a, sc, t, n, &now)
		return kept, err
	})
	return out, err
}

// RestoreTask brings a task back from the trash and records a restore event.
func (s *Service) RestoreTask(ctx context.Context, a Actor, workspace, idOrRef string) (Task, error) {
	n := s.pendingCount(ctx, a, workspace, idOrRef, JobRestore, "")
	var out Task
	err := s.updateKicking(ctx, func(tx Tx) (kept bool, err error) {
		sc, t, err := trashedTaskAs(ctx, tx, a, workspace, idOrRef, !s.hidesSubtree(n))
		if err != nil {
			return false, err
		}
		out, kept, err = s.trashSubtree(ctx, tx, a, sc, t, n, nil)
		return kept, err
	})
	return out, err
}

// trashedTaskAs finds a task in the trash that a may restore: one that is
// not in the trash answers not_found, as one a may not see does.
func trashedTaskAs(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string, counts bool) (*scope, Task, error) {
	sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
	if err != nil {
		return nil, Task{}, err
	}
	loc, err := tx.TaskLocator(ctx, sc.ws.Workspace.ID, idOrRef)
	if err != nil {
		return nil, Task{}, notFoundAs(err, "task")
	}
	if loc.DeletedAt == nil || !sc.byID[loc.ProjectID].canReadItems() {
		return nil, Task{}, NotFound("task")
	}
	if err := sc.byID[loc.ProjectID].requireItemWrite(); err != nil {
		return nil, Task{}, err
	}
	t, err := readTaskAs(ctx, tx, sc, loc.ID, true, counts)
	return sc, t, err
}

// trashSubtree trashes t at the instant to, or restores it when to is nil,
// with the n descendants that go along: on a trash the live ones, on a
// restore those trashed with it (the same instant). A few change in this
// transaction; more are left to a job, which it keeps for the worker. It
// answers the task as the request does and whether a job was kept.
func (s *Service) trashSubtree(ctx context.Context, tx Tx, a Actor, sc *scope, t Task, n int, to *time.Time) (Task, bool, error) {
	kind, action, from, at := JobTrash, "task.deleted", (*time.Time)(nil), to
	if to == nil {
		kind, action, from, at = JobRestore, "task.restored", t.DeletedAt, t.DeletedAt
	}
	job, err := s.subtreeJob(ctx, tx, sc, t, n, TaskJob{Kind: kind, DeletedAt: at}, action, nil)
	if err != nil {
		return Task{}, false, err
	}
	if job == nil {
		sub, err := tx.TaskSubtree(ctx, t.ID)
		if err != nil {
			return Task{}, false, err
		}
		under, err := tx.SetTasksDeleted(ctx, sub[1:], from, to, tx.Now())
		if err != nil {
			return Task{}, false, err
		}
		if err := recordAlong(ctx, tx, sc, under, action, t.Ref, nil); err != nil {
			return Task{}, false, err
		}
		if to == nil {
			if err := resyncReminders(ctx, tx, sc, under); err != nil {
				return Task{}, false, err
			}
		}
		n = len(under)
	}
	t.DeletedAt = to
	if err := saveTask(ctx, tx, a, &t, action, map[string]any{"subtasks": n}); err != nil {
		return Task{}, false, err
	}
	return answerKeeping(ctx, tx, sc, t.ID, to != nil, job)
}

// Completion is what a task is completed with: the evidence, if any, to
// record with it.
type Completion struct {
	Verification *RecordVerification
}

// Completed is what a completion did: the task as it left it, the
// verification recorded with it (nil when none was sent) and, for an
// occurrence of a repeating task, the next occurrence it brought (nil when
// it brought none: the series has ended, or the next one was there already).
type Completed struct {
	Task         Task
	Verification *Verification
	Next         *Task
}

// CompleteTask moves a task to the workspace's finished status: the first
// status, in display order, of the done category. Completing an occurrence
// of a repeating task brings the next one of its series. A verification
// sent with it is recorded in the same transaction: both happen or
// neither does.
func (s *Service) CompleteTask(ctx context.Context, a Actor, workspace, idOrRef string, in Completion) (Completed, error) {
	if in.Verification != nil {
		if err := s.checkVerification("body.verification", *in.Verification); err != nil {
			return Completed{}, err
		}
	}
	var out Completed
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableTask, func(tx Tx, sc *scope, t Task) (err error) {
		if in.Verification != nil {
			v, err := verifyOnce(ctx, tx, a, t, *in.Verification)
			if err != nil {
				return err
			}
			out.Verification = &v
		}
		out.Task, out.Next, err = finishTask(ctx, tx, a, sc, t, CategoryDone, "task.completed")
		return err
	}))
	return out, err
}

// SkipTask lets one occurrence of a repeating task go by: it moves to the
// workspace's first cancelled status (it was not done) and the next
// occurrence is brought as completing would.
func (s *Service) SkipTask(ctx context.Context, a Actor, workspace, idOrRef string) (Task, error) {
	c, err := s.SkipOccurrence(ctx, a, workspace, idOrRef)
	return c.Task, err
}

// SkipOccurrence is SkipTask answering as CompleteTask does: the occurrence
// skipped, and beside it the next one it brought (nil when the series has
// ended, or when it was skipped already), for a page to go on to.
func (s *Service) SkipOccurrence(ctx context.Context, a Actor, workspace, idOrRef string) (Completed, error) {
	var out Completed
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableTask, func(tx Tx, sc *scope, t Task) (err error) {
		if t.RepeatRule == "" {
			return Errorf(CodeNotRepeating, "task #%d does not repeat: only an occurrence of a repeating task can be skipped; "+
				"complete it or set its status", t.Ref)
		}
		out.Task, out.Next, err = finishTask(ctx, tx, a, sc, t, CategoryCancelled, "task.skipped")
		return err
	}))
	return out, err
}

// finishTask moves a task to the first status of a finished category and,
// for an occurrence of a repeating task, brings the next one, which it
// answers beside the task. Only the call that finishes the task brings it:
// a task finished already is answered as it is, so completing twice, even
// at once, brings one next occurrence.
func finishTask(ctx context.Context, tx Tx, a Actor, sc *scope, t Task, category, action string) (Task, *Task, error) {
	sts, err := entityStatuses(ctx, tx, t.WorkspaceID, "task")
	if err != nil {
		return Task{}, nil, err
	}
	key := ""
	for _, st := range sts {
		if st.Category == category {
			key = st.Key
			break
		}
	}
	if key == "" {
		return Task{}, nil, Errorf(CodeConflict, "this workspace has no task status in the %s category", category)
	}
	if t.Status.Category == category {
		return t, nil, nil
	}
	wasOpen := !t.IsComplete()
	changes := map[string]any{}
	if err := setTaskStatus(ctx, tx, &t, key, changes); err != nil {
		return Task{}, nil, err
	}
	if err := saveTask(ctx, tx, a, &t, action, changes); err != nil {
		return Task{}, nil, err
	}
	var next *Task
	if wasOpen {
		id, err := bringNext(ctx, tx, a, t)
		if err != nil {
			return Task{}, nil, err
		}
		if id != "" {
			n, err := readTask(ctx, tx, sc, id)
			if err != nil {
				return Task{}, nil, err
			}
			next = &n
		}
	}
	done, err := readTask(ctx, tx, sc, t.ID)
	return done, next, err
}

// recordAlong records one event for each task changed along with another
// (the subtasks of a task moved, trashed or restored), naming the task the
// change was made on.
func recordAlong(ctx context.Context, tx Tx, sc *scope, ids []string, action string, via int64, changes map[string]any) error {
	return recordEach(ctx, tx, sc.acc.actor, "task", ids, action, via, changes)
}

// recordEach records one event for each item, naming (as "with") the item
// the change was made on. A subtree can hold thousands of items, so the
// events are written in one statement that reads each item's ref and
// title itself, rather than one read and one insert per item.
func recordEach(ctx context.Context, tx Tx, a Actor, entity string, ids []string, action string, via int64, changes map[string]any) error {
	if len(ids) == 0 {
		return nil
	}
	e := alongEvent(a, entity, action, via, changes)
	e.CreatedAt = tx.Now()
	eventIDs := make([]string, len(ids))
	for i := range ids {
		eventIDs[i] = newID()
	}
	return tx.InsertEventsAlong(ctx, e, ids, eventIDs)
}

// alongEvent is the event recordEach files for each item changed along
// with the one (ref via) the change was made on, but for its instant.
func alongEvent(a Actor, entity, action string, via int64, changes map[string]any) Event {
	c := map[string]any{"with": via}
	for k, v := range changes {
		c[k] = v
	}
	e := Event{EntityType: entity, Action: action, Changes: c, ActorTokenID: a.tokenID(), ActorInterface: a.Interface}
	if !a.system {
		e.ActorUserID = a.User.ID
	}
	return e
}
