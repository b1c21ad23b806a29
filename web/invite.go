package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// joinedJSON answers POST /v1/invites/accept: the new account, the
// workspace it joined and its role there. The session is in the cookie.
type joinedJSON struct {
	User      userJSON `json:"user"`
	Workspace string   `json:"workspace"`
	Role      string   `json:"role"`
}

func (s *Server) handleInviteCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.InviteCreate) error {
	return reply(w, http.StatusCreated, func(i app.IssuedInvite) wire.IssuedInvite {
		return wire.IssuedInvite{Invite: wire.NewInvite(i.Invite), URL: wire.JoinURL(s.baseURL(r), i.Secret)}
	})(s.app.CreateInvite(r.Context(), a, workspaceKey(r), in.App()))
}

func (s *Server) handleInviteList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewInvite)(s.app.Invites(r.Context(), a, workspaceKey(r)))
}

func (s *Server) handleInviteRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.RevokeInvite(r.Context(), a, workspaceKey(r), wire.Param(r, "invite")))
}

// handleInviteAccept redeems an invite for a person without an account
// and signs the browser in. Like the sign-in page's form it must come from
// tend's own origin when a browser sends it: another site must not make
// an account and sign a browser in to it.
func (s *Server) handleInviteAccept(w http.ResponseWriter, r *http.Request, _ app.Actor, in wire.InviteAccept) error {
	if err := s.crossOrigin.Check(r); err != nil {
		return app.Errorf(app.CodeCrossOrigin, "join from tend's own page")
	}
	j, err := s.app.RedeemInvite(r.Context(), in.App(), wire.SessionClient(r))
	if err != nil {
		return err
	}
	wire.SetSession(w, r, s.app.PublicURL(), j.Session)
	w.Header().Set("Cache-Control", "no-store")
	return wire.WriteJSON(w, http.StatusCreated, joinedJSON{User: newUserJSON(j.User), Workspace: j.Workspace.Slug, Role: j.Role})
}

func (s *Server) handleUsernameCheck(w http.ResponseWriter, r *http.Request, _ app.Actor, in wire.UsernameAsk) error {
	return reply(w, http.StatusOK, func(c app.UsernameCheck) wire.UsernameCheck { return wire.UsernameCheck(c) })(
		s.app.UsernameAvailable(r.Context(), in.Invite, in.Username, wire.ClientAddr(r)))
}
