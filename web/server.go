package web

import (
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/julienschmidt/httprouter"

	"tend/app"
	"tend/web/calfeed"
	"tend/web/dav"
	"tend/web/mcpserver"
	"tend/web/pages"
	"tend/web/wire"
)

// Server is tend's HTTP handler.
type Server struct {
	app         Service
	log         *slog.Logger
	router      router
	crossOrigin *http.CrossOriginProtection // guards writes a session cookie authenticates
	mcp         func() *mcpserver.Server    // the MCP tools, on POST /mcp and stdio, built on first use
	metrics     *Metrics                    // nil unless ServeMetrics was called
	replication func() (app.ReplicationStatus, bool)
	follow      func() (FollowStatus, bool) // a standby's lag (SetFollow)
	maxLag      time.Duration               // the lag past which a standby is not ready
	dav         *dav.Handler                // CalDAV, on /.well-known/caldav and under dav.Root, for every method
	// trustTailscale signs loopback requests in by Tailscale-User-Login (TrustTailscale).
	trustTailscale atomic.Bool
}

// router is httprouter's with one addition: every route registered through
// Handler or HandlerFunc records its pattern on the statusWriter, so the
// access log and the metrics name a request by the route it matched, never
// by its path, and keeps the list of what it registered, which
// TestOpenAPIRoutes compares with the OpenAPI document. A route of the JSON
// API (an apiHandler, which handle registers) serves in-process requests
// (Transport); any other answers them as NotFound does. Register routes
// through these two only.
type router struct {
	*httprouter.Router
	registered *[]string // "METHOD /pattern", in the order registered
}

// Handler registers h for method and the route pattern path.
func (rt router) Handler(method, path string, h http.Handler) {
	*rt.registered = append(*rt.registered, method+" "+path)
	_, api := h.(apiHandler)
	rt.Router.Handler(method, path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := caller(r); ok && !api {
			rt.NotFound.ServeHTTP(w, r)
			return
		}
		if sw, ok := w.(*statusWriter); ok {
			sw.route = path
		}
		h.ServeHTTP(w, r)
	}))
}

// apiHandler is a route of the JSON API, as handle registers it.
type apiHandler http.HandlerFunc

func (h apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h(w, r) }

// HandlerFunc registers h for method and the route pattern path.
func (rt router) HandlerFunc(method, path string, h http.HandlerFunc) { rt.Handler(method, path, h) }

// NewServer builds the handler over svc; log receives the access log and
// internal errors, never a secret.
func NewServer(svc Service, log *slog.Logger) *Server {
	s := &Server{app: svc, log: log, router: router{httprouter.New(), new([]string)}, crossOrigin: http.NewCrossOriginProtection()}
	s.router.RedirectTrailingSlash = false
	s.router.RedirectFixedPath = false
	s.router.NotFound = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeNotFound, "no route %s", r.URL.Path))
	})
	s.router.MethodNotAllowed = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeMethodNotAllowed, "%s does not answer %s; see the Allow header", r.URL.Path, r.Method))
	})
	s.router.PanicHandler = func(w http.ResponseWriter, r *http.Request, v any) {
		wire.WriteProblem(s.log, w, r, fmt.Errorf("panic: %v", v))
	}
	// Building the MCP tools costs more than the rest of NewServer, most
	// of a command's start on a cold process: the terminal on the file,
	// which serves its JSON API through this server, never pays for them.
	s.mcp = sync.OnceValue(func() *mcpserver.Server { return mcpserver.New(svc, log, s.Transport) })
	s.dav = dav.New(svc, log)
	s.routes()
	return s
}

// MCP is the MCP server NewServer mounted on POST /mcp, which `tend mcp`
// serves on stdio; its service_call_api reaches this server's JSON API.
func (s *Server) MCP() *mcpserver.Server { return s.mcp() }

// handlerFunc is the signature of every JSON endpoint: return errors, don't write them.
type handlerFunc func(w http.ResponseWriter, r *http.Request, a app.Actor) error

