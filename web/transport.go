package web

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"

	"tend/app"
)

// callerKey is the context key of the caller an in-process request acts
// as. It is unexported and only Transport sets it: no request from the
// network can carry it, so none can choose whom it acts as.
type callerKey struct{}

// Transport serves each request it is given through this server's router,
// in process, as a: the route's handler runs as it does for a request over
// HTTP, given a rather than the caller a credential would authenticate, and
// the Service records what it does as done through a's interface (the
// terminal on the file, MCP's service_call_api). Only the JSON API's routes
// take it: any other answers not_found, as a path no route takes does.
// Every answer is the one the router writes over HTTP, refusals, unknown
// routes, wrong methods and panics as their problem documents. The access
// log and the metrics are left out: they count requests from the network,
// and an in-process one is part of the command or tool call that made it.
func (s *Server) Transport(a app.Actor) http.RoundTripper { return inProcess{s: s, caller: a} }

type inProcess struct {
	s      *Server
	caller app.Actor
}

// RoundTrip serves r and answers what the route wrote.
func (t inProcess) RoundTrip(r *http.Request) (*http.Response, error) {
	in := r.WithContext(context.WithValue(r.Context(), callerKey{}, t.caller))
	if in.Body == nil {
		in.Body = http.NoBody // as a server's request always has one
	} else {
		defer in.Body.Close()
	}
	if in.Host == "" {
		in.Host = r.URL.Host
	}
	in.RequestURI = r.URL.RequestURI()
	w := &answer{header: http.Header{}, status: http.StatusOK}
	t.s.router.ServeHTTP(w, in)
	w.header.Set("Content-Length", strconv.Itoa(w.body.Len()))
	return &http.Response{Status: strconv.Itoa(w.status) + " " + http.StatusText(w.status), StatusCode: w.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: w.header, Body: io.NopCloser(&w.body),
		ContentLength: int64(w.body.Len()), Request: r}, nil
}

// caller is the caller an in-process request acts as, if it is one.
func caller(r *http.Request) (app.Actor, bool) {
	a, ok := r.Context().Value(callerKey{}).(app.Actor)
	return a, ok
}

// answer is the response an in-process request's route writes.
type answer struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *answer) Header() http.Header { return w.header }

func (w *answer) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
}

func (w *answer) Write(b []byte) (int, error) {
	w.wrote = true
	return w.body.Write(b)
}
