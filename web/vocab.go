package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func newLinkTypeJSON(lt app.LinkType) linkTypeJSON {
	return linkTypeJSON{ID: wire.OrNull(lt.ID), Key: lt.Key, Title: lt.Title, InverseTitle: lt.InverseTitle, IsSymmetric: lt.IsSymmetric, Category: lt.Category}
}

func (s *Server) handleStatusList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	sts, err := s.app.Statuses(r.Context(), a, wsParam(r), r.URL.Query().Get("entity_type"))
	if err != nil {
		return err
	}
	items := make([]wire.Status, len(sts))
	for i, st := range sts {
		items[i] = wire.NewStatus(st)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleStatusCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.CreateStatus
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	st, err := s.app.AddStatus(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, wire.NewStatus(st))
}

func (s *Server) handleStatusUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.UpdateStatus
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	st, err := s.app.ChangeStatus(r.Context(), a, wire.Param(r, "which"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewStatus(st))
}

func (s *Server) handleStatusDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.RemoveStatus(r.Context(), a, wire.Param(r, "which")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) handleLinkTypeList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	lts, err := s.app.LinkTypes(r.Context(), a, wsParam(r))
	if err != nil {
		return err
	}
	items := make([]linkTypeJSON, len(lts))
	for i, lt := range lts {
		items[i] = newLinkTypeJSON(lt)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleLinkTypeCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.CreateLinkType
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	lt, err := s.app.AddLinkType(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, newLinkTypeJSON(lt))
}

func (s *Server) handleLinkTypeUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.UpdateLinkType
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	lt, err := s.app.ChangeLinkType(r.Context(), a, wire.Param(r, "which"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newLinkTypeJSON(lt))
}

func (s *Server) handleLinkTypeDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.RemoveLinkType(r.Context(), a, wire.Param(r, "which")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
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
	items := make([]wire.Tag, len(page.Items))
	for i, t := range page.Items {
		items[i] = wire.NewTag(t)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.NewPage(page.Page)})
}

func (s *Server) handleTagCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.CreateTag
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.AddTag(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, wire.NewTag(t))
}

func (s *Server) handleTagUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.UpdateTag
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.ChangeTag(r.Context(), a, wire.Param(r, "which"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewTag(t))
}

func (s *Server) handleTagDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.RemoveTag(r.Context(), a, wire.Param(r, "which")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