// routes registers every route: one readable table of the API.
func (s *Server) routes() {
	s.router.HandlerFunc(http.MethodGet, "/healthz", s.handleHealth)
	s.router.HandlerFunc(http.MethodGet, "/readyz", s.handleReady)
	s.router.HandlerFunc(http.MethodGet, "/openapi.json", s.handleOpenAPI)
	s.handle(http.MethodGet, "/metrics", s.handleMetrics)

	s.handle(http.MethodGet, "/v1/me", s.handleMe)
	s.handle(http.MethodGet, "/v1/meta", s.handleMeta)
	s.handle(http.MethodGet, "/v1/docs/agent", s.handleDocsAgent)
	s.handle(http.MethodGet, "/v1/docs/examples", s.handleDocsExamples)
	mcpHandler := sync.OnceValue(func() http.Handler { return s.mcp().Handler() })
	s.router.HandlerFunc(http.MethodPost, "/mcp", func(w http.ResponseWriter, r *http.Request) { mcpHandler().ServeHTTP(w, r) }) // stateless: POST only

	s.handle(http.MethodGet, "/v1/instance", s.handleInstanceGet)
	s.handle(http.MethodPatch, "/v1/instance", withBody(s, s.handleInstanceUpdate))
	s.handle(http.MethodGet, "/v1/instance/workspaces", s.handleInstanceWorkspaces)

	s.handle(http.MethodGet, "/v1/users", s.handleUserList)
	s.handle(http.MethodPost, "/v1/users", withBody(s, s.handleUserCreate))
	s.handle(http.MethodGet, "/v1/users/:username", s.handleUserGet)
	s.handle(http.MethodPatch, "/v1/users/:username", withBody(s, s.handleUserUpdate))
	s.handle(http.MethodPost, "/v1/users/:username/signout", s.handleSignOut)

	s.handle(http.MethodGet, "/v1/workspaces", s.handleWorkspaceList)
	s.handle(http.MethodPost, "/v1/workspaces", withBody(s, s.handleWorkspaceCreate))
	s.handle(http.MethodGet, "/v1/workspaces/:workspace", s.handleWorkspaceGet)
	s.handle(http.MethodPatch, "/v1/workspaces/:workspace", withBody(s, s.handleWorkspaceUpdate))
	s.handle(http.MethodDelete, "/v1/workspaces/:workspace", s.handleWorkspaceDelete)
	s.handle(http.MethodPost, "/v1/workspaces/:workspace/restore", withoutBody(s, s.handleWorkspaceRestore))
	s.handle(http.MethodGet, "/v1/workspaces/:workspace/members", s.handleMemberList)
	s.handle(http.MethodPost, "/v1/workspaces/:workspace/members", withBody(s, s.handleMemberAdd))
	s.handle(http.MethodPatch, "/v1/workspaces/:workspace/members/:username", withBody(s, s.handleMemberRegrade))
	s.handle(http.MethodDelete, "/v1/workspaces/:workspace/members/:username", s.handleMemberRemove)

	s.handle(http.MethodPost, "/v1/login-links", withBody(s, s.handleLoginLinkCreate))
	s.public(http.MethodPost, "/v1/auth/device", withActionBody(s, s.handleDeviceStart))
	s.public(http.MethodPost, "/v1/auth/device/token", withBody(s, s.handleDeviceToken))
	s.handle(http.MethodDelete, "/v1/session", s.handleSessionEnd)

	s.handle(http.MethodGet, "/v1/tokens", s.handleTokenList)
	s.handle(http.MethodPost, "/v1/tokens", withBody(s, s.handleTokenCreate))
	s.handle(http.MethodDelete, "/v1/tokens/:token", s.handleTokenRevoke)

	// The feed is GET with two segments; the others use one, so httprouter's
	// trees (one per method) never hold a static and a wildcard child side
	// by side.
	s.handle(http.MethodGet, "/v1/calendars", s.handleCalendarList)
	s.handle(http.MethodPost, "/v1/calendars", withBody(s, s.handleCalendarCreate))
	s.handle(http.MethodDelete, "/v1/calendars/:calendar", s.handleCalendarRevoke)
	s.handle(http.MethodPost, "/v1/calendars/:calendar/reset", s.handleCalendarReset)
	s.router.Handler(http.MethodGet, "/v1/calendars/:calendar/:secret", calfeed.Handler(s.app, s.log))

	s.handle(http.MethodGet, "/v1/workspaces/:workspace/settings", s.handleWorkspaceSettings)
	s.handle(http.MethodGet, "/v1/me/projects", s.handleProjectAccess)
	s.handle(http.MethodGet, "/v1/me/channels", s.handleChannelList)
	s.handle(http.MethodPost, "/v1/me/channels", withBody(s, s.handleChannelCreate))
	s.handle(http.MethodDelete, "/v1/me/channels/:channel", removal(channelParam, s.app.DeleteChannel))
	s.handle(http.MethodPost, "/v1/me/channels/:channel/test", withoutBody(s, s.handleChannelTest))
	s.handle(http.MethodGet, "/v1/me/notifications", s.handleNotificationList)
	s.public(http.MethodGet, "/v1/push/key", s.handlePushKey)
	s.public(http.MethodGet, "/v1/actions/:token", s.handleActionPage)
	s.public(http.MethodPost, "/v1/actions/:token", s.handleActionUse)

	s.handle(http.MethodGet, "/v1/projects", s.handleProjectList)
	s.handle(http.MethodPost, "/v1/projects", withBody(s, s.handleProjectCreate))
	s.handle(http.MethodGet, "/v1/projects/:project", keyed(projectKey, s.app.ProjectGet, wire.NewProject))
	s.handle(http.MethodPatch, "/v1/projects/:project", withBody(s, s.handleProjectUpdate))
	s.handle(http.MethodDelete, "/v1/projects/:project", keyed(projectKey, s.app.DeleteProject, wire.NewProject))
	s.handle(http.MethodPost, "/v1/projects/:project/move", withBody(s, s.handleProjectMove))
	s.handle(http.MethodPost, "/v1/projects/:project/restore", withoutBody(s, keyed(projectKey, s.app.RestoreProject, wire.NewProject)))
	s.handle(http.MethodGet, "/v1/projects/:project/members", s.handleProjectMembers)
	s.handle(http.MethodPost, "/v1/projects/:project/members", withBody(s, s.handleProjectShare))
	s.handle(http.MethodDelete, "/v1/projects/:project/members/:username", s.handleProjectUnshare)
	s.handle(http.MethodPut, "/v1/projects/:project/roles/:username", withBody(s, s.handleProjectRoleSet))
	s.handle(http.MethodDelete, "/v1/projects/:project/roles/:username", s.handleProjectRoleRemove)
	s.handle(http.MethodGet, "/v1/projects/:project/settings", s.handleProjectSettings)
	s.handle(http.MethodGet, "/v1/projects/:project/events", handleEvents("project", s.app.ProjectEvents))
	s.handle(http.MethodGet, "/v1/projects/:project/comments", s.handleComments("project"))
	s.handle(http.MethodPost, "/v1/projects/:project/comments", s.handleCommentAdd("project"))

	s.handle(http.MethodGet, "/v1/views", s.handleViewList)
	s.handle(http.MethodPost, "/v1/views", withBody(s, s.handleViewCreate))
	s.handle(http.MethodGet, "/v1/views/:view", keyed(viewParam, s.app.ViewGet, wire.NewView))
	s.handle(http.MethodPatch, "/v1/views/:view", withBody(s, s.handleViewUpdate))
	s.handle(http.MethodDelete, "/v1/views/:view", keyed(viewParam, s.app.DeleteView, wire.NewView))
	s.handle(http.MethodGet, "/v1/webhooks", s.handleWebhookList)
	s.handle(http.MethodPost, "/v1/webhooks", withBody(s, s.handleWebhookCreate))
	s.handle(http.MethodGet, "/v1/webhooks/:webhook", keyed(webhookParam, s.app.WebhookGet, wire.NewWebhook))
	s.handle(http.MethodPatch, "/v1/webhooks/:webhook", withBody(s, s.handleWebhookUpdate))
	s.handle(http.MethodDelete, "/v1/webhooks/:webhook", keyed(webhookParam, s.app.DeleteWebhook, wire.NewWebhook))
	s.handle(http.MethodPost, "/v1/webhooks/:webhook/rotate", keyed(webhookParam, s.app.RotateWebhookSecret, wire.NewIssuedWebhook))
	s.handle(http.MethodGet, "/v1/webhooks/:webhook/deliveries", s.handleWebhookLog)
	s.handle(http.MethodPost, "/v1/webhooks/:webhook/redeliver/:delivery", s.handleWebhookRedeliver)
	s.handle(http.MethodPost, "/v1/webhooks/:webhook/replay", s.handleWebhookReplay)

	s.handle(http.MethodGet, "/v1/agenda", withQuery(wire.AgendaQuery, s.handleAgenda))
	s.handle(http.MethodGet, "/v1/tasks", s.handleTaskList)
	s.handle(http.MethodPost, "/v1/tasks", withBody(s, s.handleTaskCreate))
	s.handleNamed(http.MethodPost, "/v1/tasks/:task", map[string]handlerFunc{
		"preview": withBody(s, s.handleTaskPreview), "bulk": withBody(s, s.handleTaskBulk)})
	s.handle(http.MethodGet, "/v1/tasks/:task", s.handleTaskGet)
	s.handle(http.MethodPatch, "/v1/tasks/:task", withBody(s, s.handleTaskUpdate))
	s.handle(http.MethodDelete, "/v1/tasks/:task", s.handleTaskDelete)
	s.handle(http.MethodPost, "/v1/tasks/:task/claim", s.handleTaskClaim)
	s.handle(http.MethodPost, "/v1/tasks/:task/release", s.handleTaskAction(s.app.ReleaseTask))
	s.handle(http.MethodPost, "/v1/tasks/:task/complete", withActionBody(s, s.handleTaskComplete))
	s.handle(http.MethodPost, "/v1/tasks/:task/skip", withoutBody(s, s.handleTaskSkip))
	s.handle(http.MethodGet, "/v1/tasks/:task/occurrences", s.handleTaskOccurrences)
	s.handle(http.MethodPost, "/v1/recurrence/parse", withBody(s, s.handleRecurrenceParse))
	s.handle(http.MethodPost, "/v1/tasks/:task/move", withBody(s, s.handleTaskMove))
	s.handle(http.MethodPost, "/v1/tasks/:task/restore", s.handleTaskAction(s.app.RestoreTask))
	s.handle(http.MethodPost, "/v1/tasks/:task/purge", s.handlePurge("task"))
	s.handle(http.MethodGet, "/v1/tasks/:task/verifications", s.handleVerificationList)
	s.handle(http.MethodPost, "/v1/tasks/:task/verifications", withBody(s, s.handleVerificationAdd))
	s.itemRoutes("task", s.app.TaskEvents)

	s.handle(http.MethodGet, "/v1/items/:item", s.handleItemShow)
	s.handle(http.MethodPost, "/v1/items/:item/comments", s.handleCommentAdd(app.AnyItem))
	s.handle(http.MethodPost, "/v1/items/:item/links", s.handleLinkAdd(app.AnyItem))
	s.handle(http.MethodGet, "/v1/search", withQuery(wire.ItemSearchQuery, s.handleSearch))

	s.handle(http.MethodGet, "/v1/documents", s.handleDocumentList)
	s.handle(http.MethodPost, "/v1/documents", withBody(s, s.handleDocumentCreate))
	s.handle(http.MethodGet, "/v1/documents/:document", s.handleDocumentGet)
	s.handle(http.MethodPatch, "/v1/documents/:document", withBody(s, s.handleDocumentUpdate))
	s.handle(http.MethodDelete, "/v1/documents/:document", keyed(documentRef, s.app.DeleteDocument, wire.NewDocument))
	s.handle(http.MethodPost, "/v1/documents/:document/move", withBody(s, s.handleDocumentMove))
	s.handle(http.MethodPost, "/v1/documents/:document/restore", withoutBody(s, keyed(documentRef, s.app.RestoreDocument, wire.NewDocument)))
	s.handle(http.MethodPost, "/v1/documents/:document/purge", s.handlePurge("document"))
	s.itemRoutes("document", s.app.DocumentEvents)

	s.handle(http.MethodPatch, "/v1/comments/:comment", withBody(s, s.handleCommentUpdate))
	s.handle(http.MethodDelete, "/v1/comments/:comment", s.handleCommentDelete)

	s.handle(http.MethodGet, "/v1/statuses", s.handleStatusList)
	s.handle(http.MethodPost, "/v1/statuses", withBody(s, s.handleStatusCreate))
	s.handle(http.MethodPatch, "/v1/statuses/:which", withBody(s, s.handleStatusUpdate))
	s.handle(http.MethodDelete, "/v1/statuses/:which", removal(vocabKey, s.app.RemoveStatus))
	s.handle(http.MethodGet, "/v1/link-types", s.handleLinkTypeList)
	s.handle(http.MethodPost, "/v1/link-types", withBody(s, s.handleLinkTypeCreate))
	s.handle(http.MethodPatch, "/v1/link-types/:which", withBody(s, s.handleLinkTypeUpdate))
	s.handle(http.MethodDelete, "/v1/link-types/:which", removal(vocabKey, s.app.RemoveLinkType))
	s.handle(http.MethodGet, "/v1/tags", s.handleTagList)
	s.handle(http.MethodPost, "/v1/tags", withBody(s, s.handleTagCreate))
	s.handle(http.MethodPatch, "/v1/tags/:which", withBody(s, s.handleTagUpdate))
	s.handle(http.MethodDelete, "/v1/tags/:which", removal(vocabKey, s.app.RemoveTag))

	s.handle(http.MethodGet, "/v1/changes", s.handleChanges)
	s.handle(http.MethodGet, "/v1/journal", s.handleJournal)

	pg := pages.New(s.app, s.log, s.authenticate)
	pg.Routes(s.router)
	s.router.NotFound = pg.Fallback(s.router.NotFound, app.CodeNotFound)
	s.router.MethodNotAllowed = pg.Fallback(s.router.MethodNotAllowed, app.CodeMethodNotAllowed)

	s.handle(http.MethodGet, "/v1/admin/backups", s.handleBackupList)
	s.router.HandlerFunc(http.MethodGet, "/v1/export", s.handleExport) // a download, not reached by service_call_api
	s.handle(http.MethodPost, "/v1/admin/promote", withActionBody(s, s.handlePromote))
	s.handle(http.MethodPost, "/v1/admin/backups", withActionBody(s, s.handleBackupCreate))

	s.handle(http.MethodGet, "/v1/workspaces/:workspace/invites", s.handleInviteList)
	s.handle(http.MethodPost, "/v1/workspaces/:workspace/invites", withBody(s, s.handleInviteCreate))
	s.handle(http.MethodDelete, "/v1/workspaces/:workspace/invites/:invite", s.handleInviteRevoke)
	s.public(http.MethodPost, "/v1/invites/accept", withBody(s, s.handleInviteAccept))
	s.public(http.MethodPost, "/v1/invites/check", withBody(s, s.handleUsernameCheck))
	s.handle(http.MethodGet, "/v1/me/passkeys", s.handlePasskeyList)
	s.handle(http.MethodPost, "/v1/me/passkeys/options", withoutBody(s, s.handlePasskeyOptions))
	s.handle(http.MethodPost, "/v1/me/passkeys", withBody(s, s.handlePasskeyCreate))
	s.handle(http.MethodPatch, "/v1/me/passkeys/:passkey", withBody(s, s.handlePasskeyRename))
	s.handle(http.MethodDelete, "/v1/me/passkeys/:passkey", removal(passkeyParam, s.app.RemovePasskey))
	s.public(http.MethodPost, "/v1/passkeys/signin/options", withoutBody(s, s.handlePasskeySignInOptions))
	s.public(http.MethodPost, "/v1/passkeys/signin", withBody(s, s.handlePasskeySignIn))
	s.handle(http.MethodGet, "/v1/me/sessions", s.handleMySessions)
	s.handle(http.MethodDelete, "/v1/me/sessions/:session", s.handleMySessionRevoke)
	s.handle(http.MethodPost, "/v1/me/device-links", withoutBody(s, s.handleDeviceLinkCreate))
	s.handle(http.MethodGet, "/v1/users/:username/sessions", s.handleUserSessions)
	s.handle(http.MethodDelete, "/v1/users/:username/sessions/:session", s.handleUserSessionRevoke)
}

