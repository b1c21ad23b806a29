package app

import (
	"context"
	"strings"
	"time"
)

func (s *Service) validateTaskUpdate(in *TaskUpdate) error {
	var errs []error
	for _, f := range taskFields {
		if f.check != nil && f.in(in).sent() {
			errs = append(errs, f.check(s, "body."+f.name, f.in(in))...)
		}
	}
	if in.AppliesTo.Set && in.AppliesTo.Value != AppliesThisOne && in.AppliesTo.Value != AppliesFromNowOn {
		errs = append(errs, Invalidf("body.applies_to", "this_one or from_now_on"))
	}
	if in.AppliesTo.Value == AppliesThisOne && in.Repeat.Set {
		errs = append(errs, Invalidf("body.applies_to", "a change of repeat applies from now on; send from_now_on or leave applies_to out"))
	}
	for _, f := range taskFields {
		if f.phrase != nil && f.phrase.in(in).Set && f.in(in).sent() {
			errs = append(errs, Invalidf("body."+f.phrase.name, "the phrase and the instant set the same field; send one"))
		}
	}
	for _, f := range taskFields {
		if f.keeps && f.in(in).null() {
			errs = append(errs, Invalidf("body."+f.name, "cannot be cleared"))
		}
	}
	return joinErrors(errs...)
}

// UpdateTask changes a task. A stale expected_version is refused.
func (s *Service) UpdateTask(ctx context.Context, a Actor, workspace, idOrRef string, in TaskUpdate) (Task, error) {
	if err := s.validateTaskUpdate(&in); err != nil {
		return Task{}, err
	}
	return s.refileTask(ctx, a, workspace, idOrRef, in.Project, func(tx Tx, sc *scope, t Task, n int) (Task, bool, error) {
		return s.updateFound(ctx, tx, a, sc, t, in, n)
	})
}

// updateFound is UpdateTask's change of the task t it found, validated
// already: it answers the task as the change left it and whether it kept
// a job for the worker.
func (s *Service) updateFound(ctx context.Context, tx Tx, a Actor, sc *scope, t Task, in TaskUpdate, n int) (Task, bool, error) {
	if err := checkVersion(in.ExpectedVersion, t.Version); err != nil {
		return Task{}, false, err
	}
	if err := checkAppliesTo(t, in); err != nil {
		return Task{}, false, err
	}
	zone, err := taskZone(ctx, tx, a, sc, t.Timezone)
	if err != nil {
		return Task{}, false, err
	}
	if err := readPhrases(&in, tx.Now(), zone); err != nil {
		return Task{}, false, err
	}
	before := t
	var job *TaskJob
	changes, err := s.applyTaskUpdate(ctx, tx, sc, &t, in, n, &job)
	if err != nil {
		return Task{}, false, err
	}
	if err := updateRepeat(&before, &t, in, changes, zone, tx.Now()); err != nil {
		return Task{}, false, err
	}
	if len(changes) == 0 {
		if s.hidesSubtree(n) {
			// Read without its counts above; no job is kept.
			t, err = readTask(ctx, tx, sc, t.ID)
		}
		return t, false, err
	}
	if err := saveTask(ctx, tx, a, &t, "task.updated", changes); err != nil {
		return Task{}, false, err
	}
	if !before.IsComplete() && t.IsComplete() {
		if _, err := bringNext(ctx, tx, a, t); err != nil {
			return Task{}, false, err
		}
	}
	return answerKeeping(ctx, tx, sc, t.ID, false, job)
}

// writableTask finds a live task the caller may change.
func writableTask(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (*scope, Task, error) {
	return writableTaskAs(ctx, tx, a, workspace, idOrRef, true)
}

// writableTaskAs is writableTask with the task's subtask counts read or
// not (TaskQuery.SkipSubCounts).
func writableTaskAs(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string, counts bool) (*scope, Task, error) {
	return writableItem(ctx, tx, a, workspace, idOrRef, "task", tx.TaskLocator,
		func(sc *scope, id string) (Task, error) { return readTaskAs(ctx, tx, sc, id, false, counts) })
}

// saveTask stores a changed task, bumps its version and records the event.
func saveTask(ctx context.Context, tx Tx, a Actor, t *Task, action string, changes map[string]any) error {
	t.UpdatedAt, t.UpdatedBy, t.Version = tx.Now(), a.User.ID, t.Version+1
	if err := tx.UpdateTask(ctx, t); err != nil {
		return err
	}
	if err := syncReminders(ctx, tx, t, changes["reminders"] != nil); err != nil {
		return err
	}
	ref := t.Ref
	return record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: action,
		ItemRef: &ref, ItemTitle: t.Title, Changes: changes})
}

// n is pendingCount's for a refile; job is set to the job on the subtree
// to keep, if the refile leaves one to the worker.
func (s *Service) applyTaskUpdate(ctx context.Context, tx Tx, sc *scope, t *Task, in TaskUpdate, n int, job **TaskJob) (map[string]any, error) {
	w := &taskWrite{s: s, ctx: ctx, tx: tx, sc: sc, changes: map[string]any{}, n: n, job: job}
	for _, f := range taskFields {
		if f.apply != nil {
			if err := f.apply(w, f, t, &in); err != nil {
				return nil, err
			}
		}
	}
	if w.content {
		t.ContentUpdatedAt = tx.Now()
		if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: t.WorkspaceID, Type: "task", ID: t.ID, Self: t.ID},
			t.Title, t.Description); err != nil {
			return nil, err
		}
	}
	return w.changes, nil
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
