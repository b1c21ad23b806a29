package web

import (
	"net/http"

	"tend/app"
)

// handleComments lists the comments on the entity named by the path
// parameter of the same name (task, document or project).
func (s *Server) handleComments(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		q := newQuery(r)
		in := app.CommentQuery{Limit: q.limit(), Cursor: q.str("cursor"), IncludeTotal: q.bool("include_total")}
		if err := q.err(); err != nil {
			return err
		}
		page, err := s.app.ItemComments(r.Context(), a, wsParam(r), entity, param(r, entity), in)
		if err != nil {
			return err
		}
		items := make([]commentJSON, len(page.Items))
		for i, c := range page.Items {
			items[i] = newCommentJSON(c)
		}
		shaped, err := shapeItems(items, q.str("format"), q.str("fields"), func(c commentJSON) string { return c.ID },
			func(c commentJSON) []string { return []string{c.CreatedAt, "@" + deref(c.Author), c.Body} })
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, listJSON{Items: shaped, Page: newPage(page.Page)})
	}
}

// handleCommentAdd comments on the entity named by the path parameter.
func (s *Server) handleCommentAdd(entity string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		var in app.CommentCreate
		if err := s.decodeJSON(w, r, &in, false); err != nil {
			return err
		}
		c, err := s.app.AddComment(r.Context(), a, wsParam(r), entity, param(r, entity), in)
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusCreated, newCommentJSON(c))
	}
}

func (s *Server) handleCommentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.CommentUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	c, err := s.app.UpdateComment(r.Context(), a, param(r, "comment"), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newCommentJSON(c))
}

func (s *Server) handleCommentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.DeleteComment(r.Context(), a, param(r, "comment")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
