package web

import (
	"net/http"
	"strings"

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

func (s *Server) handleLoginLinkCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.LoginLinkCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	l, err := s.app.CreateLoginLink(r.Context(), a, in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, loginLinkJSON{URL: SignInURL(s.baseURL(r), l.Secret), Username: l.Username,
		ExpiresAt: wire.Stamp(l.ExpiresAt)})
}

// SignInURL is the link a person opens to sign in.
func SignInURL(base, secret string) string {
	return strings.TrimRight(base, "/") + "/signin?link=" + secret
}

// baseURL is the instance's public_url, else the origin the request came to.
func (s *Server) baseURL(r *http.Request) string {
	if pub := wire.OriginOf(s.app.PublicURL()); pub != "" {
		return pub
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// handleSessionEnd signs the presented browser session out and clears its cookie.
func (s *Server) handleSessionEnd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.EndSession(r.Context(), a); err != nil {
		return err
	}
	wire.ClearSession(w, r, s.app.PublicURL())
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	out, err := s.app.SignOut(r.Context(), a, wire.Param(r, "username"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, signedOutJSON(out))
}
