package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// occurrencesJSON is the Occurrences shape: computed, never stored.
type occurrencesJSON struct {
	Description string   `json:"description"`
	HasMore     bool     `json:"has_more"`
	Occurrences []string `json:"occurrences"`
	Rule        string   `json:"rule"`
}

// readingJSON is the Reading shape: what a written repeat means.
type readingJSON struct {
	Description string   `json:"description"`
	Occurrences []string `json:"occurrences"`
	Rule        string   `json:"rule"`
	Text        *string  `json:"text"`
}

func (s *Server) handleTaskOccurrences(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	in := app.OccurrencesQuery{Until: q.Str("until")}
	if q.Str("limit") != "" {
		in.Limit = q.Int("limit")
	}
	if err := q.Err(); err != nil {
		return err
	}
	o, err := s.app.TaskOccurrences(r.Context(), a, wsParam(r), taskRef(r), in)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, occurrencesJSON{Description: o.Description, HasMore: o.HasMore,
		Occurrences: wire.Stamps(o.Occurrences), Rule: o.Rule})
}

func (s *Server) handleRecurrenceParse(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.RecurrenceParse
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	rd, err := s.app.ParseRecurrence(r.Context(), a, in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, readingJSON{Description: rd.Description, Occurrences: wire.Stamps(rd.Occurrences),
		Rule: rd.Rule, Text: &rd.Text})
}