// itemRoutes registers the routes a task and a document share, under
// /v1/{kind}s/:{kind}: its links, what mentions it, the documents that
// govern it and those proposed, what follows it, its history (as events
// reads it) and its comments.
func (s *Server) itemRoutes(kind string, events eventsFunc) {
	at := "/v1/" + kind + "s/:" + kind
	s.handle(http.MethodGet, at+"/links", s.handleLinks(kind))
	s.handle(http.MethodPost, at+"/links", s.handleLinkAdd(kind))
	s.handle(http.MethodDelete, at+"/links/:link", s.handleLinkRemove(kind))
	s.handle(http.MethodGet, at+"/backlinks", s.handleBacklinks(kind))
	s.handle(http.MethodGet, at+"/governing", s.handleGoverning(kind))
	s.handle(http.MethodGet, at+"/proposed-links", s.handleProposedLinks(kind))
	s.handle(http.MethodGet, at+"/tree", s.handleTree(kind))
	s.handle(http.MethodGet, at+"/events", handleEvents(kind, events))
	s.handle(http.MethodGet, at+"/comments", s.handleComments(kind))
	s.handle(http.MethodPost, at+"/comments", s.handleCommentAdd(kind))
}

// handle registers a route of the JSON API.
func (s *Server) handle(method, path string, h handlerFunc) {
	s.router.Handler(method, path, apiHandler(func(w http.ResponseWriter, r *http.Request) { s.serveAPI(w, r, h) }))
}

