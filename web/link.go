package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handleLinks lists the links of the item named by the path parameter of
// the same name as its kind (task or document).
func (s *Server) handleLinks(entity string) handlerFunc {
	return itemListing(entity, s.app.ItemLinks, wire.NewLink)
}

// handleLinkAdd links the item named by the path parameter of the same name
// as its kind; the answer is the first link the request made.
func (s *Server) handleLinkAdd(entity string) handlerFunc {
	return withBody(s, func(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.LinkRequest) error {
		return reply(w, http.StatusCreated, func(ls []app.LinkView) wire.Link { return wire.NewLink(ls[0]) })(
			s.app.AddLinks(r.Context(), a, wsParam(r), in.App().Set(entity, wire.Param(r, entity))))
	})
}

// handleLinkRemove removes one link of the item named by the path parameter.
func (s *Server) handleLinkRemove(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return noContent(w, s.app.RemoveLink(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), wire.Param(r, "link")))
	}
}
