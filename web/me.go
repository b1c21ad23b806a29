package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	me, err := s.app.Me(r.Context(), a)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewMe(me))
}
