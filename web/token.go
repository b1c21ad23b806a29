package web

import (
	"net/http"
	"time"

	"tend/app"
)

// credentialJSON is a credential as GET /v1/me reports the one presented.
type credentialJSON struct {
	ID                    string   `json:"id"`
	Kind                  string   `json:"kind"`
	Prefix                string   `json:"prefix"`
	Title                 string   `json:"title"`
	Scopes                []string `json:"scopes"`
	Narrows               bool     `json:"narrows"`
	WorkspaceID           *string  `json:"workspace_id"`
	ProjectScope          []string `json:"project_scope"`
	ProjectScopeKeys      []string `json:"project_scope_keys"`
	ProjectWriteScope     []string `json:"project_write_scope"`
	ProjectWriteScopeKeys []string `json:"project_write_scope_keys"`
	ExpiresAt             *string  `json:"expires_at"`
	LastUsedAt            *string  `json:"last_used_at"`
}

func newCredentialJSON(t app.Token) credentialJSON {
	return credentialJSON{ID: t.ID, Kind: t.Kind, Prefix: t.Prefix, Title: t.Title, Scopes: t.Scopes, Narrows: t.Narrows(),
		WorkspaceID: orNull(t.WorkspaceID), ProjectScope: t.ProjectScope, ProjectScopeKeys: t.ProjectScopeKeys,
		ProjectWriteScope: t.ProjectWriteScope, ProjectWriteScopeKeys: t.ProjectWriteScopeKeys,
		ExpiresAt: stampPtr(t.ExpiresAt), LastUsedAt: stampPtr(t.LastUsedAt)}
}

// tokenJSON is a stored credential as listings and revocation report it: never the secret.
type tokenJSON struct {
	credentialJSON
	UserID    string  `json:"user_id"`
	Username  string  `json:"username"`
	IssuedBy  *string `json:"issued_by"`
	CreatedAt string  `json:"created_at"`
	RevokedAt *string `json:"revoked_at"`
	Usable    bool    `json:"usable"`
}

func newTokenJSON(t app.Token) tokenJSON {
	return tokenJSON{credentialJSON: newCredentialJSON(t), UserID: t.UserID, Username: t.Username, IssuedBy: orNull(t.IssuedBy),
		CreatedAt: stamp(t.CreatedAt), RevokedAt: stampPtr(t.RevokedAt), Usable: t.Usable(time.Now())}
}

// issuedTokenJSON is the one response that carries a secret.
type issuedTokenJSON struct {
	tokenJSON
	Token          string `json:"token"`
	AccountCreated bool   `json:"account_created"`
}

func (s *Server) handleTokenList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ts, err := s.app.Tokens(r.Context(), a)
	if err != nil {
		return err
	}
	items := make([]tokenJSON, len(ts))
	for i, t := range ts {
		items[i] = newTokenJSON(t)
	}
	return writeJSON(w, http.StatusOK, listJSON{Items: items, Page: whole()})
}

func (s *Server) handleTokenCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.TokenCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	t, err := s.app.CreateToken(r.Context(), a, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, issuedTokenJSON{tokenJSON: newTokenJSON(t.Token),
		Token: t.Secret, AccountCreated: t.AccountCreated})
}

func (s *Server) handleTokenRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	t, err := s.app.RevokeToken(r.Context(), a, param(r, "token"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newTokenJSON(t))
}
