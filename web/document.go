package web

import (
	"net/http"
	"strings"

	"tend/app"
)

func shapeDocuments(ds []app.Document, q *query) (any, error) {
	items := make([]documentJSON, len(ds))
	for i, d := range ds {
		items[i] = newDocumentJSON(d)
	}
	return shapeItems(items, q.str("format"), q.str("fields"), func(d documentJSON) string { return d.ID }, documentLine)
}

// writeDocument answers with one document, honouring format and fields.
func writeDocument(w http.ResponseWriter, r *http.Request, status int, d app.Document) error {
	q := newQuery(r)
	if q.str("format") == "" && q.str("fields") == "" {
		return writeJSON(w, status, newDocumentJSON(d))
	}
	shaped, err := shapeDocuments([]app.Document{d}, q)
	if err != nil {
		return err
	}
	return writeJSON(w, status, firstOf(shaped))
}

// documentRef is the {id_or_ref} path parameter.
func documentRef(r *http.Request) string { return param(r, "document") }

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := newQuery(r)
	in := app.DocumentListQuery{Workspace: wsParam(r), Project: q.str("project"), Type: q.str("type"), Status: q.str("status"),
		StatusCategory: q.str("status_category"), Tag: q.str("tag"), Parent: strings.TrimPrefix(q.str("parent"), "#"),
		Subtree: q.bool("subtree"), Q: q.str("q"), Deleted: q.bool("deleted"), Order: q.str("order"), Limit: q.limit(), Cursor: q.str("cursor"),
		IncludeTotal: q.bool("include_total")}
	if err := q.err(); err != nil {
		return err
	}
	list, err := s.app.Documents(r.Context(), a, in)
	if err != nil {
		return err
	}
	items, err := shapeDocuments(list.Items, q)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, listJSON{Items: items, Page: newPage(list.Page)})
}

func (s *Server) handleDocumentCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.CreateDocument(r.Context(), a, wsParam(r), in)
	if err != nil {
		return err
	}
	if len(d.Links) == 0 {
		return writeJSON(w, http.StatusCreated, newDocumentJSON(d))
	}
	return writeJSON(w, http.StatusCreated, filedDocumentJSON{newDocumentJSON(d), linksJSON(d.Links)})
}

// filedDocumentJSON is a document created with links: the document and,
// beside its fields, the links it was filed with, seen from it.
type filedDocumentJSON struct {
	documentJSON
	Links []linkJSON `json:"links"`
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DocumentGet(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeDocument(w, r, http.StatusOK, d)
}

func (s *Server) handleDocumentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.UpdateDocument(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DeleteDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
		return err
	}
	d, err := s.app.RestoreDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentMove
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.MoveDocument(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentEvents(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q, err := eventQuery(r)
	if err != nil {
		return err
	}
	page, err := s.app.DocumentEvents(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeEvents(w, q, page)
}