// serveAPI serves a route of the JSON API to the caller the request
// authenticates as, or to the one an in-process request (Transport) is
// given; a refusal is its problem document.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, h handlerFunc) {
	a, in := caller(r)
	var err error
	if !in {
		a, err = s.authenticate(r)
	}
	if err == nil {
		err = h(w, r, a)
	}
	if err != nil {
		wire.WriteProblem(s.log, w, r, err)
	}
}

// authenticate reads the bearer credential or, without one, the browser
// session cookie. A credential in the query string is refused outright:
// query strings end up in logs and browser history (GET /signin?link= is
// the one exception and does not come through here). A write a cookie
// authenticates must come from the same origin: a browser sends the cookie
// with another site's request, never the Authorization header.
func (s *Server) authenticate(r *http.Request) (app.Actor, error) {
	if secretInQuery(r) {
		return app.Actor{}, app.Errorf(app.CodeSecretInQuery, "send credentials in the Authorization header, never in the URL; revoke this one now")
	}
	if c, err := r.Cookie(wire.SessionCookie); err == nil && r.Header.Get("Authorization") == "" {
		if err := s.crossOrigin.Check(r); err != nil {
			return app.Actor{}, app.Errorf(app.CodeCrossOrigin, "a write with a session cookie must come from tend's own pages")
		}
		a, err := s.app.AuthenticateSession(r.Context(), c.Value, "web")
		if err == nil {
			return a, nil
		}
		if a, ok, terr := s.signInByTailscale(r); ok {
			return a, terr
		}
		return a, err
	}
	if r.Header.Get("Authorization") == "" {
		if a, ok, err := s.signInByTailscale(r); ok {
			return a, err
		}
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

// ServeHTTP serves a request, counts it in the metrics and writes one
// access-log line: the route pattern it matched, its URL through wire.RedactURL
// (no secret reaches the log), its status and duration, and the public
// prefix of the credential or session it presented, never the secret.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	switch {
	case slices.Contains(r.TransferEncoding, "chunked"):
		s.refuseChunked(sw, r)
	case dav.Serves(r):
		// WebDAV's methods (PROPFIND, REPORT, and those a client tries that
		// tend does not serve) are not the router's: every one of them, on
		// every path under the root, gets a DAV answer, never a page.
		sw.route = dav.Root + "*"
		s.dav.ServeHTTP(sw, r)
	default:
		s.router.ServeHTTP(sw, s.withTailscale(sw, r))
	}
	took := time.Since(start)
	status, route := sw.status, sw.route
	if wire.ClientGone(r) && (status >= 500 || !sw.wrote) {
		status = statusClientGone
	}
	if route == "" {
		route = unmatched
	}
	if s.metrics != nil {
		s.metrics.observeRequest(r.Method, route, status, took)
	}
	if !s.log.Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	attrs := []slog.Attr{slog.String("method", r.Method), slog.String("route", route), slog.String("url", wire.RedactURL(r.URL.Path, r.URL.RawQuery)),
		slog.Int("status", status), slog.Duration("duration", took)}
	if kind, prefix := presentedPrefix(r); prefix != "" {
		attrs = append(attrs, slog.String(kind, prefix))
	}
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
}

