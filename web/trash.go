package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handlePurge deletes forever the task or document (entity) named in the
// path, which must be in the trash. Like restore it takes no body.
func (s *Server) handlePurge(entity string) handlerFunc {
	return withoutBody(s, func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return reply(w, http.StatusOK, wire.NewPurged)(s.app.Purge(r.Context(), a, wsParam(r), entity, wire.Param(r, entity)))
	})
}
