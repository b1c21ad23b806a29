package app

import (
	"context"
	"strings"
	"time"
)

// TaskUpdate is a change to a task: unset fields stay, null ones clear.
// The JSON API reads it from wire.TaskUpdate (PATCH /v1/tasks/{id_or_ref}).
type TaskUpdate struct {
	Title           Patch[string]
	Description     Patch[string]
	Project         Patch[string]
	Parent          Patch[FlexRef]
	Type            Patch[string]
	Status          Patch[string]
	Tags            Patch[[]string]
	Assignee        Patch[string]
	Importance      Patch[int]
	Urgency         Patch[int]
	DueAt           Patch[time.Time]
	DueIsAllDay     Patch[bool]
	StartsAt        Patch[time.Time]
	StartsIsAllDay  Patch[bool]
	SnoozedUntil    Patch[time.Time]
	SnoozedIsAllDay Patch[bool]
	EstimateMinutes Patch[int]
	Repeat          Patch[string]
	Timezone        Patch[string]
	AppliesTo       Patch[string]
	// Written phrases, read with when.ParseDate in the reader's zone: defer
	// sets snoozed_until ("" unhides), plan starts_at (the day one means to
	// work on it), until due_at (the deadline); "" or null clears.
	Defer           Patch[string]
	Plan            Patch[string]
	Until           Patch[string]
	ExpectedVersion *int
}

func (s *Service) validateTaskUpdate(in *TaskUpdate) error {
	var errs []error
	if in.Title.Set {
		errs = append(errs, s.checkTitle("body.title", in.Title.Value))
	}
	if in.Description.Set {
		errs = append(errs, s.checkText("body.description", in.Description.Value, s.limits.MaxDescriptionLength),
			s.checkMentions("body.description", in.Description.Value))
	}
	for _, p := range []struct {
		loc string
		v   Patch[int]
	}{{"body.importance", in.Importance}, {"body.urgency", in.Urgency}} {
		if p.v.Set && !p.v.Null {
			errs = append(errs, s.checkLevel(p.loc, &p.v.Value))
		}
	}
	if in.EstimateMinutes.Set && !in.EstimateMinutes.Null {
		errs = append(errs, s.checkEstimate("body.estimate_minutes", &in.EstimateMinutes.Value))
	}
	if in.Timezone.Set && !in.Timezone.Null {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone.Value))
	}
	errs = append(errs, checkPatchInstant("body.due_at", in.DueAt), checkPatchInstant("body.starts_at", in.StartsAt),
		checkPatchInstant("body.snoozed_until", in.SnoozedUntil))
	if in.AppliesTo.Set && in.AppliesTo.Value != AppliesThisOne && in.AppliesTo.Value != AppliesFromNowOn {
		errs = append(errs, Invalidf("body.applies_to", "this_one or from_now_on"))
	}
	if in.AppliesTo.Value == AppliesThisOne && in.Repeat.Set {
		errs = append(errs, Invalidf("body.applies_to", "a change of repeat applies from now on; send from_now_on or leave applies_to out"))
	}
	for _, both := range []struct {
		loc          string
		phrase, time bool
	}{{"body.until", in.Until.Set, in.DueAt.Set}, {"body.plan", in.Plan.Set, in.StartsAt.Set},
		{"body.defer", in.Defer.Set, in.SnoozedUntil.Set}} {
		if both.phrase && both.time {
			errs = append(errs, Invalidf(both.loc, "the phrase and the instant set the same field; send one"))
		}
	}
	for _, nullable := range []struct {
		loc string
		set bool
	}{{"body.title", in.Title.Set && in.Title.Null}, {"body.type", in.Type.Set && in.Type.Null}, {"body.status", in.Status.Set && in.Status.Null}} {
		if nullable.set {
			errs = append(errs, Invalidf(nullable.loc, "cannot be cleared"))
		}
	}
	if in.Tags.Set {
		var tagErrs []error
		in.Tags.Value, tagErrs = s.normalTags("body.tags", in.Tags.Value)
		errs = append(errs, tagErrs...)
	}
	return joinErrors(errs...)
}

