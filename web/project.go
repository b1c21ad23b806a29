package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

type projectMemberJSON struct {
	CreatedAt string   `json:"created_at"`
	Project   string   `json:"project"`
	User      userJSON `json:"user"`
}

type projectAccessJSON struct {
	Address     string   `json:"address"`
	ID          string   `json:"id"`
	Permissions []string `json:"permissions"`
	Role        *string  `json:"role"`
}

type sourceJSON struct {
	Level   string `json:"level"`
	ID      string `json:"id"`
	Address string `json:"address"`
}

type inForceJSON struct {
	Key           string      `json:"key"`
	Value         any         `json:"value"`
	Default       any         `json:"default"`
	SetHere       bool        `json:"set_here"`
	InheritedFrom *sourceJSON `json:"inherited_from"`
}

func newInForceJSON(f app.InForce) inForceJSON {
	out := inForceJSON{Key: f.Key, Value: f.Value, Default: f.Default, SetHere: f.SetHere}
	if f.InheritedFrom != nil {
		out.InheritedFrom = &sourceJSON{Level: f.InheritedFrom.Level, ID: f.InheritedFrom.ID, Address: f.InheritedFrom.Address}
	}
	return out
}

func (s *Server) handleProjectList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	deleted := q.Bool("deleted")
	if err := q.Err(); err != nil {
		return err
	}
	ps, err := s.app.Projects(r.Context(), a, wsParam(r), deleted)
	if err != nil {
		return err
	}
	return replyPage(w, wire.Whole())(shape(q, ps, wire.NewProject, func(p wire.Project) string { return p.ID },
		func(p wire.Project) []string { return []string{p.Path, p.Visibility, p.Status, p.Title} }))
}

// projectKey is the {id_or_key} path parameter.
func projectKey(r *http.Request) string { return wire.Param(r, "project") }

func (s *Server) handleProjectCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ProjectCreate) error {
	return reply(w, http.StatusCreated, wire.NewProject)(s.app.CreateProject(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleProjectUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ProjectUpdate) error {
	return reply(w, http.StatusOK, wire.NewProject)(s.app.UpdateProject(r.Context(), a, wsParam(r), projectKey(r), in.App()))
}

func (s *Server) handleProjectMove(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.Move) error {
	parent, err := in.ProjectParent()
	if err != nil {
		return err
	}
	return reply(w, http.StatusOK, wire.NewProject)(s.app.MoveProject(r.Context(), a, wsParam(r), projectKey(r), parent))
}

func newProjectMemberJSON(m app.ProjectMember) projectMemberJSON {
	return projectMemberJSON{CreatedAt: wire.Stamp(m.CreatedAt), Project: m.ProjectKey, User: newUserJSON(m.User)}
}

func (s *Server) handleProjectMembers(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newProjectMemberJSON)(s.app.ProjectMembers(r.Context(), a, wsParam(r), projectKey(r)))
}

// projectShareJSON is the body of POST /v1/projects/{project}/members.
type projectShareJSON struct {
	Username string `json:"username"`
}

func (s *Server) handleProjectShare(w http.ResponseWriter, r *http.Request, a app.Actor, in projectShareJSON) error {
	return reply(w, http.StatusCreated, newProjectMemberJSON)(s.app.ShareProject(r.Context(), a, wsParam(r), projectKey(r), in.Username))
}

func (s *Server) handleProjectUnshare(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.UnshareProject(r.Context(), a, wsParam(r), projectKey(r), wire.Param(r, "username")))
}

func (s *Server) handleProjectRoleSet(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ProjectRoleGrant) error {
	pr, err := s.app.SetProjectRole(r.Context(), a, wsParam(r), projectKey(r), wire.Param(r, "username"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, map[string]string{"project_id": pr.ProjectID, "user_id": pr.UserID,
		"username": wire.Param(r, "username"), "role": pr.Role})
}

func (s *Server) handleProjectRoleRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return noContent(w, s.app.RemoveProjectRole(r.Context(), a, wsParam(r), projectKey(r), wire.Param(r, "username")))
}

func (s *Server) handleProjectAccess(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, func(p app.ProjectAccess) projectAccessJSON {
		return projectAccessJSON{Address: p.Address, ID: p.ID, Permissions: p.Permissions, Role: wire.OrNull(p.Role)}
	})(s.app.ProjectRolesHeld(r.Context(), a))
}

func (s *Server) handleProjectSettings(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newInForceJSON)(s.app.ProjectSettings(r.Context(), a, wsParam(r), projectKey(r)))
}

func (s *Server) handleWorkspaceSettings(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, newInForceJSON)(s.app.WorkspaceSettings(r.Context(), a, workspaceKey(r)))
}
