package web

import (
	"context"
	"net/http"
	"sync"

	"tend/app"
	"tend/web/wire"
)

// TrustTailscale makes the server sign a request in by the
// Tailscale-User-Login header when it comes from loopback, as `tailscale
// serve` forwards it (tend serve --trust-tailscale; docs/selfhost.md).
func (s *Server) TrustTailscale() { s.trustTailscale.Store(true) }

// tailscaleSignIn starts at most one session per request for the login
// Tailscale vouched for: a request authenticates more than once (a page's
// refusal names who is signed in), and each would otherwise start one.
type tailscaleSignIn struct {
	w    http.ResponseWriter
	once sync.Once
	a    app.Actor
	err  error
}

type tailscaleSignInKey struct{}

// withTailscale readies r for a sign-in by the Tailscale login it carries
// when the server trusts Tailscale and r's peer is loopback; otherwise r
// is unchanged and the header says nothing.
func (s *Server) withTailscale(w http.ResponseWriter, r *http.Request) *http.Request {
	if !s.trustTailscale.Load() {
		return r
	}
	login := wire.TrustedTailscaleLogin(r)
	if login == "" {
		return r
	}
	ctx := context.WithValue(wire.WithTailscaleLogin(r.Context(), login), tailscaleSignInKey{}, &tailscaleSignIn{w: w})
	return r.WithContext(ctx)
}

// signInByTailscale starts a session for the account linked to r's
// trusted Tailscale login, sets its cookie and answers its actor; ok is
// false when r carries no trusted login.
func (s *Server) signInByTailscale(r *http.Request) (a app.Actor, ok bool, err error) {
	ts, _ := r.Context().Value(tailscaleSignInKey{}).(*tailscaleSignIn)
	if ts == nil {
		return app.Actor{}, false, nil
	}
	ts.once.Do(func() {
		if ts.err = s.crossOrigin.Check(r); ts.err != nil {
			// Another site's request reaches tend through tailscale serve
			// with the header too: it must not act as the person.
			ts.err = app.Errorf(app.CodeCrossOrigin, "a write must come from tend's own pages")
			return
		}
		var ss app.StartedSession
		if ss, ts.err = s.app.TailscaleSignIn(r.Context(), wire.TailscaleLoginOf(r), wire.SessionClient(r)); ts.err != nil {
			return
		}
		wire.SetSession(ts.w, r, s.app.PublicURL(), ss)
		ts.a, ts.err = s.app.AuthenticateSession(r.Context(), ss.Secret, "web")
	})
	return ts.a, true, ts.err
}

func (s *Server) handleMySessions(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewDeviceSession)(s.app.Sessions(r.Context(), a, ""))
}

func (s *Server) handleMySessionRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.RevokeSession(r.Context(), a, "", wire.Param(r, "session")))
}

func (s *Server) handleUserSessions(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewDeviceSession)(s.app.Sessions(r.Context(), a, wire.Param(r, "username")))
}

func (s *Server) handleUserSessionRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.RevokeSession(r.Context(), a, wire.Param(r, "username"), wire.Param(r, "session")))
}

func (s *Server) handleDeviceLinkCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusCreated, func(l app.IssuedLoginLink) wire.DeviceLink {
		return wire.DeviceLink{URL: SignInURL(s.baseURL(r), l.Secret), ExpiresAt: wire.Stamp(l.ExpiresAt)}
	})(s.app.CreateDeviceLink(r.Context(), a))
}
