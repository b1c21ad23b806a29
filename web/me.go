package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, wire.NewMe)(s.app.Me(r.Context(), a))
}
