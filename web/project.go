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

func writeInForce(w http.ResponseWriter, fs []app.InForce) error {
	items := make([]inForceJSON, len(fs))
	for i, f := range fs {
		items[i] = inForceJSON{Key: f.Key, Value: f.Value, Default: f.Default, SetHere: f.SetHere}
		if f.InheritedFrom != nil {
			items[i].InheritedFrom = &sourceJSON{Level: f.InheritedFrom.Level, ID: f.InheritedFrom.ID, Address: f.InheritedFrom.Address}
		}
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
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
	items := make([]wire.Project, len(ps))
	for i, p := range ps {
		items[i] = wire.NewProject(p)
	}
	shaped, err := wire.ShapeItems(items, q.Str("format"), q.Str("fields"), func(p wire.Project) string { return p.ID },
		func(p wire.Project) []string { return []string{p.Path, p.Visibility, p.Status, p.Title} })
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: shaped, Page: wire.Whole()})
}

func (s *Server) handleProjectCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.ProjectCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	p, err := s.app.CreateProject(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, wire.NewProject(p))
}

func (s *Server) handleProjectGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	p, err := s.app.ProjectGet(r.Context(), a, wsParam(r), wire.Param(r, "project"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewProject(p))
}

func (s *Server) handleProjectUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.ProjectUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	p, err := s.app.UpdateProject(r.Context(), a, wsParam(r), wire.Param(r, "project"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewProject(p))
}

func (s *Server) handleProjectDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	p, err := s.app.DeleteProject(r.Context(), a, wsParam(r), wire.Param(r, "project"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewProject(p))
}

func (s *Server) handleProjectRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
		return err
	}
	p, err := s.app.RestoreProject(r.Context(), a, wsParam(r), wire.Param(r, "project"))
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewProject(p))
}

func (s *Server) handleProjectMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.Move
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	parent, err := in.ProjectParent()
	if err != nil {
		return err
	}
	p, err := s.app.MoveProject(r.Context(), a, wsParam(r), wire.Param(r, "project"), parent)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, wire.NewProject(p))
}

func (s *Server) handleProjectMembers(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ms, err := s.app.ProjectMembers(r.Context(), a, wsParam(r), wire.Param(r, "project"))
	if err != nil {
		return err
	}
	items := make([]projectMemberJSON, len(ms))
	for i, m := range ms {
		items[i] = projectMemberJSON{CreatedAt: wire.Stamp(m.CreatedAt), Project: m.ProjectKey, User: newUserJSON(m.User)}
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

// projectShareJSON is the body of POST /v1/projects/{project}/members.
type projectShareJSON struct {
	Username string `json:"username"`
}

func (s *Server) handleProjectShare(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in projectShareJSON
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	m, err := s.app.ShareProject(r.Context(), a, wsParam(r), wire.Param(r, "project"), in.Username)
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusCreated, projectMemberJSON{CreatedAt: wire.Stamp(m.CreatedAt), Project: m.ProjectKey, User: newUserJSON(m.User)})
}

func (s *Server) handleProjectUnshare(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.UnshareProject(r.Context(), a, wsParam(r), wire.Param(r, "project"), wire.Param(r, "username")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) handleProjectRoleSet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.ProjectRoleGrant
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	pr, err := s.app.SetProjectRole(r.Context(), a, wsParam(r), wire.Param(r, "project"), wire.Param(r, "username"), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, map[string]string{"project_id": pr.ProjectID, "user_id": pr.UserID,
		"username": wire.Param(r, "username"), "role": pr.Role})
}

func (s *Server) handleProjectRoleRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.app.RemoveProjectRole(r.Context(), a, wsParam(r), wire.Param(r, "project"), wire.Param(r, "username")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) handleProjectAccess(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	pa, err := s.app.ProjectRolesHeld(r.Context(), a)
	if err != nil {
		return err
	}
	items := make([]projectAccessJSON, len(pa))
	for i, p := range pa {
		items[i] = projectAccessJSON{Address: p.Address, ID: p.ID, Permissions: p.Permissions, Role: wire.OrNull(p.Role)}
	}
	return wire.WriteJSON(w, http.StatusOK, wire.List{Items: items, Page: wire.Whole()})
}

func (s *Server) handleProjectSettings(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	fs, err := s.app.ProjectSettings(r.Context(), a, wsParam(r), wire.Param(r, "project"))
	if err != nil {
		return err
	}
	return writeInForce(w, fs)
}

func (s *Server) handleWorkspaceSettings(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	fs, err := s.app.WorkspaceSettings(r.Context(), a, wire.Param(r, "workspace"))
	if err != nil {
		return err
	}
	return writeInForce(w, fs)
}
