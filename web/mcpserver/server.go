package mcpserver

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/app"
	"tend/web/wire"
)

// Identify resolves who makes one MCP request. Over HTTP the bearer
// credential was checked for this very request; over stdio the process's
// credential is checked again on every call, so a revocation or a
// deactivation stops the next call either way.
type Identify func(ctx context.Context, extra *mcp.RequestExtra) (app.Actor, error)

// mcpInstructions is what an MCP client shows the model on connecting.
const mcpInstructions = "tend tracks work for people and agents. Start with service_claim ref \"next\": it claims the " +
	"highest-ranked ready task for you. Finish it with service_done and a verification (passed, summary, commit_sha); " +
	"leave what you learnt with service_document type \"finding\" and links to the task. " +
	"Read service://conventions for what binds work here. Refs are #N. " +
	"Every refusal starts with a stable code and says which call fixes it. GET /v1/docs/agent is the full guide."

// Server is tend's MCP server: the tools and resources, each a thin
// adapter over the same Service methods the HTTP API calls, answered on
// POST /mcp (Handler) and on stdio (ServeStdio).
type Server struct {
	app          Service
	log          *slog.Logger
	api          API
	allowedHosts []string // more Host names /mcp answers on behind a local proxy
	shared       *toolbox // built once, for POST /mcp and ServeStdio
}

// API is the JSON API served in process as the caller a
// (service_call_api, service://meta): web's Server.Transport.
type API func(a app.Actor) http.RoundTripper

// New builds the MCP server over svc; api reaches the JSON API.
// log receives internal errors, never a secret.
func New(svc Service, log *slog.Logger, api API) *Server {
	s := &Server{app: svc, log: log, api: api}
	s.shared = s.tools(sharedIdentity)
	return s
}

// toolbox holds what the tool handlers share.
type toolbox struct {
	s    *Server
	srv  *mcp.Server
	impl *mcp.Implementation
	who  Identify
	// tools are the handlers by tool name, for the stateless fast path
	// (call.go).
	tools map[string]mcp.ToolHandler
}

// For builds an SDK server of its own, acting as who, with tend's 15
// tools and 3 resources. POST /mcp and ServeStdio share the one
// New builds (with sharedIdentity): building one takes about as
// long as the rest of the start of `tend mcp`.
func (s *Server) For(who Identify) *mcp.Server {
	return s.tools(who).srv
}

// identifyKey carries the Identify of a stdio session on its context,
// which the SDK hands on to every call of the session.
type identifyKey struct{}

// sharedIdentity is the Identify of the shared server: the stdio session's,
// else the bearer credential of the HTTP request.
func sharedIdentity(ctx context.Context, extra *mcp.RequestExtra) (app.Actor, error) {
	if who, ok := ctx.Value(identifyKey{}).(Identify); ok {
		return who(ctx, extra)
	}
	return httpIdentity(ctx, extra)
}

func (s *Server) tools(who Identify) *toolbox {
	impl := &mcp.Implementation{Name: "tend", Title: "tend", Version: s.app.Version()}
	srv := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: mcpInstructions,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}},
	})
	srv.AddReceivingMiddleware(encodeToolResults)
	m := &toolbox{s: s, srv: srv, impl: impl, who: who, tools: map[string]mcp.ToolHandler{}}
	m.addReadTools()
	m.addWriteTools()
	m.addAPITools()
	m.addResources()
	return m
}

// StdioIdentity is the Identify of `tend mcp`: the secret it was started
// with, authenticated again for every call.
func (s *Server) StdioIdentity(secret string) Identify {
	return func(ctx context.Context, _ *mcp.RequestExtra) (app.Actor, error) {
		return s.app.Authenticate(ctx, secret, "mcp")
	}
}

// httpIdentity reads the actor the bearer middleware put on this request.
func httpIdentity(_ context.Context, extra *mcp.RequestExtra) (app.Actor, error) {
	if extra != nil && extra.TokenInfo != nil {
		if a, ok := extra.TokenInfo.Extra[actorKey].(app.Actor); ok {
			return a, nil
		}
	}
	return app.Actor{}, app.Errorf(app.CodeUnauthorized, "send a credential as Authorization: Bearer <token>")
}

const actorKey = "tend.actor"

// Handler serves POST /mcp: the stateless handler answers the
// 2026-07-28 era (no sessions) and the handshake era (initialize, then
// calls) on the same URL. JSON responses: tools answer at once, there is
// nothing to stream.
func (s *Server) Handler() http.Handler {
	m := s.shared
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m.srv }, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true,
		// The SDK's own guard refuses any non-loopback Host on a loopback
		// connection, which is every request behind a local reverse proxy;
		// guardHost below does the same job with the public URL allowed.
		DisableLocalhostProtection: true,
	})
	bearer := auth.RequireBearerToken(s.verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})
	authed := bearer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Del("WWW-Authenticate")
		m.servePost(w, r, h)
	}))
	cop := http.NewCrossOriginProtection()
	if origin := wire.OriginOf(s.app.PublicURL()); origin != "" {
		_ = cop.AddTrustedOrigin(origin)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r) {
			wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeForbidden, "Host %q is not one this instance answers MCP on; see docs/agent.md (allowed hosts)", r.Host))
			return
		}
		if err := cop.Check(r); err != nil {
			wire.WriteProblem(s.log, w, r, app.Errorf(app.CodeForbidden, "a cross-origin browser request may not call MCP"))
			return
		}
		// Sent with every refusal of the bearer middleware; removed again
		// once the credential has been accepted.
		w.Header().Set("WWW-Authenticate", `Bearer realm="tend"`)
		authed.ServeHTTP(w, r)
	})
}

// verify checks the bearer credential of one MCP request with the same
// Authenticate as /v1, and hands the actor to the tools.
func (s *Server) verify(ctx context.Context, secret string, _ *http.Request) (*auth.TokenInfo, error) {
	a, err := s.app.Authenticate(ctx, secret, "mcp")
	if app.CodeOf(err) == app.CodeUnauthorized {
		return nil, auth.ErrInvalidToken
	}
	if err != nil {
		return nil, err
	}
	// No Expiration: Authenticate has checked expiry on the store's clock.
	return &auth.TokenInfo{UserID: a.User.ID, Extra: map[string]any{actorKey: a}}, nil
}

// hostAllowed is the DNS-rebinding guard. A request that reached a
// loopback listener must name a loopback host (localhost, 127.0.0.1, [::1],
// any port), the public URL's host, or one of the hosts allowed with
// --allowed-hosts. A request on any other listener came over the network
// by an address somebody chose, and the bearer credential is what guards it.
func (s *Server) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || local == nil || !isLoopback(local.String()) {
		return true
	}
	host := hostOnly(r.Host)
	if isLoopback(host) || strings.EqualFold(host, "localhost") {
		return true
	}
	if pub := wire.OriginOf(s.app.PublicURL()); pub != "" && strings.EqualFold(host, hostOnly(strings.SplitN(pub, "://", 2)[1])) {
		return true
	}
	for _, h := range s.allowedHosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

// AllowHosts adds Host names the MCP endpoint answers on when requests
// arrive through a local reverse proxy (besides loopback names and the
// public URL's host).
func (s *Server) AllowHosts(hosts ...string) {
	for _, h := range hosts {
		if h = strings.TrimSpace(h); h != "" {
			s.allowedHosts = append(s.allowedHosts, hostOnly(h))
		}
	}
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}

func isLoopback(addr string) bool {
	h := hostOnly(addr)
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
