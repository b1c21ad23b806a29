package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// viewParam is the {view} path parameter: a view's id or name.
func viewParam(r *http.Request) string { return wire.Param(r, "view") }

func (s *Server) handleViewList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewView)(s.app.Views(r.Context(), a, wsParam(r)))
}

func (s *Server) handleViewCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ViewCreate) error {
	v, err := in.App()
	if err != nil {
		return err
	}
	return reply(w, http.StatusCreated, wire.NewView)(s.app.CreateView(r.Context(), a, wsParam(r), v))
}

func (s *Server) handleViewUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ViewUpdate) error {
	v, err := in.App()
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, wire.NewView)(s.app.UpdateView(r.Context(), a, wsParam(r), viewParam(r), v))
}
