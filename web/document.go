package web

import (
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

func shapeDocuments(ds []app.Document, q *wire.Query) (any, error) {
	return shape(q, ds, wire.NewDocument, func(d wire.Document) string { return d.ID }, wire.DocumentLine)
}

// writeDocument answers with one full document record.
func writeDocument(w http.ResponseWriter, status int, d app.Document) error {
	return wire.WriteJSON(w, status, wire.NewDocument(d))
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
	return replyPage(w, wire.NewPage(list.Page))(shapeDocuments(list.Items, q))
}

func (s *Server) handleDocumentCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.DocumentCreate) error {
	return reply(w, http.StatusCreated, wire.NewFiledDocument)(s.app.CreateDocument(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyShaped(w, r, shapeDocuments, writeDocument)(s.app.DocumentGet(r.Context(), a, wsParam(r), documentRef(r)))
}

func (s *Server) handleDocumentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.DocumentUpdate) error {
	return reply(w, http.StatusOK, wire.NewDocument)(s.app.UpdateDocument(r.Context(), a, wsParam(r), documentRef(r), in.App()))
}

func (s *Server) handleDocumentMove(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.DocumentMove) error {
	return reply(w, http.StatusOK, wire.NewDocument)(s.app.MoveDocument(r.Context(), a, wsParam(r), documentRef(r), in.App()))
}
