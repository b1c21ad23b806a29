package web

import (
	"net/http"

	"tend/app"
)

// handleTaskClaimNext is POST /v1/tasks/next/claim: claim the highest-ranked
// ready task for the caller, narrowed by the listing's project, tag, type
// and assignee. httprouter cannot hold /v1/tasks/next/claim beside
// /v1/tasks/:task/claim, so the claim route hands "next" here.
func (s *Server) handleTaskClaimNext(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := newQuery(r)
	in := app.NextClaim{Workspace: wsParam(r), Project: q.str("project"), Tag: q.str("tag"), Type: q.str("type"), Assignee: q.str("assignee")}
	if q.str("minutes") != "" {
		m := q.int("minutes")
		in.Minutes = &m
	}
	if err := q.err(); err != nil {
		return err
	}
	t, err := s.app.ClaimNextTask(r.Context(), a, in)
	if err != nil {
		return err
	}
	return writeTaskJSON(w, http.StatusOK, newTaskJSON(t))
}
