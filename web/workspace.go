package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

type workspaceJSON struct {
	ID          string   `json:"id"`
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Timezone    string   `json:"timezone"`
	Role        *string  `json:"role"`
	Permissions []string `json:"permissions"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
	DeletedAt   *string  `json:"deleted_at"`
	Version     int      `json:"version"`
}

func newWorkspaceJSON(w app.WorkspaceView) workspaceJSON {
	perms := w.Permissions
	if perms == nil {
		perms = []string{}
	}
	return workspaceJSON{ID: w.ID, Slug: w.Slug, Name: w.Name, Timezone: w.Timezone, Role: wire.OrNull(w.Role), Permissions: perms,
		CreatedAt: wire.Stamp(w.CreatedAt), UpdatedAt: wire.Stamp(w.UpdatedAt), DeletedAt: wire.StampPtr(w.DeletedAt), Version: w.Version}
}

type memberJSON struct {
	CreatedAt string            `json:"created_at"`
	Role      string            `json:"role"`
	User      userJSON          `json:"user"`
	Workspace wire.WorkspaceRef `json:"workspace"`
}

func newMemberJSON(m app.Member) memberJSON {
	return memberJSON{CreatedAt: wire.Stamp(m.CreatedAt), Role: m.Role, User: newUserJSON(m.User), Workspace: wire.NewWorkspaceRef(m.Workspace)}
}

func (s *Server) handleWorkspaceList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	deleted := q.Bool("deleted")
	if err := q.Err(); err != nil {
		return err
	}
	ws, err := s.app.Workspaces(r.Context(), a, deleted)
	if err != nil {
		return err
	}
	items := make([]workspaceJSON, len(ws))
	for i, x := range ws {
		items[i] = newWorkspaceJSON(x)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleWorkspaceCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.WorkspaceCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	ws, err := s.app.CreateWorkspace(r.Context(), a, in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, newWorkspaceJSON(ws))
}

func (s *Server) handleWorkspaceGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws, err := s.app.Workspace(r.Context(), a, wire.Param(r, "workspace"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newWorkspaceJSON(ws))
}

func (s *Server) handleWorkspaceUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.WorkspaceUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	ws, err := s.app.UpdateWorkspace(r.Context(), a, wire.Param(r, "workspace"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newWorkspaceJSON(ws))
}

func (s *Server) handleWorkspaceDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws, err := s.app.DeleteWorkspace(r.Context(), a, wire.Param(r, "workspace"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newWorkspaceJSON(ws))
}

func (s *Server) handleWorkspaceRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
		return err
	}
	ws, err := s.app.RestoreWorkspace(r.Context(), a, wire.Param(r, "workspace"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newWorkspaceJSON(ws))
}

func (s *Server) handleMemberList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ms, err := s.app.Members(r.Context(), a, wire.Param(r, "workspace"))
	if err != nil {
		return err
	}
	items := make([]memberJSON, len(ms))
	for i, m := range ms {
		items[i] = newMemberJSON(m)
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleMemberAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.Join
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	m, err := s.app.AddMember(r.Context(), a, wire.Param(r, "workspace"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, newMemberJSON(m))
}

func (s *Server) handleMemberRegrade(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.Regrade
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	m, err := s.app.RegradeMember(r.Context(), a, wire.Param(r, "workspace"), wire.Param(r, "username"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newMemberJSON(m))
}

func (s *Server) handleMemberRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.RemoveMember(r.Context(), a, wire.Param(r, "workspace"), wire.Param(r, "username")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
