package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handleTaskPreview answers what POST /v1/tasks would make of the same
// body and query, creating nothing: the quick-add box shows it while a
// person types, so a misreading is seen before it is stored.
func (s *Server) handleTaskPreview(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.TaskCreate) error {
	return reply(w, http.StatusOK, wire.NewTaskPreview)(s.app.PreviewTask(r.Context(), a, wsParam(r), in.App()))
}
