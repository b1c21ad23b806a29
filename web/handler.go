package web

import (
	"context"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// Most JSON handlers read their parameters, make one Service call and
// answer its result as a wire record. The pieces here are that shape, so a
// handler says only what is its own: which call, with which parameters,
// and which record it answers. A route with a JSON body registers its
// handler through withBody or withActionBody, which decode the body before
// it runs, and a route whose query a wire reader reads through withQuery. The writers of an answer (reply, replyList, replyPage,
// replyTask, replyShaped, noContent) take the call's results as it returns
// them:
//
//	return reply(w, http.StatusCreated, wire.NewProject)(s.app.CreateProject(r.Context(), a, wsParam(r), in.App()))
//
// A route that is only a call on what its path names is keyed's.

// inputHandler is the handler of a route whose request carries its input,
// a JSON body or a query of type I, given the input read.
type inputHandler[I any] func(w http.ResponseWriter, r *http.Request, a app.Actor, in I) error

// withBody decodes the request's JSON body, which it requires, as B and
// hands it to h.
func withBody[B any](s *Server, h inputHandler[B]) handlerFunc { return decoded(s, false, h) }

// withActionBody is withBody for an action route (claim, complete,
// restore, a backup): the body may be left out, or be one JSON object
// holding only the fields B names. Anything else is refused, never
// silently ignored.
func withActionBody[B any](s *Server, h inputHandler[B]) handlerFunc { return decoded(s, true, h) }

// withoutBody is an action route that takes no body: none at all, or a
// JSON object without fields.
func withoutBody(s *Server, h handlerFunc) handlerFunc {
	return withActionBody(s, func(w http.ResponseWriter, r *http.Request, a app.Actor, _ struct{}) error { return h(w, r, a) })
}

// withQuery reads the request's query as read does and hands what it read
// to h; a query read refuses is refused before h runs.
func withQuery[I any](read func(wire.Params) (I, *wire.Query), h inputHandler[I]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		in, q := read(wire.QueryParams(r.URL.Query()))
		if err := q.Err(); err != nil {
			return err
		}
		return h(w, r, a, in)
	}
}

func decoded[B any](s *Server, optional bool, h inputHandler[B]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		var in B
		if err := s.decodeJSON(w, r, &in, optional); err != nil {
			return err
		}
		return h(w, r, a, in)
	}
}

// keyed is the whole handler of a route that is one Service call on what
// its path names (param reads the name) in the workspace asked for,
// answered 200 with the record conv makes of the result.
func keyed[T, J any](param func(*http.Request) string, call func(context.Context, app.Actor, string, string) (T, error),
	conv func(T) J) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return reply(w, http.StatusOK, conv)(call(r.Context(), a, wsParam(r), param(r)))
	}
}

// removal is the whole handler of a route that removes what its path
// names (param reads the name), answered 204.
func removal(param func(*http.Request) string, call func(context.Context, app.Actor, string) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		return noContent(w, call(r.Context(), a, param(r)))
	}
}

// reply writes, with status, the record conv makes of a Service call's
// result, or returns the call's error.
func reply[T, J any](w http.ResponseWriter, status int, conv func(T) J) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		return wire.WriteJSON(w, status, conv(v))
	}
}

// replyList writes a Service call's results as an unpaged listing of the
// records conv makes.
func replyList[T, J any](w http.ResponseWriter, conv func(T) J) func([]T, error) error {
	return reply(w, http.StatusOK, func(xs []T) wire.List { return wire.List{Items: wire.Map(xs, conv), Page: wire.Whole()} })
}

// replyPage writes one page of a listing, its items shaped as the query
// asked.
func replyPage(w http.ResponseWriter, page wire.Page) func(any, error) error {
	return reply(w, http.StatusOK, func(items any) wire.List { return wire.List{Items: items, Page: page} })
}

// shape makes conv's record of each of xs and applies the query's format=
// and fields= to them, as every listing does: id is a record's id (for
// format=ids), line its columns (for format=compact).
func shape[T, J any](q *wire.Query, xs []T, conv func(T) J, id func(J) string, line func(J) []string) (any, error) {
	return wire.ShapeItems(wire.Map(xs, conv), q.Str("format"), q.Str("fields"), id, line)
}

// replyTask is reply for a task, which its own encoder writes.
func replyTask(w http.ResponseWriter, status int) func(app.Task, error) error {
	return func(t app.Task, err error) error {
		if err != nil {
			return err
		}
		return writeTask(w, status, t)
	}
}

// replyShaped writes, 200, the one record a Service call returns, which
// format= and fields= shape as they shape a listing's items; unshaped, as
// write writes it.
func replyShaped[T any](w http.ResponseWriter, r *http.Request, shape func([]T, *wire.Query) (any, error),
	write func(http.ResponseWriter, int, T) error) func(T, error) error {
	return func(v T, err error) error {
		if err != nil {
			return err
		}
		q := wire.NewQuery(r)
		if q.Str("format") == "" && q.Str("fields") == "" {
			return write(w, http.StatusOK, v)
		}
		shaped, err := shape([]T{v}, q)
		if err != nil {
			return err
		}
		return wire.WriteJSON(w, http.StatusOK, wire.FirstOf(shaped))
	}
}

// noContent answers 204 No Content once a Service call has succeeded.
func noContent(w http.ResponseWriter, err error) error {
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
