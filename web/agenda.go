package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func (s *Server) handleAgenda(w http.ResponseWriter, r *http.Request, a app.Actor, in app.AgendaQuery) error {
	ag, err := s.app.Agenda(r.Context(), a, in)
	if err != nil {
		return err
	}
	return wire.WriteAgenda(w, wire.NewAgenda(ag))
}
