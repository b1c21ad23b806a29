package web

import (
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

func shapeDocuments(ds []app.Document, q *wire.Query) (any, error) {
	items := make([]wire.Document, len(ds))
	for i, d := range ds {
		items[i] = wire.NewDocument(d)
	}
	return wire.ShapeItems(items, q.Str("format"), q.Str("fields"), func(d wire.Document) string { return d.ID }, wire.DocumentLine)
}

// writeDocument answers with one document, honouring format and fields.
func writeDocument(w http.ResponseWriter, r *http.Request, status int, d app.Document) error {
	q := wire.NewQuery(r)
	if q.Str("format") == "" && q.Str("fields") == "" {
		return wire.WriteJSON(w, status, wire.NewDocument(d))
	}
	shaped, err := shapeDocuments([]app.Document{d}, q)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, status, wire.FirstOf(shaped))
}

// documentRef is the {id_or_ref} path parameter.
func documentRef(r *http.Request) string { return wire.Param(r, "document") }

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	in := app.DocumentListQuery{Workspace: wsParam(r), Project: q.Str("project"), Type: q.Str("type"), Status: q.Str("status"),
		StatusCategory: q.Str("status_category"), Tag: q.Str("tag"), Parent: strings.TrimPrefix(q.Str("parent"), "#"),
		Subtree: q.Bool("subtree"), Q: q.Str("q"), Deleted: q.Bool("deleted"), Order: q.Str("order"), Limit: q.Limit(), Cursor: q.Str("cursor"),
		IncludeTotal: q.Bool("include_total")}
	if err := q.Err(); err != nil {
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
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.NewPage(list.Page)})
}

func (s *Server) handleDocumentCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.DocumentCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.CreateDocument(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, wire.NewFiledDocument(d))
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DocumentGet(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeDocument(w, r, http.StatusOK, d)
}

func (s *Server) handleDocumentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.DocumentUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.UpdateDocument(r.Context(), a, wsParam(r), documentRef(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewDocument(d))
}

func (s *Server) handleDocumentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DeleteDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewDocument(d))
}

func (s *Server) handleDocumentRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
		return err
	}
	d, err := s.app.RestoreDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewDocument(d))
}

func (s *Server) handleDocumentMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.DocumentMove
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.MoveDocument(r.Context(), a, wsParam(r), documentRef(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewDocument(d))
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
