package app

import (
	"context"
	"strings"
	"time"

	"tend/app/line"
)

// TaskPreview is what CreateTask would make of its input, made by the
// same code without storing anything: the task as it would be (without
// an id or ref), the first occurrences of its repeat, and, for a captured
// line, which words were read as what.
type TaskPreview struct {
	Task Task
	// Occurrences are the repeat's first PreviewOccurrences occurrences,
	// the due among them; none without a repeat.
	Occurrences []time.Time
	// FromCompletion: the repeat counts each next occurrence from when the
	// last was done.
	FromCompletion bool
	// Spans are the markers understood in the line, in the order written;
	// none for structured fields alone.
	Spans []line.Span
}

// PreviewOccurrences is how many occurrences of a repeat a preview lists.
const PreviewOccurrences = 5

// PreviewTask answers what CreateTask would make of in, creating nothing:
// a quick-add box shows it while a person types. It reads in with
// CreateTask's own code in one read transaction, so it refuses what
// CreateTask would refuse, with the same codes and locations; only a
// failure of the write itself is left for the create to find.
func (s *Service) PreviewTask(ctx context.Context, a Actor, workspace string, in TaskCreate) (TaskPreview, error) {
	if err := s.validateTaskCreate(&in); err != nil {
		return TaskPreview{}, err
	}
	var out TaskPreview
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		d, err := s.draftTask(ctx, tx, a, sc, &in)
		if err != nil {
			return err
		}
		out.Task, out.Spans = d.task, d.spans
		if out.Task.Tags, err = tagsAsStored(ctx, tx, out.Task.WorkspaceID, in.Tags); err != nil {
			return err
		}
		rule, err := taskRule(out.Task)
		if err != nil {
			return err
		}
		out.Occurrences, _ = rule.Occurrences(time.Time{}, time.Time{}, PreviewOccurrences)
		out.FromCompletion = rule.FromCompletion()
		return nil
	}))
	return out, err
}

// taskDraft is a new task as read from a create's input, before it is
// stored: everything but its id, ref, tags and mentions.
type taskDraft struct {
	task  Task
	spans []line.Span // what the captured line was read as
}

// draftTask reads a create's input (validated) in the transaction tx, in
// sc's workspace: the zone its dates are read in, the captured line, the
// repeat, where the task goes, its type, status and assignee. It only
// reads, so CreateTask and PreviewTask share it.
func (s *Service) draftTask(ctx context.Context, tx Tx, a Actor, sc *scope, in *TaskCreate) (taskDraft, error) {
	zone, err := taskZone(ctx, tx, a, sc, in.Timezone)
	if err != nil {
		return taskDraft{}, err
	}
	var read line.Result
	if in.Text != "" {
		if read, err = s.readLine(in, tx.Now(), zone); err != nil {
			return taskDraft{}, err
		}
	}
	t := Task{WorkspaceID: sc.ws.Workspace.ID, Title: strings.TrimSpace(in.Title), CreatedBy: a.User.ID, UpdatedBy: a.User.ID,
		CreatedAt: tx.Now(), UpdatedAt: tx.Now(), ContentUpdatedAt: tx.Now(), Version: 1}
	takeCreated(&t, in)
	if in.Reminders == nil && t.DueAt != nil {
		// A dated task nobody gave reminders takes its creator's defaults.
		in.Reminders = a.User.DefaultReminders
	}
	t.Reminders = append([]Reminder(nil), in.Reminders...)
	if err := createRepeat(&t, *in, read.Repeat, zone, tx.Now()); err != nil {
		return taskDraft{}, err
	}
	n, parent, err := placeItem(ctx, tx, sc, in.Project, string(in.Parent), "task", "subtask", findTaskIn)
	if err != nil {
		return taskDraft{}, err
	}
	t.ProjectID = n.ID
	if parent.ID != "" {
		t.ParentID, t.ParentRef = parent.ID, &parent.Ref
	}
	if err := s.setTaskVocab(ctx, tx, sc, &t, in.Type, in.Status, in.Assignee); err != nil {
		return taskDraft{}, err
	}
	t.ProjectKey, t.ProjectPath, t.WorkspaceSlug, t.ReaderZone = n.Key, n.Path, sc.ws.Workspace.Slug, sc.readerZoneName()
	return taskDraft{task: t, spans: read.Spans}, nil
}

// tagsAsStored names tags as the workspace already spells them (a new
// one as written), in the order an item's tags are given.
func tagsAsStored(ctx context.Context, tx Tx, workspaceID string, names []string) ([]string, error) {
	out := make([]string, len(names))
	for i, n := range names {
		t, err := tx.TagByName(ctx, workspaceID, n)
		switch {
		case err == nil:
			out[i] = t.Name
		case CodeOf(err) == CodeNotFound:
			out[i] = n
		default:
			return nil, err
		}
	}
	SortTagNames(out)
	return out, nil
}
