package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handleTaskBulk makes one change to many tasks, all or nothing.
func (s *Server) handleTaskBulk(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.TaskBulk) error {
	targets, change := in.App()
	return reply(w, http.StatusOK, wire.NewTaskBulkResult)(s.app.BulkTasks(r.Context(), a, wsParam(r), targets, change))
}