// UpdateTask changes a task. A stale expected_version is refused.
func (s *Service) UpdateTask(ctx context.Context, a Actor, workspace, idOrRef string, in TaskUpdate) (Task, error) {
	if err := s.validateTaskUpdate(&in); err != nil {
		return Task{}, err
	}
	n := s.refileCount(ctx, a, workspace, idOrRef, in.Project)
	var out Task
	kick := false
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, t, err := writableTaskAs(ctx, tx, a, workspace, idOrRef, !s.hidesSubtree(n))
		if err != nil {
			return err
		}
		if err := checkVersion(in.ExpectedVersion, t.Version); err != nil {
			return err
		}
		if err := checkAppliesTo(t, in); err != nil {
			return err
		}
		zone, err := taskZone(ctx, tx, a, sc, t.Timezone)
		if err != nil {
			return err
		}
		if err := readPhrases(&in, tx.Now(), zone); err != nil {
			return err
		}
		before := t
		var job *TaskJob
		changes, err := s.applyTaskUpdate(ctx, tx, sc, &t, in, n, &job)
		if err != nil {
			return err
		}
		if err := updateRepeat(&before, &t, in, changes, zone, tx.Now()); err != nil {
			return err
		}
		if len(changes) == 0 {
			out = t
			if s.hidesSubtree(n) {
				// Read without its counts above; no job is kept.
				out, err = readTask(ctx, tx, sc, t.ID)
			}
			return err
		}
		if err := saveTask(ctx, tx, a, &t, "task.updated", changes); err != nil {
			return err
		}
		if !before.IsComplete() && t.IsComplete() {
			if _, err := bringNext(ctx, tx, a, t); err != nil {
				return err
			}
		}
		if out, err = readTaskAs(ctx, tx, sc, t.ID, false, job == nil); err != nil {
			return err
		}
		kick, err = keepJob(ctx, tx, job, &out)
		return err
	})
	if err == nil && kick {
		s.kick()
	}
	return out, err
}

// writableTask finds a live task the caller may change.
func writableTask(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, Task, error) {
	return writableTaskAs(ctx, tx, a, workspace, idOrRef, true)
}

// writableTaskAs is writableTask with the task's subtask counts read or
// not (TaskQuery.SkipSubCounts).
func writableTaskAs(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string, counts bool) (*scope, Task, error) {
	sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
	if err != nil {
		return nil, Task{}, err
	}
	loc, err := findTaskIn(ctx, tx, sc, idOrRef)
	if err != nil {
		return nil, Task{}, err
	}
	if err := sc.byID[loc.ProjectID].requireItemWrite(); err != nil {
		return nil, Task{}, err
	}
	t, err := readTaskAs(ctx, tx, sc, loc.ID, false, counts)
	return sc, t, err
}

// saveTask stores a changed task, bumps its version and records the event.
func saveTask(ctx context.Context, tx Tx, a Actor, t *Task, action string, changes map[string]any) error {
	t.UpdatedAt, t.UpdatedBy, t.Version = tx.Now(), a.User.ID, t.Version+1
	if err := tx.UpdateTask(ctx, t); err != nil {
		return err
	}
	ref := t.Ref
	return record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: action,
		ItemRef: &ref, ItemTitle: t.Title, Changes: changes})
}

