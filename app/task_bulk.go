package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxBulkTasks is how many tasks one bulk change may name, unless
// Limits.MaxBulkTasks says otherwise (GET /v1/meta's max_bulk_tasks).
const MaxBulkTasks = 500

// BulkTarget is one task a bulk change names: its ref or id and, when
// sent, the version the caller read it at.
type BulkTarget struct {
	Ref             FlexRef
	ExpectedVersion *int
}

// TagChange adds and removes tags, leaving a task's other tags as they are.
type TagChange struct {
	Add    []string
	Remove []string
}

// BulkChange is the one change a bulk request makes to every task it
// names: exactly one of its fields is sent. Due and Defer are written
// phrases, as a task update's until and defer are.
type BulkChange struct {
	Status     Patch[string]
	Complete   bool
	Tags       *TagChange
	Assignee   Patch[string]
	Project    Patch[string]
	Due        Patch[string]
	Defer      Patch[string]
	Importance Patch[int]
	Delete     bool
	// Restore brings each task back from the trash, as RestoreTask does:
	// the undo of a bulk delete.
	Restore bool
}

// count is how many of the change's fields were sent.
func (c BulkChange) count() int {
	n := 0
	for _, on := range []bool{c.Status.Set, c.Complete, c.Tags != nil, c.Assignee.Set, c.Project.Set, c.Due.Set, c.Defer.Set,
		c.Importance.Set, c.Delete, c.Restore} {
		if on {
			n++
		}
	}
	return n
}

// update is the change as a task update makes it, but for tags, which
// each task's own tags decide (withTags).
func (c BulkChange) update() TaskUpdate {
	return TaskUpdate{Status: c.Status, Assignee: c.Assignee, Project: c.Project,
		Until: c.Due, Defer: c.Defer, Importance: c.Importance}
}

// withTags is in with t's tags changed as c's tags say.
func (c BulkChange) withTags(in TaskUpdate, t Task) TaskUpdate {
	if c.Tags == nil {
		return in
	}
	drop := map[string]bool{}
	for _, tg := range c.Tags.Remove {
		drop[strings.ToLower(tg)] = true
	}
	tags := []string{}
	for _, tg := range slices.Concat(t.Tags, c.Tags.Add) {
		if !drop[strings.ToLower(tg)] {
			tags = append(tags, tg)
		}
	}
	in.Tags = PatchOf(dedupeFold(tags))
	return in
}

// bulkLocs is where a task update's fields were written in a bulk change.
var bulkLocs = map[string]string{"until": "due", "until_is_all_day": "due"}

// validateBulk checks the request as a whole, before any task is read.
func (s *Service) validateBulk(targets []BulkTarget, c *BulkChange) error {
	if len(targets) == 0 {
		return Invalidf("body.tasks", "name at least one task")
	}
	if err := checkCount("body.tasks", len(targets), s.limits.MaxBulkTasks, "max_bulk_tasks"); err != nil {
		return err
	}
	seen := map[FlexRef]bool{}
	for i, tg := range targets {
		if tg.Ref == "" {
			return Invalidf(fmt.Sprintf("body.tasks.%d.ref", i), "name the task by its ref")
		}
		if seen[tg.Ref] {
			return Invalidf(fmt.Sprintf("body.tasks.%d.ref", i), "task %s is named twice", tg.Ref)
		}
		seen[tg.Ref] = true
	}
	if n := c.count(); n != 1 {
		return Invalidf("body.change", "send exactly one change (status, complete, tags, assignee, project, due, defer, importance, delete or restore); got %d", n)
	}
	var errs []error
	if c.Tags != nil {
		if len(c.Tags.Add)+len(c.Tags.Remove) == 0 {
			errs = append(errs, Invalidf("body.change.tags", "name a tag to add or remove"))
		}
		var add, remove []error
		c.Tags.Add, add = s.normalTags("body.change.tags.add", c.Tags.Add)
		c.Tags.Remove, remove = s.normalTags("body.change.tags.remove", c.Tags.Remove)
		errs = append(append(errs, add...), remove...)
	}
	in := c.update()
	errs = append(errs, inChange(s.validateTaskUpdate(&in)))
	return joinErrors(errs...)
}

// inChange points a task update's refusal at the bulk change's field.
func inChange(err error) error {
	e := AsError(err)
	if err == nil || e.Code == CodeInternal {
		return err
	}
	out := *e
	out.Fields = nil
	for _, f := range e.Fields {
		name := f.Loc[len(f.Loc)-1]
		if n, ok := bulkLocs[name]; ok {
			name = n
		}
		out.Fields = append(out.Fields, FieldError{Loc: []string{"body", "change", name}, Msg: f.Msg})
	}
	return &out
}

