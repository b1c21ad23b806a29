package web

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/julienschmidt/httprouter"

	"tend/app"
)

// apiRoutes holds the JSON API's handlers by method and route pattern, for
// requests served in-process (callAPI): the handlers the router serves,
// reached without an HTTP round trip and given their caller as an argument
// rather than authenticating a request.
type apiRoutes struct{ *httprouter.Router }

// add registers h for method and the route pattern path. The handle it
// stores serves only an *apiCall, which carries the caller.
func (rs apiRoutes) add(method, path string, h handlerFunc) {
	rs.Handle(method, path, func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		c := w.(*apiCall)
		c.err = h(c, r, c.actor)
	})
}

// apiCall is one in-process request: the caller it acts as, and the answer
// its route writes (the ResponseWriter the handler is given) or returns.
type apiCall struct {
	actor  app.Actor
	header http.Header
	status int
	body   bytes.Buffer
	err    error
}

func (c *apiCall) Header() http.Header         { return c.header }
func (c *apiCall) Write(b []byte) (int, error) { return c.body.Write(b) }
func (c *apiCall) WriteHeader(status int)      { c.status = status }

// callAPI serves method and path (a route of the JSON API) with query and
// a JSON body, as a: the route's handler runs as it does for HTTP, and the
// Service records what it does as done through a's interface. It answers
// the status and body the route wrote, or the error it returned; a path no
// route takes is not_found, and one only other methods take is
// method_not_allowed, as the router answers them.
func (s *Server) callAPI(ctx context.Context, a app.Actor, method, path string, query url.Values, body []byte) (status int, out []byte, err error) {
	h, ps, _ := s.api.Lookup(method, path)
	if h == nil {
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if other, _, _ := s.api.Lookup(m, path); m != method && other != nil {
				return 0, nil, app.Errorf(app.CodeMethodNotAllowed, "%s does not answer %s; see the Allow header", path, method)
			}
		}
		return 0, nil, app.Errorf(app.CodeNotFound, "no route %s", path)
	}
	u := &url.URL{Path: path, RawQuery: query.Encode()}
	r, err := http.NewRequestWithContext(context.WithValue(ctx, httprouter.ParamsKey, ps), method, u.String(), bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	c := &apiCall{actor: a, header: http.Header{}, status: http.StatusOK}
	defer func() {
		if v := recover(); v != nil {
			status, out, err = 0, nil, fmt.Errorf("panic: %v", v)
		}
	}()
	h(c, r, ps)
	if c.err != nil {
		return 0, nil, c.err
	}
	return c.status, c.body.Bytes(), nil
}
