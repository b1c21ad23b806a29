package app

import (
	"context"
	"encoding/json"
	"slices"

	"tend/app/background"
)

// Work done in steps (issue 25 §3; docs/api.md, "Work done in steps").
//
// Every write runs on the one writer, so a request whose work grows with
// the data (deleting a tag applied to 100,000 items took 1.7 s) makes every
// other write wait that long. Such a request now does, in its own short
// transaction, the change every reader sees at once (a deleted tag is
// marked so and left out of every read), answers, and leaves the rest to the
// worker (app/background): the rows no reader sees any more are removed a thousand at a
// time, each step its own transaction, so another write waits for one step
// at most. What is left to do is read from the database itself (a tag
// marked deleted is a tag still to purge), so a server stopped in the
// middle, even by kill -9, finishes the work at its next start (ResumeWork)
// and no reader ever sees half of it (app/background states the rule).

// DefaultBulkStepRows is the most rows one step of bulk work on a tag
// removes or reads: 100 steps took a 100,000-item tag off in about 1.4 s
// on a loaded 2-core machine (BENCHMARKS.md, "Bulk work in bounded
// steps"), so a step held the writer for milliseconds. Steps are sized by
// the time the last ones took, up to it (work_step.go).
const DefaultBulkStepRows = 1000

// bulkTx is what the worker reads and writes.
type bulkTx interface {
	// HideTag marks a tag deleted: every read leaves it out from then on,
	// and its name is free for a new tag. deletion is kept with it until
	// the tag is purged: the event to file as the work goes.
	HideTag(ctx context.Context, id, deletion string) error
	// TagUsed reports whether any item, live or in the trash, carries the tag.
	TagUsed(ctx context.Context, id string) (bool, error)
	// NextHiddenTag reads a tag marked deleted whose rows are not all
	// removed yet, and its deletion; the tag's ID is "" when there is none.
	NextHiddenTag(ctx context.Context) (Tag, string, error)
	// PurgeTag removes at most limit applications of a hidden tag, and the
	// tag itself in the step that finds fewer than limit left; it answers
	// the projects of the items it took the tag off.
	PurgeTag(ctx context.Context, id string, limit int) ([]string, error)
	// TagEventProjects lists the projects in which an event with this
	// action was filed on the tag.
	TagEventProjects(ctx context.Context, id, action string) ([]string, error)
	// QueueTagNotice keeps event, a change to the tag, for the worker to
	// file in each project the tag's items are in.
	QueueTagNotice(ctx context.Context, tagID, event string) error
	// NextTagNotice reads the oldest notice not filed everywhere yet, of
	// the tag with this id or of any tag when it is ""; its Seq is 0 when
	// there is none.
	NextTagNotice(ctx context.Context, tagID string) (TagNotice, error)
	// ReadTagNotice reads the projects of the next limit items carrying the
	// notice's tag, moves the notice past them, and reports whether it has
	// read them all.
	ReadTagNotice(ctx context.Context, seq int64, limit int) ([]string, bool, error)
	// FileTagNotice records the projects the notice is filed in, or
	// removes it when done.
	FileTagNotice(ctx context.Context, seq int64, filed []string, done bool) error
}

// TagNotice is a change to a tag made by use, still to be filed in some of
// the projects its items are in (ChangeTag): Event is the event as the
// request wrote it, Filed the projects it is filed in so far.
type TagNotice struct {
	Seq   int64
	TagID string
	Event string
	Filed []string
}

// ResumeWork starts the worker on whatever bulk work the database holds
// unfinished, such as a tag deletion a stopped server left in the middle.
// The server calls it once at start; it returns at once.
func (s *Service) ResumeWork() { s.work.Kick() }

// SettleWork waits until the worker has nothing left to do, or stopped,
// and returns the error that stopped it, if any.
func (s *Service) SettleWork() error { return s.work.Settle() }

// StopWork lets the step under way finish and stops the worker; the work
// left is done at the next ResumeWork, here or in the next process.
func (s *Service) StopWork() { s.work.Stop() }

// kick starts the worker on the work a request queued, once its
// transaction committed.
func (s *Service) kick() { s.work.Kick() }

