package web

import (
	"net/http"

	"tend/app"
)

// handleTaskClaimNext is POST /v1/tasks/next/claim: claim the highest-ranked
// ready task for the caller, narrowed by the listing's project, tag, type
// and assignee. httprouter cannot hold /v1/tasks/next/claim beside
// /v1/tasks/:task/claim, so the claim route hands "next" here.
func (s *Server) handleTaskClaimNext(w http.ResponseWriter, r *http.Request, a app.Actor, in app.NextClaim) error {
	return replyTask(w, http.StatusOK)(s.app.ClaimNextTask(r.Context(), a, in))
}
