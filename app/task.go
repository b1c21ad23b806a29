package app

import (
	"context"
	"strings"
	"time"

	"tend/app/line"
	"tend/app/recur"
)

// IsComplete reports whether the task's status is in a finished category.
func (t Task) IsComplete() bool {
	return t.Status.Category == CategoryDone || t.Status.Category == CategoryCancelled
}

// SubTasksDone reports whether every subtask is finished (true with none).
func (t Task) SubTasksDone() bool { return t.SubTasksOpen == 0 }

type taskTx interface {
	// NextRef takes the next ref of a workspace (shared by tasks and documents).
	NextRef(ctx context.Context, workspaceID string) (int64, error)
	InsertTask(ctx context.Context, t *Task) error
	// OccurrenceExists reports whether a series has a task (live or not)
	// numbered occurrence.
	OccurrenceExists(ctx context.Context, seriesID string, occurrence int) (bool, error)
	UpdateTask(ctx context.Context, t *Task) error
	SetTaskTags(ctx context.Context, taskID string, tagIDs []string) error
	// AddTaskTags applies tags to a task that has none yet.
	AddTaskTags(ctx context.Context, taskID string, tagIDs []string) error
	// TagNewTask applies to a task that has no tags yet the workspace's
	// tags with these names, compared case-insensitively, and returns them;
	// a name no tag holds is left out.
	TagNewTask(ctx context.Context, taskID, workspaceID string, names []string) ([]Tag, error)
	// TaskLocator finds where a task lives, by id or by ref in a workspace.
	TaskLocator(ctx context.Context, workspaceID, idOrRef string) (TaskLocation, error)
	// Tasks reads tasks, resolved for the reader the query names.
	Tasks(ctx context.Context, q TaskQuery) ([]Task, error)
	CountTasks(ctx context.Context, q TaskQuery) (int, error)
	// TaskSubtree lists a task and all its descendants' ids.
	TaskSubtree(ctx context.Context, id string) ([]string, error)
	// MoveTasks refiles tasks into a project.
	MoveTasks(ctx context.Context, ids []string, projectID string, now time.Time) error
	// SetTasksDeleted moves the tasks among ids whose deleted_at is from
	// (nil: live) to deleted_at = to, returning the ids it changed.
	SetTasksDeleted(ctx context.Context, ids []string, from, to *time.Time, now time.Time) ([]string, error)
	InsertVerification(ctx context.Context, v *Verification) error
	Verifications(ctx context.Context, taskID string) ([]Verification, error)
}

// TaskLocation is enough of a task to check who may see it.
type TaskLocation struct {
	ID          string
	WorkspaceID string
	ProjectID   string
	Ref         int64
	Title       string
	ParentID    string
	DeletedAt   *time.Time
}

// FlexRef is a reference to an item: its ref (42) or its id.
type FlexRef string

func (s *Service) checkEstimate(loc string, v *int) error {
	if v != nil && (*v < 0 || *v > s.limits.MaxEstimateMinutes) {
		return Invalidf(loc, "from 0 to %d minutes", s.limits.MaxEstimateMinutes)
	}
	return nil
}

// validateTaskCreate refuses a create whose title, or line, or a field the
// table checks (checkCreate) breaks its rule; it tidies the tags sent.
func (s *Service) validateTaskCreate(in *TaskCreate) error {
	var errs []error
	switch {
	case in.Text == "" && in.Title == "":
		errs = append(errs, s.checkTitle("body.title", in.Title))
	case in.Title == "":
		// The title comes out of the line; it can be no longer than the line.
		errs = append(errs, s.checkText("body.text", in.Text, s.limits.MaxTitleLength+s.limits.MaxDescriptionLength))
	}
	return joinErrors(append(errs, s.checkCreate(in)...)...)
}