// presentedPrefix is the public prefix of the secret a request presents: a
// credential, as a bearer or as a Basic password ("credential"), or else a
// session cookie ("session").
// It is what the secret claims, checked or not: a refused request is traced
// to the record it named too.
func presentedPrefix(r *http.Request) (kind, prefix string) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, secret, _ := strings.Cut(h, " ")
		if strings.EqualFold(scheme, "Basic") {
			// CalDAV apps send the token as Basic's password.
			raw, _ := base64.StdEncoding.DecodeString(strings.TrimSpace(secret))
			_, secret, _ = strings.Cut(string(raw), ":")
		} else if !strings.EqualFold(scheme, "Bearer") {
			return "", ""
		}
		if p, ok := app.SecretPrefix(strings.TrimSpace(secret)); ok {
			return "credential", p
		}
		return "", ""
	}
	if c, err := r.Cookie(wire.SessionCookie); err == nil {
		if p, ok := app.SecretPrefix(c.Value); ok {
			return "session", p
		}
	}
	return "", ""
}

// refuseChunked answers a chunked request body 400 length_required before
// reading a byte of it. Go's server drops a Content-Length sent beside
// Transfer-Encoding: chunked and reads the body as chunks, so such a
// request (one RFC 9112 §6.3 says ought to be an error, as it can be read
// two ways) cannot be told from a plain chunked one; and a body that is not
// really chunked leaves the chunk reader waiting for a line until the read
// timeout. Every body tend takes is a small JSON document a client knows
// the length of. The connection is closed, as what follows on it cannot be
// framed, and its read deadline moved to now, so that the server's own
// draining of the unread body after the handler does not wait either.
func (s *Server) refuseChunked(w http.ResponseWriter, r *http.Request) {
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeLengthRequired, "send the request body with a Content-Length; chunked request bodies are refused"))
}

