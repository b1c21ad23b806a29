package pages

import (
	"net/http"
	"net/url"

	"tend/app"
	"tend/web/wire"
)

// pageViewSave saves the Tasks page's filters and order (its query
// string, sent as the form's query) under the name given, and opens the
// view.
func (s *Server) pageViewSave(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in, err := wire.ViewCreate{Name: f.str("name"), Query: f.str("query"), Shared: f.str("shared") != ""}.App()
	if err != nil {
		return err
	}
	v, err := s.app.CreateView(r.Context(), a, workspaceOf(r), in)
	if err != nil {
		return err
	}
	return seeOther(w, r, viewURL(v))
}

// viewURL is the Tasks page listing through v.
func viewURL(v app.View) string { return "/tasks?" + url.Values{"view": {v.ID}}.Encode() }

// frame is the top bar's part of every page: the person's views and those
// shared in the workspace, with their counts, and whether to link to the
// People page. The bar is the page's frame, not its content: when it
// cannot be read, the page goes without it.
func (s *Server) frame(r *http.Request, a app.Actor) app.Frame {
	f, err := s.app.Frame(r.Context(), a, workspaceOf(r))
	if app.CodeOf(err) == app.CodeInternal {
		s.log.ErrorContext(r.Context(), "reading the top bar", "err", err)
	}
	return f
}
