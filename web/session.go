package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// loginLinkJSON is SignInLink: the one response that carries the link's secret.
type loginLinkJSON struct {
	URL       string `json:"url"`
	Username  string `json:"username"`
	ExpiresAt string `json:"expires_at"`
}

// signedOutJSON is app.SignedOut: what a sign-out revoked.
type signedOutJSON struct {
	Sessions int `json:"sessions"`
	Links    int `json:"links"`
}

func (s *Server) handleLoginLinkCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.LoginLinkCreate) error {
	return reply(w, http.StatusCreated, func(l app.IssuedLoginLink) loginLinkJSON {
		return loginLinkJSON{URL: SignInURL(s.baseURL(r), l.Secret), Username: l.Username, ExpiresAt: wire.Stamp(l.ExpiresAt)}
	})(s.app.CreateLoginLink(r.Context(), a, in.App()))
}

// SignInURL is the link a person opens to sign in.
func SignInURL(base, secret string) string { return wire.SignInURL(base, secret) }

// baseURL is the instance's public_url, else the origin the request came to.
func (s *Server) baseURL(r *http.Request) string { return wire.BaseURL(r, s.app.PublicURL()) }

// handleSessionEnd signs the presented browser session out and clears its cookie.
func (s *Server) handleSessionEnd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.EndSession(r.Context(), a); err != nil {
		return err
	}
	wire.ClearSession(w, r, s.app.PublicURL())
	return noContent(w, nil)
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	keep := q.Str("keep")
	if err := q.Err(); err != nil {
		return err
	}
	out := reply(w, http.StatusOK, func(out app.SignedOut) signedOutJSON { return signedOutJSON(out) })
	switch keep {
	case "":
		return out(s.app.SignOut(r.Context(), a, wire.Param(r, "username")))
	case "current":
		return out(s.app.SignOutOthers(r.Context(), a, wire.Param(r, "username")))
	}
	return app.Invalidf("query.keep", "keep is current (keep the session you call from) or absent")
}