// readLine fills in what a captured line says wherever the structured
// fields sent beside it say nothing (they win), and returns what it read,
// at the moment now in zone; its Repeat is the repeat the task takes from
// the line (none when the body names one).
func (s *Service) readLine(in *TaskCreate, now time.Time, zone Zone) (line.Result, error) {
	res, err := line.Parse(in.Text, now, zone.Loc)
	if err != nil {
		return line.Result{}, phraseError("body.text", err)
	}
	if in.Title == "" {
		if strings.TrimSpace(res.Title) == "" {
			return line.Result{}, Invalidf("body.text", "the line leaves no title: write a few words besides the markers")
		}
		if err := s.checkTitle("body.text", res.Title); err != nil {
			return line.Result{}, err
		}
		in.Title = res.Title
	}
	if in.Tags == nil && len(res.Tags) > 0 {
		var tagErrs []error
		in.Tags, tagErrs = s.normalTags("body.text", res.Tags)
		if err := joinErrors(tagErrs...); err != nil {
			return line.Result{}, err
		}
	}
	if in.Project == "" && in.Parent == "" {
		in.Project = res.Project
	}
	if in.Importance == nil && res.Importance != 0 {
		in.Importance = &res.Importance
	}
	if in.Urgency == nil && res.Urgency != 0 {
		in.Urgency = &res.Urgency
	}
	if in.EstimateMinutes == nil {
		in.EstimateMinutes = res.EstimateMinutes
	}
	if in.DueAt == nil && !res.Due.IsZero() {
		in.DueAt, in.DueIsAllDay = &res.Due, res.DueAllDay
	}
	if in.Reminders == nil && len(res.Reminders) > 0 {
		in.Reminders = lineReminders(res.Reminders)
		if err := joinErrors(checkReminders("body.text", in.Reminders, false)...); err != nil {
			return line.Result{}, err
		}
	}
	if in.Repeat != "" {
		res.Repeat = recur.Rule{}
	}
	return res, nil
}

// taskZone is the zone a new task's dates are read in: its own, when the
// body names one, else the reader's.
func taskZone(ctx context.Context, tx Tx, a Actor, sc *scope, named string) (Zone, error) {
	if named != "" {
		return loadZone(named), nil
	}
	return readerZone(ctx, tx, a.User, &sc.ws.Workspace)
}

// createRepeat reads the repeat of a new task, from its repeat field or
// its line, and makes the task repeat by it.
func createRepeat(t *Task, in TaskCreate, fromLine recur.Rule, zone Zone, now time.Time) error {
	rule := fromLine
	if in.Repeat != "" {
		start := now
		if t.DueAt != nil {
			start = *t.DueAt
		}
		r, err := recur.Parse(in.Repeat, start, zone.Loc)
		if err != nil {
			return repeatError("body.repeat", err)
		}
		rule = r
	}
	if rule.IsZero() {
		if t.DueAt != nil && t.Timezone == "" {
			t.Timezone = zone.Name
		}
		return nil
	}
	return startRepeat(t, rule, zone)
}

func dedupeFold(in []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range in {
		if k := strings.ToLower(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// CreateTask files a new task: in the project named, under the parent named
// (in the parent's project), or in the inbox.
func (s *Service) CreateTask(ctx context.Context, a Actor, workspace string, in TaskCreate) (Task, error) {
	if err := s.validateTaskCreate(&in); err != nil {
		return Task{}, err
	}
	var out Task
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, err := inWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return err
		}
		out, err = s.createTask(ctx, tx, a, sc, in)
		return err
	})
	if err == nil {
		s.taskCreated()
	}
	return out, err
}

