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
		return replyPage(w, wire.NewPage(page.Page))(shape(q, page.Items, wire.NewComment, func(c wire.Comment) string { return c.ID },
			func(c wire.Comment) []string { return []string{c.CreatedAt, "@" + wire.Deref(c.Author), c.Body} }))
	}
}

// handleCommentAdd comments on the entity named by the path parameter.
func (s *Server) handleCommentAdd(entity string) handlerFunc {
	return withBody(s, func(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CommentCreate) error {
		return reply(w, http.StatusCreated, wire.NewComment)(s.app.AddComment(r.Context(), a, wsParam(r), entity, wire.Param(r, entity), in.App()))
	})
}

func (s *Server) handleCommentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.CommentUpdate) error {
	return reply(w, http.StatusOK, wire.NewComment)(s.app.UpdateComment(r.Context(), a, wire.Param(r, "comment"), in.App()))
}

func (s *Server) handleCommentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.DeleteComment(r.Context(), a, wire.Param(r, "comment")))
}