type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool   // a status or a byte of the body went out
	route  string // the pattern of the route that matched; "" for none
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	_ = wire.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReady answers 200 only when the database really answers a query
// and has room for writes. A full disk is named (code storage_full) and not
// logged here: the store reports each full episode once.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.app.Ready(ctx); err != nil {
		if app.CodeOf(err) == app.CodeStorageFull {
			w.Header().Set("Retry-After", wire.StorageFullRetry)
			_ = wire.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "code": string(app.CodeStorageFull)})
			return
		}
		if wire.ClientGone(r) {
			s.log.DebugContext(r.Context(), "readiness probe gone before its answer", "err", err)
		} else {
			s.log.ErrorContext(r.Context(), "not ready", "err", err)
		}
		_ = wire.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	ready := map[string]any{"status": "ready"}
	if st, ok := s.replicationStatus(); ok {
		ready["replication"] = newReplicationJSON(st)
	}
	status := http.StatusOK
	if st, ok := s.followStatus(); ok {
		j, fit := newFollowJSON(st, s.maxLag)
		ready["follow"] = j
		if !fit {
			ready["status"] = "unavailable"
			status = http.StatusServiceUnavailable
		}
	}
	_ = wire.WriteJSON(w, status, ready)
}

// HTTPServer wraps h in an http.Server with timeouts that keep one slow
// client from holding a connection forever.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second, MaxHeaderBytes: 64 << 10}
}

// wsParam is the workspace_id query parameter: an id or a slug.
func wsParam(r *http.Request) string { return r.URL.Query().Get("workspace_id") }

// decodeJSON reads the request's JSON body into dst (wire.DecodeJSON), within
// the instance's limit on a body's size.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, dst any, optional bool) error {
	return wire.DecodeJSON(w, r, dst, optional, s.app.Limits().MaxBodyBytes)
}

// decodeActionBody reads the body of an action route (claim, release,
// complete, restore): none at all, or one JSON object holding only the
// fields dst names. Anything else is refused, never silently ignored.
func (s *Server) decodeActionBody(w http.ResponseWriter, r *http.Request, dst any) error {
	return s.decodeJSON(w, r, dst, true)
}
