package web

import (
	"net/http"
	"slices"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// handleNamed registers, for method on a path ending in a wildcard
// (/v1/tasks/:task), a handler for each name it serves there
// (/v1/tasks/preview, /v1/tasks/bulk): httprouter cannot hold a static
// segment beside a wildcard in one method's tree. Any other value is
// answered as the router answers a method its path does not take, before
// authentication: 405, with Allow.
func (s *Server) handleNamed(method, path string, named map[string]handlerFunc) {
	param := path[strings.LastIndexByte(path, ':')+1:]
	s.router.Handler(method, path, apiHandler(func(w http.ResponseWriter, r *http.Request) {
		h, ok := named[wire.Param(r, param)]
		if !ok {
			s.setAllow(w, r)
			wire.WriteProblem(s.log, w, r, notThisMethod(r))
			return
		}
		s.serveAPI(w, r, h)
	}))
}

// notThisMethod is the router's refusal of a method a path does not take.
func notThisMethod(r *http.Request) error {
	return app.Errorf(app.CodeMethodNotAllowed, "%s does not answer %s; see the Allow header", r.URL.Path, r.Method)
}

// setAllow names the methods the router serves on the request's path, as
// it does with a 405.
func (s *Server) setAllow(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodDelete, http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodPut} {
		if h, _, _ := s.router.Lookup(m, r.URL.Path); h != nil && m != r.Method {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		allow = append(allow, http.MethodOptions)
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
	}
}
