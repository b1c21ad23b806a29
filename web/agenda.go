package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func (s *Server) handleAgenda(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	if err := q.Err(); err != nil {
		return err
	}
	ag, err := s.app.Agenda(r.Context(), a, app.AgendaQuery{Workspace: wsParam(r), Date: q.Str("date"), Timezone: q.Str("timezone")})
	if err != nil {
		return err
	}
	return wire.WriteAgenda(w, wire.NewAgenda(ag))
}
