package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

func passkeyParam(r *http.Request) string { return wire.Param(r, "passkey") }

func (s *Server) handlePasskeyList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewPasskey)(s.app.Passkeys(r.Context(), a))
}

func (s *Server) handlePasskeyOptions(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, wire.NewPasskeyOptions)(s.app.BeginPasskeyRegistration(r.Context(), a, r.Host))
}

func (s *Server) handlePasskeyCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.PasskeyCreate) error {
	return reply(w, http.StatusCreated, wire.NewPasskey)(s.app.FinishPasskeyRegistration(r.Context(), a, r.Host, in.App()))
}

func (s *Server) handlePasskeyRename(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.PasskeyRename) error {
	return reply(w, http.StatusOK, wire.NewPasskey)(s.app.RenamePasskey(r.Context(), a, passkeyParam(r), in.Name))
}

func (s *Server) handlePasskeySignInOptions(w http.ResponseWriter, r *http.Request, _ app.Actor) error {
	return reply(w, http.StatusOK, wire.NewPasskeyOptions)(s.app.BeginPasskeySignIn(r.Context(), r.Host, wire.ClientAddr(r)))
}

// handlePasskeySignIn signs the browser in with a passkey and sets its
// session cookie. Another site must not sign a browser in to an account
// of its choosing, so the request must come from tend's own pages.
func (s *Server) handlePasskeySignIn(w http.ResponseWriter, r *http.Request, _ app.Actor, in wire.PasskeySignIn) error {
	if err := s.crossOrigin.Check(r); err != nil {
		return app.Errorf(app.CodeCrossOrigin, "sign in from tend's own page")
	}
	client := wire.SessionClient(r)
	signed, err := s.app.FinishPasskeySignIn(r.Context(), r.Host, client, in.App())
	if err != nil {
		return err
	}
	wire.SetSession(w, r, s.app.PublicURL(), signed.StartedSession)
	w.Header().Set("Cache-Control", "no-store")
	return wire.WriteJSON(w, http.StatusOK, newUserJSON(signed.User))
}