// n is pendingCount's for a refile; job is set to the job on the subtree
// to keep, if the refile leaves one to the worker.
func (s *Service) applyTaskUpdate(ctx context.Context, tx Tx, sc *scope, t *Task, in TaskUpdate, n int, job **TaskJob) (map[string]any, error) {
	changes := map[string]any{}
	content := false
	if title := strings.TrimSpace(in.Title.Value); in.Title.Set && title != t.Title {
		changes["title"] = map[string]any{"from": t.Title, "to": title}
		t.Title, content = title, true
	}
	if in.Description.Set && in.Description.Value != t.Description {
		changes["description"] = map[string]any{"from": t.Description, "to": in.Description.Value}
		t.Description, content = in.Description.Value, true
	}
	if content {
		t.ContentUpdatedAt = tx.Now()
		if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: t.WorkspaceID, Type: "task", ID: t.ID, Self: t.ID},
			t.Title, t.Description); err != nil {
			return nil, err
		}
	}
	if err := s.applyTaskVocabUpdate(ctx, tx, sc, t, in, changes); err != nil {
		return nil, err
	}
	patchInt(changes, "importance", &t.Importance, in.Importance)
	patchInt(changes, "urgency", &t.Urgency, in.Urgency)
	patchInt(changes, "estimate_minutes", &t.EstimateMinutes, in.EstimateMinutes)
	patchTime(changes, "due_at", &t.DueAt, in.DueAt)
	patchTime(changes, "starts_at", &t.StartsAt, in.StartsAt)
	patchTime(changes, "snoozed_until", &t.SnoozedUntil, in.SnoozedUntil)
	patchBool(changes, "due_is_all_day", &t.DueIsAllDay, in.DueIsAllDay)
	patchBool(changes, "starts_is_all_day", &t.StartsIsAllDay, in.StartsIsAllDay)
	patchBool(changes, "snoozed_is_all_day", &t.SnoozedIsAllDay, in.SnoozedIsAllDay)
	if in.Timezone.Set && in.Timezone.Value != t.Timezone {
		changes["timezone"] = map[string]any{"from": t.Timezone, "to": in.Timezone.Value}
		t.Timezone = in.Timezone.Value
	}
	if in.Tags.Set {
		names := in.Tags.Value
		if in.Tags.Null {
			names = []string{}
		}
		if !sameFold(names, t.Tags) {
			changes["tags"] = map[string]any{"from": t.Tags, "to": names}
			if err := applyTags(ctx, tx, sc.acc.actor, t.WorkspaceID, t.ProjectID, t.ID, names, tx.SetTaskTags); err != nil {
				return nil, err
			}
		}
	}
	if in.Project.Set || in.Parent.Set {
		if err := s.refile(ctx, tx, sc, t, in.Project, in.Parent, changes, n, job); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

func (s *Service) applyTaskVocabUpdate(ctx context.Context, tx Tx, sc *scope, t *Task, in TaskUpdate, changes map[string]any) error {
	if in.Type.Set {
		it, err := itemTypeFor(ctx, tx, t.WorkspaceID, "task", in.Type.Value, "body.type")
		if err != nil {
			return err
		}
		if it.ID != t.TypeID {
			changes["type"] = map[string]any{"from": t.Type.Key, "to": in.Type.Value}
			t.TypeID = it.ID
		}
	}
	if in.Status.Set {
		if err := setTaskStatus(ctx, tx, t, in.Status.Value, changes); err != nil {
			return err
		}
	}
	if in.Assignee.Set {
		id := ""
		if !in.Assignee.Null && in.Assignee.Value != "" {
			u, err := workspaceMember(ctx, tx, sc, in.Assignee.Value, "body.assignee")
			if err != nil {
				return err
			}
			id = u.ID
		}
		if id != t.AssigneeID {
			changes["assignee"] = map[string]any{"from": t.Assignee, "to": in.Assignee.Value}
			t.AssigneeID = id
		}
	}
	return nil
}

// setTaskStatus moves a task to a status by key and keeps completed_at in
// step with the status category.
func setTaskStatus(ctx context.Context, tx Tx, t *Task, key string, changes map[string]any) error {
	st, err := statusFor(ctx, tx, t.WorkspaceID, "task", key, "body.status")
	if err != nil {
		return err
	}
	if st.ID == t.StatusID {
		return nil
	}
	changes["status"] = map[string]any{"from": t.Status.Key, "to": st.Key}
	finished := st.Category == CategoryDone || st.Category == CategoryCancelled
	switch {
	case finished && t.CompletedAt == nil:
		now := tx.Now()
		t.CompletedAt = &now
	case !finished:
		t.CompletedAt = nil
	}
	if finished {
		// Finished work is held by nobody.
		t.ClaimedByID, t.ClaimedAt, t.ClaimExpiresAt = "", nil, nil
	}
	t.StatusID, t.Status = st.ID, st
	return nil
}

func patchInt(changes map[string]any, name string, field **int, p Patch[int]) {
	if !p.Set {
		return
	}
	var v *int
	if !p.Null {
		x := p.Value
		v = &x
	}
	if (v == nil) == (*field == nil) && (v == nil || *v == **field) {
		return
	}
	changes[name] = map[string]any{"from": *field, "to": v}
	*field = v
}

func patchTime(changes map[string]any, name string, field **time.Time, p Patch[time.Time]) {
	if !p.Set {
		return
	}
	var v *time.Time
	if !p.Null {
		x := p.Value.UTC()
		v = &x
	}
	if (v == nil) == (*field == nil) && (v == nil || v.Equal(**field)) {
		return
	}
	changes[name] = map[string]any{"from": *field, "to": v}
	*field = v
}

func patchBool(changes map[string]any, name string, field *bool, p Patch[bool]) {
	if p.Set && !p.Null && p.Value != *field {
		changes[name] = map[string]any{"from": *field, "to": p.Value}
		*field = p.Value
	}
}

// sameFold reports whether two tag lists hold the same names, ignoring case and order.
func sameFold(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[strings.ToLower(x)]++
	}
	for _, x := range b {
		seen[strings.ToLower(x)]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
