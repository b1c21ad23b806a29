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

func (s *Server) handleLinkAdd(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		var in wire.LinkRequest
		if err := s.decodeJSON(w, r, &in, false); err != nil {
			return err
		}
		ls, err := s.app.AddLinks(r.Context(), a, wsParam(r), in.App().Set(entity, wire.Param(r, entity)))
		if err != nil {
			return err
		}
		return wire.WriteJSON(w, http.StatusCreated, wire.NewLink(ls[0]))
	}
}

func (s *Server) handleLinkRemove(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		if err := s.app.RemoveLink(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), wire.Param(r, "link")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}
