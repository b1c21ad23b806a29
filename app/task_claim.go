package app

import (
	"context"
	"time"
)

// Verification is self-reported evidence of what was checked on a task:
// durable and attributable, never proof.
type Verification struct {
	ID            string
	TaskID        string
	Passed        bool
	Summary       string
	CommitSHA     string
	TreeHash      string
	OutputExcerpt string
	RanAt         time.Time
	ActorUserID   string
	ActorTokenID  string
	Actor         string
}

// RecordVerification is a verification to record on a task. There is no
// ran_at: the service stamps it.
type RecordVerification struct {
	Passed        *bool
	Summary       *string
	CommitSHA     *string
	TreeHash      *string
	OutputExcerpt *string
}

// claimMinutes is the lease asked for, or the claim_minutes setting in
// force for the task's project.
func (s *Service) claimMinutes(ctx context.Context, tx Tx, sc *scope, t Task, minutes *int) (int, error) {
	if minutes != nil {
		return *minutes, s.checkClaimMinutes(minutes)
	}
	w, err := tx.WorkspaceByID(ctx, t.WorkspaceID)
	if err != nil {
		return 0, err
	}
	for _, f := range s.inForce(w, w.Settings, sc.byID[t.ProjectID]) {
		if f.Key == "claim_minutes" {
			if v, ok := f.Value.(float64); ok {
				return int(v), nil
			}
			if v, ok := f.Value.(int); ok {
				return v, nil
			}
		}
	}
	return s.limits.DefaultClaimMins, nil
}

// checkClaimMinutes refuses a lease asked for outside 1..MaxClaimMins.
func (s *Service) checkClaimMinutes(minutes *int) error {
	if minutes != nil && (*minutes < 1 || *minutes > s.limits.MaxClaimMins) {
		return Invalidf("query.minutes", "minutes is from 1 to %d", s.limits.MaxClaimMins)
	}
	return nil
}

// held reports whether someone holds an unexpired claim at now.
func (t Task) held(now time.Time) bool {
	return t.ClaimedByID != "" && t.ClaimExpiresAt != nil && t.ClaimExpiresAt.After(now)
}

// ClaimTask takes (or renews) the caller's claim on a task. A claim held by
// another account is refused, naming the holder and the expiry; a task
// that is done or cancelled is refused, as there is no work left in it. Renewal
// keeps the first-taken instant. A claim does not mean work has begun.
func (s *Service) ClaimTask(ctx context.Context, a Actor, workspace, idOrRef string, minutes *int) (Task, error) {
	var out Task
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableTask, func(tx Tx, sc *scope, t Task) (err error) {
		out, err = s.claimIn(ctx, tx, a, sc, t, minutes)
		return err
	}))
	return out, err
}

// claimIn takes or renews a on t inside tx and reads the task back.
func (s *Service) claimIn(ctx context.Context, tx Tx, a Actor, sc *scope, t Task, minutes *int) (Task, error) {
	mins, err := s.claimMinutes(ctx, tx, sc, t, minutes)
	if err != nil {
		return Task{}, err
	}
	if t.IsComplete() {
		return Task{}, Errorf(CodeTaskClosed, "#%d is %s: there is no work left to claim; reopen it by changing its status first", t.Ref, t.Status.Key)
	}
	now := tx.Now()
	if t.held(now) && t.ClaimedByID != a.User.ID {
		return Task{}, &Error{Code: CodeClaimHeld, Detail: "#" + itoa(int(t.Ref)) + " is claimed by " + t.ClaimedBy + " until " +
			t.ClaimExpiresAt.UTC().Format(time.RFC3339) + "; try again after that or ask them to release it",
			Extra: map[string]any{"holder": t.ClaimedBy, "expires_at": t.ClaimExpiresAt.UTC().Format(time.RFC3339Nano)}}
	}
	action := "task.claimed"
	if t.held(now) {
		action = "task.claim_renewed"
	} else {
		t.ClaimedByID, t.ClaimedAt = a.User.ID, &now
	}
	exp := now.Add(time.Duration(mins) * time.Minute)
	t.ClaimExpiresAt = &exp
	if err := saveTask(ctx, tx, a, &t, action, map[string]any{"claim_expires_at": exp, "minutes": mins}); err != nil {
		return Task{}, err
	}
	return readTask(ctx, tx, sc, t.ID)
}

// ReleaseTask lets go of a claim. Anybody who may change the task may
// release it; releasing a task nobody holds records nothing.
func (s *Service) ReleaseTask(ctx context.Context, a Actor, workspace, idOrRef string) (Task, error) {
	var out Task
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableTask, func(tx Tx, sc *scope, t Task) (err error) {
		if !t.held(tx.Now()) {
			out = t
			return nil
		}
		holder := t.ClaimedBy
		t.ClaimedByID, t.ClaimedAt, t.ClaimExpiresAt = "", nil, nil
		if err := saveTask(ctx, tx, a, &t, "task.released", map[string]any{"holder": holder}); err != nil {
			return err
		}
		out, err = readTask(ctx, tx, sc, t.ID)
		return err
	}))
	return out, err
}

// AddVerification records what was checked on a task, stamped with the time
// and the actor.
func (s *Service) AddVerification(ctx context.Context, a Actor, workspace, idOrRef string, in RecordVerification) (Verification, error) {
	if err := s.checkVerification("body", in); err != nil {
		return Verification{}, err
	}
	var out Verification
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableTask, func(tx Tx, _ *scope, t Task) (err error) {
		out, err = recordVerification(ctx, tx, a, t, in)
		return err
	}))
	return out, err
}

// Verifications lists a task's verification records, newest first.
func (s *Service) Verifications(ctx context.Context, a Actor, workspace, idOrRef string) ([]Verification, error) {
	var out []Verification
	err := s.store.View(ctx, func(tx Tx) error {
		_, loc, err := locatedTask(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		out, err = tx.Verifications(ctx, loc.ID)
		return err
	})
	return out, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
