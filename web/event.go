package web

import (
	"context"
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

// shapeEvents is a page of history's events, shaped as the query asks.
func shapeEvents(es []app.Event, q *wire.Query) (any, error) {
	return shape(q, es, wire.NewEvent, func(e wire.Event) string { return e.ID },
		func(e wire.Event) []string { return []string{wire.Itoa64(e.Seq), e.CreatedAt, e.Action} })
}

// eventsFunc reads the history of one task, document or project.
type eventsFunc func(ctx context.Context, a app.Actor, workspace, idOrRef string, q app.EventQuery) (app.EventPage, error)

// handleEvents lists the history of the task, document or project the path
// parameter param names, as fetch reads it.
func handleEvents(param string, fetch eventsFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		in, q, err := eventQuery(r)
		if err != nil {
			return err
		}
		page, err := fetch(r.Context(), a, wsParam(r), wire.Param(r, param), in)
		if err != nil {
			return err
		}
		return replyPage(w, wire.NewPage(page.Page))(shapeEvents(page.Items, q))
	}
}
