package web

import (
	"net/http"
	"time"

	"tend/app"
	"tend/web/wire"
)

// tokenJSON is a stored credential as listings and revocation report it: never the secret.
type tokenJSON struct {
	wire.Credential
	UserID    string  `json:"user_id"`
	Username  string  `json:"username"`
	IssuedBy  *string `json:"issued_by"`
	CreatedAt string  `json:"created_at"`
	RevokedAt *string `json:"revoked_at"`
	Usable    bool    `json:"usable"`
}

func newTokenJSON(t app.Token) tokenJSON {
	return tokenJSON{Credential: wire.NewCredential(t), UserID: t.UserID, Username: t.Username, IssuedBy: wire.OrNull(t.IssuedBy),
		CreatedAt: wire.Stamp(t.CreatedAt), RevokedAt: wire.StampPtr(t.RevokedAt), Usable: t.Usable(time.Now())}
}

// issuedTokenJSON is the one response that carries a secret.
type issuedTokenJSON struct {
	tokenJSON
	Token          string `json:"token"`
	AccountCreated bool   `json:"account_created"`
}

func (s *Server) handleTokenList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newTokenJSON)(s.app.Tokens(r.Context(), a))
}

func (s *Server) handleTokenCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.TokenCreate) error {
	return reply(w, http.StatusCreated, func(t app.IssuedToken) issuedTokenJSON {
		return issuedTokenJSON{tokenJSON: newTokenJSON(t.Token), Token: t.Secret, AccountCreated: t.AccountCreated}
	})(s.app.CreateToken(r.Context(), a, in.App()))
}

func (s *Server) handleTokenRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newTokenJSON)(s.app.RevokeToken(r.Context(), a, wire.Param(r, "token")))
}
