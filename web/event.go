package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func eventQuery(r *http.Request) (app.EventQuery, *wire.Query, error) {
	q := wire.NewQuery(r)
	in := app.EventQuery{Limit: q.Limit(), Cursor: q.Str("cursor")}
	switch q.Str("order") {
	case "", "-seq":
	case "seq":
		in.Oldest = true
	default:
		q.Fail("order", "order is -seq (newest first) or seq (oldest first)")
	}
	return in, q, q.Err()
}

func writeEvents(w http.ResponseWriter, q *wire.Query, page app.EventPage) error {
	items := make([]wire.Event, len(page.Items))
	for i, e := range page.Items {
		items[i] = wire.NewEvent(e)
	}
	shaped, err := wire.ShapeItems(items, q.Str("format"), q.Str("fields"), func(e wire.Event) string { return e.ID },
		func(e wire.Event) []string { return []string{wire.Itoa64(e.Seq), e.CreatedAt, e.Action} })
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: shaped, Page: wire.NewPage(page.Page)})
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
	page, err := s.app.ProjectEvents(r.Context(), a, wsParam(r), wire.Param(r, "project"), in)
	if err != nil {
		return err
	}
	return writeEvents(w, q, page)
}
