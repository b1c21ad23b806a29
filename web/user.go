package web

import (
	"net/http"

	"tend/app"
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
	return userJSON{ID: u.ID, Username: u.Username, DisplayName: orNull(u.DisplayName), IsServiceAccount: u.IsServiceAccount,
		IsSuperuser: u.IsSuperuser, AnswersTo: orNull(u.AnswersTo), AnswersToID: orNull(u.AnswersToID),
		Responsible: orNull(u.Responsible), Active: u.Active, Timezone: orNull(u.Timezone),
		DeactivatedAt: stampPtr(u.DeactivatedAt), CreatedAt: stamp(u.CreatedAt), UpdatedAt: stamp(u.UpdatedAt), Version: u.Version}
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
	q := newQuery(r)
	in := app.UserQuery{AnswersTo: q.str("answers_to"), Limit: q.limit(), Cursor: q.str("cursor"), IncludeTotal: q.bool("include_total")}
	if err := q.err(); err != nil {
		return err
	}
	page, err := s.app.Users(r.Context(), a, in)
	if err != nil {
		return err
	}
	items := make([]userJSON, len(page.Items))
	for i, u := range page.Items {
		items[i] = newUserJSON(u)
	}
	shaped, err := shapeItems(items, q.str("format"), q.str("fields"), func(u userJSON) string { return u.ID }, userLine)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, listJSON{Items: shaped, Page: newPage(page.Page)})
}

func (s *Server) handleUserCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.UserCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	u, err := s.app.CreateUser(r.Context(), a, in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, newUserJSON(u))
}

func (s *Server) handleUserGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	u, err := s.app.User(r.Context(), a, param(r, "username"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newUserJSON(u))
}

func (s *Server) handleUserUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.UserUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	u, err := s.app.UpdateUser(r.Context(), a, param(r, "username"), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newUserJSON(u))
}