// atTarget names the task a refusal is about, by the ref the caller sent,
// so that a client knows which one stopped the change: detail and the
// problem's ref member. A task the caller may not see answers as one that
// does not exist, with the same words.
func atTarget(err error, ref FlexRef) error {
	e := AsError(err)
	if e.Code == CodeInternal {
		return err
	}
	out := *e
	out.Detail = fmt.Sprintf("task %s: %s", ref, e.Detail)
	out.Extra = map[string]any{"ref": string(ref)}
	for k, v := range e.Extra {
		out.Extra[k] = v
	}
	return &out
}

// BulkTasks makes one change to each of the tasks named, all or nothing:
// in one transaction, each task as the one-task write of the change makes
// it (UpdateTask, CompleteTask, DeleteTask, RestoreTask), with its event. The first
// task that refuses (not there or not visible, a stale expected_version,
// not writable, a value it cannot take) refuses the whole request, and
// names that task. A change of a repeating task applies to this
// occurrence. It answers the tasks as the change left them, in the order
// named; trashed ones as they are in the trash.
func (s *Service) BulkTasks(ctx context.Context, a Actor, workspace string, targets []BulkTarget, c BulkChange) ([]Task, error) {
	if err := s.validateBulk(targets, &c); err != nil {
		return nil, err
	}
	counts := make([]int, len(targets))
	for i, tg := range targets {
		switch {
		case c.Delete:
			counts[i] = s.pendingCount(ctx, a, workspace, string(tg.Ref), JobTrash, "")
		case c.Restore:
			counts[i] = s.pendingCount(ctx, a, workspace, string(tg.Ref), JobRestore, "")
		case c.Project.Set:
			counts[i] = s.refileCount(ctx, a, workspace, string(tg.Ref), c.Project)
		}
	}
	find := writableTaskAs
	if c.Restore {
		find = trashedTaskAs
	}
	out := make([]Task, len(targets))
	err := s.updateKicking(ctx, func(tx Tx) (kicks bool, err error) {
		found := make([]Task, len(targets))
		for i, tg := range targets {
			// Every task is found and checked before any changes, so
			// that one trashed (or restored) along with another named
			// before it is not taken for one that is not there.
			_, t, err := find(ctx, tx, a, workspace, string(tg.Ref), !s.hidesSubtree(counts[i]))
			if err == nil {
				err = checkVersion(tg.ExpectedVersion, t.Version)
			}
			if err != nil {
				return false, atTarget(err, tg.Ref)
			}
			found[i] = t
		}
		for i, tg := range targets {
			kept, err := s.bulkOne(ctx, tx, a, workspace, found[i], c, counts[i], &out[i])
			if err != nil {
				return false, atTarget(err, tg.Ref)
			}
			kicks = kicks || kept
		}
		return kicks, nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// bulkOne makes the change to one task found before (by id: its ref may
// have named it in another workspace), as the one-task write does, and
// reports whether it kept a job for the worker.
func (s *Service) bulkOne(ctx context.Context, tx Tx, a Actor, workspace string, was Task, c BulkChange, n int, out *Task) (bool, error) {
	find := writableTaskAs
	if c.Restore {
		find = trashedTaskAs
	}
	sc, t, err := find(ctx, tx, a, workspace, was.ID, !s.hidesSubtree(n))
	switch {
	case (c.Delete || c.Restore) && CodeOf(err) == CodeNotFound:
		// Trashed (or restored) along with a task named before it.
		sc, err = taskScope(ctx, tx, a, workspace, was.ID)
		if err == nil {
			*out, err = readTaskAs(ctx, tx, sc, was.ID, c.Delete, true)
		}
		return false, err
	case err != nil:
		return false, err
	case c.Delete || c.Restore:
		var to *time.Time
		if c.Delete {
			now := tx.Now()
			to = &now
		}
		var kept bool
		*out, kept, err = s.trashSubtree(ctx, tx, a, sc, t, n, to)
		return kept, err
	case c.Complete:
		*out, _, err = finishTask(ctx, tx, a, sc, t, CategoryDone, "task.completed")
		return false, err
	}
	in := c.withTags(c.update(), t)
	if t.RepeatRule != "" {
		in.AppliesTo = PatchOf(AppliesThisOne)
	}
	if err := s.validateTaskUpdate(&in); err != nil {
		return false, inChange(err)
	}
	var kept bool
	*out, kept, err = s.updateFound(ctx, tx, a, sc, t, in, n)
	return kept, err
}
