package app

import "context"

// verificationLimits bounds, in characters, each text of a verification,
// wherever it comes from: the API, MCP or an import.
var verificationLimits = map[string]int{"summary": 2000, "commit_sha": 100, "tree_hash": 100, "output_excerpt": 20_000}

// checkVerification refuses a verification without a verdict or with a
// field over its length. loc is where the record sits in the request:
// "body" on the verifications route, "body.verification" in a completion.
func (s *Service) checkVerification(loc string, in RecordVerification) error {
	errs := []error{}
	if in.Passed == nil {
		errs = append(errs, Invalidf(loc+".passed", "passed is required: true or false"))
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"summary", in.Summary}, {"commit_sha", in.CommitSHA}, {"tree_hash", in.TreeHash}, {"output_excerpt", in.OutputExcerpt}} {
		if f.v != nil {
			errs = append(errs, s.checkText(loc+"."+f.name, *f.v, verificationLimits[f.name]))
		}
	}
	return joinErrors(errs...)
}

// recordVerification stores what was checked on t, stamped with the
// transaction's time and the actor, and records it in t's history.
func recordVerification(ctx context.Context, tx Tx, a Actor, t Task, in RecordVerification) (Verification, error) {
	v := Verification{ID: newID(), TaskID: t.ID, Passed: *in.Passed, Summary: deref(in.Summary),
		CommitSHA: deref(in.CommitSHA), TreeHash: deref(in.TreeHash), OutputExcerpt: deref(in.OutputExcerpt),
		RanAt: tx.Now(), ActorUserID: a.User.ID, ActorTokenID: a.tokenID(), Actor: a.User.Username}
	if err := tx.InsertVerification(ctx, &v); err != nil {
		return Verification{}, err
	}
	ref := t.Ref
	return v, record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: "task.verified",
		ItemRef: &ref, ItemTitle: t.Title, SubjectType: "verification", SubjectID: v.ID,
		Changes: map[string]any{"passed": v.Passed, "summary": v.Summary, "commit_sha": v.CommitSHA}})
}

// verifyOnce records a verification sent with a completion. A completion
// sent again (an agent retrying after a lost answer) finds the task
// finished already and the same verdict recorded by the same account last:
// that record is the answer, and no second one is stored. Evidence sent
// with a completion of work somebody else finished is recorded.
func verifyOnce(ctx context.Context, tx Tx, a Actor, t Task, in RecordVerification) (Verification, error) {
	if t.IsComplete() {
		vs, err := tx.Verifications(ctx, t.ID)
		if err != nil {
			return Verification{}, err
		}
		if len(vs) > 0 && sameVerification(vs[0], a, in) {
			return vs[0], nil
		}
	}
	return recordVerification(ctx, tx, a, t, in)
}

func sameVerification(v Verification, a Actor, in RecordVerification) bool {
	return v.ActorUserID == a.User.ID && v.Passed == *in.Passed && v.Summary == deref(in.Summary) &&
		v.CommitSHA == deref(in.CommitSHA) && v.TreeHash == deref(in.TreeHash) && v.OutputExcerpt == deref(in.OutputExcerpt)
}
