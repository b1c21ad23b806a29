package web

import (
	"net/http"

	"tend/app"
)

func newLinkJSON(v app.LinkView) linkJSON {
	return linkJSON{ID: v.ID, Direction: v.Direction, Label: v.Label, LinkType: v.Type.Key, LinkCategory: orNull(v.Type.Category),
		Other: newEndJSON(v.Other)}
}

// newEndJSON is a task or document seen as the far end of a link.
func newEndJSON(e app.LinkEnd) linkEndJSON {
	if e.EntityType == "document" {
		return newDocumentLinkEnd(newDocumentJSON(e.Document))
	}
	return newLinkEnd(newTaskJSON(e.Task))
}

// newDocumentLinkEnd is a document as the far end of a link: the task-only
// fields stay at their defaults and the body is never carried.
func newDocumentLinkEnd(d documentJSON) linkEndJSON {
	state := itemStateJSON{Type: d.Type, TypeLabel: d.TypeLabel, TypeCategory: d.TypeCategory, TypeIsDefault: d.TypeIsDefault,
		Status: d.Status, StatusLabel: d.StatusLabel, StatusCategory: d.StatusCategory, StatusIsDefault: d.StatusIsDefault}
	return linkEndJSON{EntityType: "document", itemHeadJSON: d.itemHeadJSON, itemStateJSON: state, ProjectPath: d.ProjectPath, Workspace: d.Workspace,
		Tags: d.Tags, SubDocuments: d.SubDocuments, DeletedAt: d.DeletedAt}
}

// handleLinks lists the links of the item named by the path parameter of
// the same name as its kind (task or document).
func (s *Server) handleLinks(entity string) handlerFunc {
	return itemListing(entity, s.app.ItemLinks, newLinkJSON)
}

func (s *Server) handleLinkAdd(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		var in app.LinkRequest
		if err := s.decodeJSON(w, r, &in, false); err != nil {
			return err
		}
		ls, err := s.app.AddLinks(r.Context(), a, wsParam(r), in.Set(entity, param(r, entity)))
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusCreated, newLinkJSON(ls[0]))
	}
}

func (s *Server) handleLinkRemove(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		if err := s.app.RemoveLink(r.Context(), a, wsParam(r), entity, param(r, entity), param(r, "link")); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}
