package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// userJSON is a directory entry: no email, no content.
type userJSON struct {
	ID               string  `json:"id"`
	Username         string  `json:"username"`
	DisplayName      *string `json:"display_name"`
	IsServiceAccount bool    `json:"is_service_account"`
	IsSuperuser      bool    `json:"is_superuser"`
	AnswersTo        *string `json:"answers_to"`
	AnswersToID      *string `json:"answers_to_id"`
	Responsible      *string `json:"responsible"`
	Active           bool    `json:"active"`
	Timezone         *string `json:"timezone"`
	DeactivatedAt    *string `json:"deactivated_at"`
	CreatedAt        string  `json:"created_at"`
	UpdatedAt        string  `json:"updated_at"`
	Version          int     `json:"version"`
}

func newUserJSON(u app.User) userJSON {
	return userJSON{ID: u.ID, Username: u.Username, DisplayName: wire.OrNull(u.DisplayName), IsServiceAccount: u.IsServiceAccount,
		IsSuperuser: u.IsSuperuser, AnswersTo: wire.OrNull(u.AnswersTo), AnswersToID: wire.OrNull(u.AnswersToID),
		Responsible: wire.OrNull(u.Responsible), Active: u.Active, Timezone: wire.OrNull(u.Timezone),
		DeactivatedAt: wire.StampPtr(u.DeactivatedAt), CreatedAt: wire.Stamp(u.CreatedAt), UpdatedAt: wire.Stamp(u.UpdatedAt), Version: u.Version}
}

func userLine(u userJSON) []string {
	kind, state := "person", "active"
	if u.IsServiceAccount {
		kind = "agent of " + *u.AnswersTo
	}
	if !u.Active {
		state = "inactive"
	}
	return []string{u.Username, kind, state}
}

func (s *Server) handleUserList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	in := app.UserQuery{AnswersTo: q.Str("answers_to"), Limit: q.Limit(), Cursor: q.Str("cursor"), IncludeTotal: q.Bool("include_total")}
	if err := q.Err(); err != nil {
		return err
	}
	page, err := s.app.Users(r.Context(), a, in)
	if err != nil {
		return err
	}
	return replyPage(w, wire.NewPage(page.Page))(shape(q, page.Items, newUserJSON, func(u userJSON) string { return u.ID }, userLine))
}

func (s *Server) handleUserCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.UserCreate) error {
	return reply(w, http.StatusCreated, newUserJSON)(s.app.CreateUser(r.Context(), a, in.App()))
}

func (s *Server) handleUserGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newUserJSON)(s.app.User(r.Context(), a, wire.Param(r, "username")))
}

func (s *Server) handleUserUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.UserUpdate) error {
	return reply(w, http.StatusOK, newUserJSON)(s.app.UpdateUser(r.Context(), a, wire.Param(r, "username"), in.App()))
}
