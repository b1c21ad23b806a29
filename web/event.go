package web

import (
	"net/http"

	"tend/app"
)

func eventQuery(r *http.Request) (app.EventQuery, *query, error) {
	q := newQuery(r)
	in := app.EventQuery{Limit: q.limit(), Cursor: q.str("cursor")}
	switch q.str("order") {
	case "", "-seq":
	case "seq":
		in.Oldest = true
	default:
		q.fail("order", "order is -seq (newest first) or seq (oldest first)")
	}
	return in, q, q.err()
}

func writeEvents(w http.ResponseWriter, q *query, page app.EventPage) error {
	items := make([]eventJSON, len(page.Items))
	for i, e := range page.Items {
		items[i] = newEventJSON(e)
	}
	shaped, err := shapeItems(items, q.str("format"), q.str("fields"), func(e eventJSON) string { return e.ID },
		func(e eventJSON) []string { return []string{itoa64(e.Seq), e.CreatedAt, e.Action} })
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, listJSON{Items: shaped, Page: newPage(page.Page)})
}

func (s *Server) handleTaskEvents(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q, err := eventQuery(r)
	if err != nil {
		return err
	}
	page, err := s.app.TaskEvents(r.Context(), a, wsParam(r), taskRef(r), in)
	if err != nil {
		return err
	}
	return writeEvents(w, q, page)
}

func (s *Server) handleProjectEvents(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q, err := eventQuery(r)
	if err != nil {
		return err
	}
	page, err := s.app.ProjectEvents(r.Context(), a, wsParam(r), param(r, "project"), in)
	if err != nil {
		return err
	}
	return writeEvents(w, q, page)
}
