package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handleTaskClaimNext is POST /v1/tasks/next/claim: claim the highest-ranked
// ready task for the caller, narrowed by the listing's project, tag, type
// and assignee. httprouter cannot hold /v1/tasks/next/claim beside
// /v1/tasks/:task/claim, so the claim route hands "next" here.
func (s *Server) handleTaskClaimNext(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	in := app.NextClaim{Workspace: wsParam(r), Project: q.Str("project"), Tag: q.Str("tag"), Type: q.Str("type"), Assignee: q.Str("assignee")}
	if q.Str("minutes") != "" {
		m := q.Int("minutes")
		in.Minutes = &m
	}
	if err := q.Err(); err != nil {
		return err
	}
	t, err := s.app.ClaimNextTask(r.Context(), a, in)
	if err != nil {
		return err
	}
	return wire.WriteTask(w, http.StatusOK, wire.NewTask(t))
}
