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
	return replyList(w, newWorkspaceJSON)(s.app.Workspaces(r.Context(), a, deleted))
}

// workspaceKey is the {id_or_slug} path parameter.
func workspaceKey(r *http.Request) string { return wire.Param(r, "workspace") }

func (s *Server) handleWorkspaceCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.WorkspaceCreate) error {
	return reply(w, http.StatusCreated, newWorkspaceJSON)(s.app.CreateWorkspace(r.Context(), a, in.App()))
}

func (s *Server) handleWorkspaceGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newWorkspaceJSON)(s.app.Workspace(r.Context(), a, workspaceKey(r)))
}

func (s *Server) handleWorkspaceUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.WorkspaceUpdate) error {
	return reply(w, http.StatusOK, newWorkspaceJSON)(s.app.UpdateWorkspace(r.Context(), a, workspaceKey(r), in.App()))
}

func (s *Server) handleWorkspaceDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newWorkspaceJSON)(s.app.DeleteWorkspace(r.Context(), a, workspaceKey(r)))
}

func (s *Server) handleWorkspaceRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusOK, newWorkspaceJSON)(s.app.RestoreWorkspace(r.Context(), a, workspaceKey(r)))
}

func (s *Server) handleMemberList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newMemberJSON)(s.app.Members(r.Context(), a, workspaceKey(r)))
}

func (s *Server) handleMemberAdd(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.Join) error {
	return reply(w, http.StatusCreated, newMemberJSON)(s.app.AddMember(r.Context(), a, workspaceKey(r), in.App()))
}

func (s *Server) handleMemberRegrade(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.Regrade) error {
	return reply(w, http.StatusOK, newMemberJSON)(s.app.RegradeMember(r.Context(), a, workspaceKey(r), wire.Param(r, "username"), in.App()))
}

func (s *Server) handleMemberRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.RemoveMember(r.Context(), a, workspaceKey(r), wire.Param(r, "username")))
}
