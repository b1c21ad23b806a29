package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// The item routes address a task or a document by its ref alone: refs are
// counted per workspace across both, so the ref says which it is. They are
// what a client that has only a ref needs (the terminal's tend show,
// comment, link and search): GET /v1/items/{ref} and GET /v1/search read in
// one transaction what service_show and service_search read, and
// POST /v1/items/{ref}/comments and /links are the task and document
// routes' handlers with the item resolved either way.

// handleItemShow is GET /v1/items/{ref}: the item with its links, the
// governing documents in force, subtasks, the last comments and
// verifications; history=true and tree=true add those.
func (s *Server) handleItemShow(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	in := app.ShowQuery{History: q.Bool("history"), Tree: q.Bool("tree")}
	if err := q.Err(); err != nil {
		return err
	}
	return reply(w, http.StatusOK, wire.NewItemShow)(s.app.ShowItem(r.Context(), a, wsParam(r), wire.Param(r, app.AnyItem), in))
}

// handleSearch is GET /v1/search?q=: tasks and documents alike, open and
// finished, best match first, limit of each kind.
func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request, a app.Actor, in app.ItemSearchQuery) error {
	return reply(w, http.StatusOK, wire.NewItemSearch)(s.app.SearchItems(r.Context(), a, in))
}
