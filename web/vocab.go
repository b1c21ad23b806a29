package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func newLinkTypeJSON(lt app.LinkType) linkTypeJSON {
	return linkTypeJSON{ID: wire.OrNull(lt.ID), Key: lt.Key, Title: lt.Title, InverseTitle: lt.InverseTitle, IsSymmetric: lt.IsSymmetric, Category: lt.Category}
}

// vocabKey is the path parameter naming a status, link type or tag: its id, or its key or name.
func vocabKey(r *http.Request) string { return wire.Param(r, "which") }

func (s *Server) handleStatusList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewStatus)(s.app.Statuses(r.Context(), a, wsParam(r), r.URL.Query().Get("entity_type")))
}

func (s *Server) handleStatusCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CreateStatus) error {
	return reply(w, http.StatusCreated, wire.NewStatus)(s.app.AddStatus(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleStatusUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.UpdateStatus) error {
	return reply(w, http.StatusOK, wire.NewStatus)(s.app.ChangeStatus(r.Context(), a, vocabKey(r), in.App()))
}

func (s *Server) handleLinkTypeList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newLinkTypeJSON)(s.app.LinkTypes(r.Context(), a, wsParam(r)))
}

func (s *Server) handleLinkTypeCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CreateLinkType) error {
	return reply(w, http.StatusCreated, newLinkTypeJSON)(s.app.AddLinkType(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleLinkTypeUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.UpdateLinkType) error {
	return reply(w, http.StatusOK, newLinkTypeJSON)(s.app.ChangeLinkType(r.Context(), a, vocabKey(r), in.App()))
}

func (s *Server) handleTagList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	limit, cursor, total := q.Limit(), q.Str("cursor"), q.Bool("include_total")
	if err := q.Err(); err != nil {
		return err
	}
	page, err := s.app.Tags(r.Context(), a, wsParam(r), limit, cursor, total)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: wire.Map(page.Items, wire.NewTag), Page: wire.NewPage(page.Page)})
}

func (s *Server) handleTagCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CreateTag) error {
	return reply(w, http.StatusCreated, wire.NewTag)(s.app.AddTag(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleTagUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.UpdateTag) error {
	return reply(w, http.StatusOK, wire.NewTag)(s.app.ChangeTag(r.Context(), a, vocabKey(r), in.App()))
}