// createTask files a checked new task in sc's workspace: its line read, its
// repeat started, its tags made, its mentions noted, its event recorded.
func (s *Service) createTask(ctx context.Context, tx Tx, a Actor, sc *scope, in TaskCreate) (Task, error) {
	d, err := s.draftTask(ctx, tx, a, sc, &in)
	if err != nil {
		return Task{}, err
	}
	t := d.task
	t.ID = newID()
	if t.Ref, err = tx.NextRef(ctx, t.WorkspaceID); err != nil {
		return Task{}, err
	}
	if err := tx.InsertTask(ctx, &t); err != nil {
		return Task{}, err
	}
	if err := syncReminders(ctx, tx, &t, false); err != nil {
		return Task{}, err
	}
	tags, err := tagNewTask(ctx, tx, a, &t, in.Tags)
	if err != nil {
		return Task{}, err
	}
	if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: t.WorkspaceID, Type: "task", ID: t.ID, Self: t.ID, New: true},
		t.Title, t.Description); err != nil {
		return Task{}, err
	}
	ref := t.Ref
	if err := record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: "task.created",
		ItemRef: &ref, ItemTitle: t.Title, Changes: map[string]any{"title": t.Title}, ProjectID: t.ProjectID}); err != nil {
		return Task{}, err
	}
	// Everything a read of the new task would resolve is known here: it
	// has no links, subtasks or claim yet, and InsertTask scored it with
	// the listing's own expression (TestTaskCreateAnswersAsRead).
	t.Tags = tagNames(tags)
	return t, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// placeItem finds where a new item goes: under the parent named (in the
// parent's project), in the project named, or in the inbox. It returns the
// project and the parent, if any. find locates a parent of the item's kind;
// what and child name the kind in refusals.
func placeItem(ctx context.Context, tx Tx, sc *scope, project, parent, what, child string,
	find func(ctx context.Context, tx Tx, sc *scope, idOrRef string) (ItemLocation, error)) (n *projectNode, p ItemLocation, err error) {
	switch {
	case parent != "":
		if p, err = find(ctx, tx, sc, parent); err != nil {
			return nil, p, bodyRef(err, "body.parent", "no such "+what+": "+parent)
		}
		n = sc.byID[p.ProjectID]
		if project != "" {
			// The scope is in memory: its lookup fails only as not-found.
			if pn, err := sc.project(project); err != nil || pn.ID != n.ID {
				return nil, p, Invalidf("body.project", "a %s lives in its parent's project (%s)", child, n.Path)
			}
		}
	case project != "":
		if n, err = sc.project(project); err != nil {
			return nil, p, bodyRef(err, "body.project", "no such project: "+project)
		}
	default:
		if n, err = sc.inbox(); err != nil {
			return nil, p, bodyRef(err, "body.project", "name a project: the inbox is not visible to this credential")
		}
	}
	if !n.canReadItems() {
		return nil, p, bodyRef(NotFound("project"), "body.project", "no such project: "+project)
	}
	if err := n.requireItemWrite(); err != nil {
		return nil, p, err
	}
	return n, p, nil
}

// setTaskVocab resolves type, status and assignee names to ids.
func (s *Service) setTaskVocab(ctx context.Context, tx Tx, sc *scope, t *Task, typ, status, assignee string) error {
	it, err := itemTypeFor(ctx, tx, t.WorkspaceID, "task", typ, "body.type")
	if err != nil {
		return err
	}
	st, err := statusFor(ctx, tx, t.WorkspaceID, "task", status, "body.status")
	if err != nil {
		return err
	}
	t.TypeID, t.StatusID, t.Type, t.Status = it.ID, st.ID, it, st
	if st.Category == CategoryDone || st.Category == CategoryCancelled {
		now := tx.Now()
		t.CompletedAt = &now
	}
	if assignee != "" {
		u, err := workspaceMember(ctx, tx, sc, assignee, "body.assignee")
		if err != nil {
			return err
		}
		t.AssigneeID, t.Assignee, t.AssigneeIsAgent, t.AssigneeAnswersTo = u.ID, u.Username, u.IsServiceAccount, u.AnswersTo
	}
	return nil
}

// workspaceMember resolves a username (or "me") to a member of the scope's workspace.
func workspaceMember(ctx context.Context, tx Tx, sc *scope, name, loc string) (User, error) {
	if name == "me" {
		return sc.acc.actor.User, nil
	}
	u, err := tx.UserByName(ctx, name)
	if err != nil {
		return User{}, bodyRef(err, loc, "no such account: "+name)
	}
	if _, err := tx.MemberOf(ctx, sc.ws.Workspace.ID, u.ID); err != nil {
		return User{}, bodyRef(err, loc, u.Username+" is not a member of this workspace")
	}
	return u, nil
}

