package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/julienschmidt/httprouter"

	"tend/app"
)

// Server is tend's HTTP handler.
type Server struct {
	app    *app.Service
	log    *slog.Logger
	router *httprouter.Router
}

// NewServer builds the handler over svc; log receives the access log and
// internal errors, never a secret.
func NewServer(svc *app.Service, log *slog.Logger) *Server {
	s := &Server{app: svc, log: log, router: httprouter.New()}
	s.router.RedirectTrailingSlash = false
	s.router.RedirectFixedPath = false
	s.router.NotFound = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(s.log, w, r, app.Errorf(app.CodeNotFound, "no route %s", r.URL.Path))
	})
	s.router.MethodNotAllowed = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeProblem(s.log, w, r, app.Errorf(app.CodeMethodNotAllowed, "%s does not answer %s; see the Allow header", r.URL.Path, r.Method))
	})
	s.router.PanicHandler = func(w http.ResponseWriter, r *http.Request, v any) {
		writeProblem(s.log, w, r, fmt.Errorf("panic: %v", v))
	}
	s.routes()
	return s
}

// handlerFunc is the signature of every JSON endpoint: return errors, don't write them.
type handlerFunc func(w http.ResponseWriter, r *http.Request, a app.Actor) error

// routes registers every route: one readable table of the API.
func (s *Server) routes() {
	s.router.HandlerFunc(http.MethodGet, "/healthz", s.handleHealth)
	s.router.HandlerFunc(http.MethodGet, "/readyz", s.handleReady)

	s.handle(http.MethodGet, "/v1/me", s.handleMe)
	s.handle(http.MethodGet, "/v1/meta", s.handleMeta)

	s.handle(http.MethodGet, "/v1/instance", s.handleInstanceGet)
	s.handle(http.MethodPatch, "/v1/instance", s.handleInstanceUpdate)
	s.handle(http.MethodGet, "/v1/instance/workspaces", s.handleInstanceWorkspaces)

	s.handle(http.MethodGet, "/v1/users", s.handleUserList)
	s.handle(http.MethodPost, "/v1/users", s.handleUserCreate)
	s.handle(http.MethodGet, "/v1/users/:username", s.handleUserGet)
	s.handle(http.MethodPatch, "/v1/users/:username", s.handleUserUpdate)

	s.handle(http.MethodGet, "/v1/workspaces", s.handleWorkspaceList)
	s.handle(http.MethodPost, "/v1/workspaces", s.handleWorkspaceCreate)
	s.handle(http.MethodGet, "/v1/workspaces/:workspace", s.handleWorkspaceGet)
	s.handle(http.MethodPatch, "/v1/workspaces/:workspace", s.handleWorkspaceUpdate)
	s.handle(http.MethodDelete, "/v1/workspaces/:workspace", s.handleWorkspaceDelete)
	s.handle(http.MethodPost, "/v1/workspaces/:workspace/restore", s.handleWorkspaceRestore)
	s.handle(http.MethodGet, "/v1/workspaces/:workspace/members", s.handleMemberList)
	s.handle(http.MethodPost, "/v1/workspaces/:workspace/members", s.handleMemberAdd)
	s.handle(http.MethodPatch, "/v1/workspaces/:workspace/members/:username", s.handleMemberRegrade)
	s.handle(http.MethodDelete, "/v1/workspaces/:workspace/members/:username", s.handleMemberRemove)

	s.handle(http.MethodGet, "/v1/tokens", s.handleTokenList)
	s.handle(http.MethodPost, "/v1/tokens", s.handleTokenCreate)
	s.handle(http.MethodDelete, "/v1/tokens/:token", s.handleTokenRevoke)

	s.handle(http.MethodGet, "/v1/admin/backups", s.handleBackupList)
	s.handle(http.MethodPost, "/v1/admin/backups", s.handleBackupCreate)
}

func (s *Server) handle(method, path string, h handlerFunc) {
	s.router.Handler(method, path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, err := s.authenticate(r)
		if err == nil {
			err = h(w, r, a)
		}
		if err != nil {
			writeProblem(s.log, w, r, err)
		}
	}))
}

// authenticate reads the bearer credential. A credential in the query string
// is refused outright: query strings end up in logs and browser history.
func (s *Server) authenticate(r *http.Request) (app.Actor, error) {
	if secretInQuery(r) {
		return app.Actor{}, app.Errorf(app.CodeSecretInQuery, "send credentials in the Authorization header, never in the URL; revoke this one now")
	}
	scheme, secret, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
		return app.Actor{}, app.Errorf(app.CodeUnauthorized, "send a credential as Authorization: Bearer <token>")
	}
	return s.app.Authenticate(r.Context(), strings.TrimSpace(secret), "http")
}

var secretParams = []string{"token", "access_token", "api_key", "apikey", "secret"}

func secretInQuery(r *http.Request) bool {
	if r.URL.RawQuery == "" {
		return false
	}
	q := r.URL.Query()
	for _, p := range secretParams {
		if q.Has(p) {
			return true
		}
	}
	for _, vs := range q {
		for _, v := range vs {
			if strings.HasPrefix(v, "tend_") && len(v) > 20 {
				return true
			}
		}
	}
	return false
}

// ServeHTTP serves a request and writes one access-log line. The line holds
// the path but never the query string, which is where a sign-in link's
// secret travels.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.router.ServeHTTP(sw, r)
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", sw.status), slog.Duration("took", time.Since(start)))
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	_ = writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReady answers 200 only when the database really answers a query.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.app.Ready(ctx); err != nil {
		s.log.ErrorContext(r.Context(), "not ready", "err", err)
		_ = writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	_ = writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

func param(r *http.Request, name string) string {
	return httprouter.ParamsFromContext(r.Context()).ByName(name)
}

// HTTPServer wraps h in an http.Server with timeouts that keep one slow
// client from holding a connection forever.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
}
