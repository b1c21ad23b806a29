package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// handleComments lists the comments on the entity named by the path
// parameter of the same name (task, document or project).
func (s *Server) handleComments(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		q := wire.NewQuery(r)
		in := app.CommentQuery{Limit: q.Limit(), Cursor: q.Str("cursor"), IncludeTotal: q.Bool("include_total")}
		if err := q.Err(); err != nil {
			return err
		}
		page, err := s.app.ItemComments(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), in)
		if err != nil {
			return err
		}
		items := make([]wire.Comment, len(page.Items))
		for i, c := range page.Items {
			items[i] = wire.NewComment(c)
		}
		shaped, err := wire.ShapeItems(items, q.Str("format"), q.Str("fields"), func(c wire.Comment) string { return c.ID },
			func(c wire.Comment) []string { return []string{c.CreatedAt, "@" + wire.Deref(c.Author), c.Body} })
		if err != nil {
			return err
		}
		return wire.WriteJSON(w, http.StatusOK, wire.List{Items: shaped, Page: wire.NewPage(page.Page)})
	}
}

// handleCommentAdd comments on the entity named by the path parameter.
func (s *Server) handleCommentAdd(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		var in wire.CommentCreate
		if err := s.decodeJSON(w, r, &in, false); err != nil {
			return err
		}
		c, err := s.app.AddComment(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), in.App())
		if err != nil {
			return err
		}
		return wire.WriteJSON(w, http.StatusCreated, wire.NewComment(c))
	}
}

func (s *Server) handleCommentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.CommentUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	c, err := s.app.UpdateComment(r.Context(), a, wire.Param(r, "comment"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewComment(c))
}

func (s *Server) handleCommentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.DeleteComment(r.Context(), a, wire.Param(r, "comment")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
