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
	in, q := wire.NextClaimQuery(wire.QueryParams(r.URL.Query()))
	if err := q.Err(); err != nil {
		return err
	}
	return replyTask(w, http.StatusOK)(s.app.ClaimNextTask(r.Context(), a, in))
}
