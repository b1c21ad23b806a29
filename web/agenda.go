package web

import (
	"net/http"

	"tend/app"
)

func (s *Server) handleAgenda(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := newQuery(r)
	if err := q.err(); err != nil {
		return err
	}
	ag, err := s.app.Agenda(r.Context(), a, app.AgendaQuery{Workspace: wsParam(r), Date: q.str("date"), Timezone: q.str("timezone")})
	if err != nil {
		return err
	}
	return writeAgenda(w, newAgendaJSON(ag))
}
