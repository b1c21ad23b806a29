package pages

import (
	"net/http"
	"strings"

	"tend/app"
)

// wantsPage reports whether a request is a browser's, to be answered with a
// page rather than a problem document: it asks for HTML and is not for a
// route of the API, MCP, the probes or the assets, whose clients read JSON
// (or bytes) whatever they send in Accept.
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	for _, api := range []string{"/v1/", "/mcp", "/static/", "/healthz", "/readyz", "/metrics"} {
		if p == strings.TrimSuffix(api, "/") || strings.HasPrefix(p, api) {
			return false
		}
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// Fallback answers what no route matched: a browser gets the error page
// (not found, or method not allowed), every other client next, the
// problem document the API answers.
func (s *Server) Fallback(next http.Handler, code app.Code) http.Handler {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !wantsPage(r) {
			next.ServeHTTP(w, r)
			return
		}
		if code == app.CodeNotFound {
			s.pageProblem(w, r, app.Errorf(code, "There is no page at %s. It may have moved, or the link may be mistyped.", r.URL.Path))
			return
		}
		s.pageProblem(w, r, app.Errorf(code, "%s cannot be done on %s from a page.", r.Method, r.URL.Path))
	})
	if code == app.CodeNotFound {
		s.nowhere = h
	}
	return h
}