// applyTags sets an item's tags by name, creating those not yet used;
// set stores them for the item's kind.
func applyTags(ctx context.Context, tx Tx, a Actor, workspaceID, projectID, itemID string, names []string,
	set func(ctx context.Context, itemID string, tagIDs []string) error) error {
	tags, err := ensureTags(ctx, tx, a, workspaceID, projectID, names)
	if err != nil {
		return err
	}
	return set(ctx, itemID, tagIDs(tags))
}

// findTaskIn locates a live task the caller may read, by id or ref.
func findTaskIn(ctx context.Context, tx Tx, sc *scope, idOrRef string) (TaskLocation, error) {
	return findItemIn(ctx, sc, idOrRef, "task", tx.TaskLocator)
}

// findItemIn locates a live item the caller may read, by id or ref; one
// absent, trashed or unseen answers alike.
func findItemIn(ctx context.Context, sc *scope, idOrRef, what string,
	locate func(ctx context.Context, workspaceID, idOrRef string) (ItemLocation, error)) (ItemLocation, error) {
	loc, err := locate(ctx, sc.ws.Workspace.ID, idOrRef)
	if err != nil {
		return ItemLocation{}, notFoundAs(err, what)
	}
	if loc.DeletedAt != nil || !sc.byID[loc.ProjectID].canReadItems() {
		return ItemLocation{}, NotFound(what)
	}
	return loc, nil
}

// readTask reads one task resolved for the scope's reader.
func readTask(ctx context.Context, tx Tx, sc *scope, id string) (Task, error) {
	return readTaskAs(ctx, tx, sc, id, false, true)
}

// readTaskAs is readTask, or a read of the task in the trash when
// trashed, with its subtask counts read or not (TaskQuery.SkipSubCounts).
func readTaskAs(ctx context.Context, tx Tx, sc *scope, id string, trashed, counts bool) (Task, error) {
	ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: []string{id}, Limit: 1, Deleted: &trashed, SkipSubCounts: !counts}))
	if err != nil {
		return Task{}, err
	}
	if len(ts) == 0 {
		return Task{}, NotFound("task")
	}
	return ts[0], nil
}

// taskScope opens the scope for a task addressed by id (whatever workspace
// holds it) or ref (in the workspace named, or the only one).
func taskScope(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, error) {
	return itemScope(ctx, tx, a, workspace, idOrRef, "task", tx.TaskLocator)
}

// TaskGet returns one task by id or ref.
func (s *Service) TaskGet(ctx context.Context, a Actor, workspace, idOrRef string) (Task, error) {
	return itemGet(ctx, s, "task", idOrRef,
		func(tx Tx) (*scope, error) { return taskScope(ctx, tx, a, workspace, idOrRef) },
		func(tx Tx, sc *scope, ids []string, ref int64) ([]Task, error) {
			// A limit lets the store page inside its query (see pagedInside),
			// which computes each per-row subquery once.
			return sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, Ref: ref, Limit: 1}))
		})
}

// tasks reads tasks through the store and fills in what the scope already
// holds, so the query need not join it in: each task's project key and
// path and the workspace slug. The query reads only readable projects,
// all of which the scope has.
func (sc *scope) tasks(ctx context.Context, tx Tx, q TaskQuery) ([]Task, error) {
	ts, err := tx.Tasks(ctx, q)
	zone := sc.readerZoneName()
	for i := range ts {
		if n := sc.byID[ts[i].ProjectID]; n != nil {
			ts[i].ProjectKey, ts[i].ProjectPath = n.Key, n.Path
		}
		ts[i].WorkspaceSlug, ts[i].ReaderZone = sc.ws.Workspace.Slug, zone
		describeRepeat(&ts[i])
	}
	if err != nil {
		return nil, err
	}
	return ts, resolveFireAt(ctx, tx, ts)
}
