package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func (s *Server) handleAgenda(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := wire.AgendaQuery(wire.QueryParams(r.URL.Query()))
	if err := q.Err(); err != nil {
		return err
	}
	ag, err := s.app.Agenda(r.Context(), a, in)
	if err != nil {
		return err
	}
	return wire.WriteAgenda(w, wire.NewAgenda(ag))
}