// bulkStep does one step of the work on tags or of indexing, in one
// transaction, and reports whether it did any. It writes through the
// store unwatched: such a step changes nothing a reader sees, so no page
// waiting for the next write needs waking, nor does indexing a body
// (background.IndexDocumentStep) or a task's text (task_index.go),
// searches waiting for what is queued first. Jobs on subtrees come after
// (taskJobStep).
func (s *Service) bulkStep(ctx context.Context) (bool, error) {
	more := false
	err := s.raw.Update(ctx, func(tx Tx) error {
		// Notices first: a tag renamed and then deleted is told of in that
		// order, and the purge would take away the items the notice reads.
		n, err := tx.NextTagNotice(ctx, "")
		if err != nil {
			return err
		}
		if n.Seq != 0 {
			more = true
			_, _, err := s.steps.run(StepTagNotice, s.steps.tagNotice, func(rows int) (int, error) {
				done, err := noticeStep(ctx, tx, n, rows)
				if done {
					// The last step reads what was left: how many is not told.
					rows = 0
				}
				return rows, err
			})
			return err
		}
		t, deletion, err := tx.NextHiddenTag(ctx)
		if err != nil {
			return err
		}
		if t.ID == "" {
			// Then the text of tasks created (task_index.go), then large
			// bodies to index, a chunk a step.
			if s.opts.TaskIndexBatch > 0 {
				_, n, err := s.steps.run(StepTaskIndex, s.steps.taskIndex, func(rows int) (int, error) { return tx.IndexTasks(ctx, rows) })
				if err != nil || n > 0 {
					more = true
					return err
				}
			}
			// A chunk's size is the schema's (background.DocumentChunkBytes):
			// timed, not sized.
			_, _, err = s.steps.run(StepDocument, nil, func(int) (int, error) {
				more, err = background.IndexDocumentStep(ctx, tx)
				if more {
					return 1, err
				}
				return 0, err
			})
			return err
		}
		// The next step looks again: for the rest of this tag, or the next.
		more = true
		var projects []string
		_, _, err = s.steps.run(StepTagPurge, s.steps.tagPurge, func(rows int) (int, error) {
			projects, err = tx.PurgeTag(ctx, t.ID, rows)
			return rows, err
		})
		// No deletion kept: the event was filed at once (RemoveTag).
		if err != nil || deletion == "" || len(projects) == 0 {
			return err
		}
		filed, err := tx.TagEventProjects(ctx, t.ID, "tag.deleted")
		if err != nil {
			return err
		}
		_, err = fileTagEvent(ctx, tx, deletion, projects, filed)
		return err
	})
	return more, err
}

// noticeStep files a kept change to a tag in the projects of the next
// limit items carrying it, and reports whether it has read them all.
func noticeStep(ctx context.Context, tx Tx, n TagNotice, limit int) (bool, error) {
	projects, done, err := tx.ReadTagNotice(ctx, n.Seq, limit)
	if err != nil {
		return false, err
	}
	if n.Filed, err = fileTagEvent(ctx, tx, n.Event, projects, n.Filed); err != nil {
		return false, err
	}
	return done, tx.FileTagNotice(ctx, n.Seq, n.Filed, done)
}

// fileTagEvent files event, a change to a tag made by use, in each of
// projects not in filed yet, and answers filed with them. Such a tag is
// seen where it is applied (TagFilter), so its changes are told where it
// is applied, and finding where takes reading every application: the
// worker files the event in each project as its steps come upon the tag's
// items there (RemoveTag, ChangeTag).
func fileTagEvent(ctx context.Context, tx Tx, event string, projects, filed []string) ([]string, error) {
	for _, p := range projects {
		if slices.Contains(filed, p) {
			continue
		}
		var e Event
		if err := json.Unmarshal([]byte(event), &e); err != nil {
			return nil, err
		}
		e.ID, e.ProjectID, e.CreatedAt = newID(), p, tx.Now()
		if err := tx.InsertEvent(ctx, &e); err != nil {
			return nil, err
		}
		filed = append(filed, p)
	}
	return filed, nil
}
