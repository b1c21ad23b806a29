package app

import "context"

// NextClaim is POST /v1/tasks/next/claim and service_claim with ref "next":
// the listing filters that narrow which work is handed out, and the lease.
type NextClaim struct {
	Workspace string
	Project   string
	Tag       string
	Type      string
	Assignee  string
	Minutes   *int
}

// NextOrder is the order in which ready work is handed out: the highest
// priority_score first, then the earliest due (undated last), then the
// oldest ref. GET /v1/tasks?ready=true&to_act_on=true&order=-priority_score,due_at,ref
// lists the same work in the same order.
const NextOrder = "-priority_score,due_at,ref"

// nextBatch is how many candidates one read brings; the caller's own held
// tasks and tasks it may read but not change are passed over.
const nextBatch = 32

// ClaimNextTask claims, for the caller, the highest-ranked task that is
// ready and to act on (see NextOrder) and returns it. The choice and the
// claim happen in one write transaction, so two callers never receive the
// same task. Tasks the caller already holds are not handed out again.
// Nothing ready answers nothing_ready.
func (s *Service) ClaimNextTask(ctx context.Context, a Actor, in NextClaim) (Task, error) {
	if err := s.checkClaimMinutes(in.Minutes); err != nil {
		return Task{}, err
	}
	order, err := parseOrder(NextOrder)
	if err != nil {
		return Task{}, err
	}
	var out Task
	err = s.store.Update(ctx, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) (err error) {
		q, err := s.taskFilter(ctx, tx, sc, TaskListQuery{Project: in.Project, Tag: in.Tag, Type: in.Type,
			Assignee: in.Assignee, Ready: true, ToActOn: true})
		if err != nil {
			return err
		}
		q.Order, q.Now, q.Limit = order, tx.Now(), nextBatch
		for {
			ts, err := sc.tasks(ctx, tx, q)
			if err != nil {
				return err
			}
			for _, t := range ts {
				if (t.held(q.Now) && t.ClaimedByID == a.User.ID) || sc.byID[t.ProjectID].requireItemWrite() != nil {
					continue
				}
				out, err = s.claimIn(ctx, tx, a, sc, t, in.Minutes)
				return err
			}
			if len(ts) < q.Limit {
				return Errorf(CodeNothingReady, "no task is ready for you to act on%s; list what is waiting with GET /v1/tasks?to_act_on=true or add work", in.narrowing())
			}
			last := ts[len(ts)-1]
			q.After = &TaskCursor{Values: sortValues(TaskSortKeys, last, order), Seq: last.Seq}
		}
	}))
	return out, err
}

// narrowing names the filters that were applied, for the nothing-ready detail.
func (in NextClaim) narrowing() string {
	var parts []string
	for _, f := range [][2]string{{"project", in.Project}, {"tag", in.Tag}, {"type", in.Type}, {"assignee", in.Assignee}} {
		if f[1] != "" {
			parts = append(parts, f[0]+"="+f[1])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " with " + joinWords(parts)
}
