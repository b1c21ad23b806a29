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
	return reply(w, http.StatusOK, func(o app.Occurrences) occurrencesJSON {
		return occurrencesJSON{Description: o.Description, HasMore: o.HasMore, Occurrences: wire.Stamps(o.Occurrences), Rule: o.Rule}
	})(s.app.TaskOccurrences(r.Context(), a, wsParam(r), taskRef(r), in))
}

func (s *Server) handleRecurrenceParse(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.RecurrenceParse) error {
	return reply(w, http.StatusOK, func(rd app.Reading) readingJSON {
		return readingJSON{Description: rd.Description, Occurrences: wire.Stamps(rd.Occurrences), Rule: rd.Rule, Text: &rd.Text}
	})(s.app.ParseRecurrence(r.Context(), a, in.App()))
}
