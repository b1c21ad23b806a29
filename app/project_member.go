package app

import (
	"context"
	"sort"
	"strings"
)

// ProjectAccess is one project where the caller holds a role of the
// project's own, with the permissions it has there.
type ProjectAccess struct {
	Address     string
	ID          string
	Role        string
	Permissions []string
}

// ProjectMembers lists who has sight of a project.
func (s *Service) ProjectMembers(ctx context.Context, a Actor, workspace, idOrKey string) ([]ProjectMember, error) {
	var out []ProjectMember
	err := s.store.View(ctx, withFound(ctx, a, workspace, idOrKey, findProject, func(tx Tx, _ *scope, n *projectNode) (err error) {
		out, err = tx.ProjectMembers(ctx, n.ID)
		for i := range out {
			out[i].ProjectKey = n.Key
		}
		return err
	}))
	return out, err
}

// ShareProject gives one more workspace member sight of a project.
func (s *Service) ShareProject(ctx context.Context, a Actor, workspace, idOrKey, username string) (ProjectMember, error) {
	if err := checkUsername("body.username", username); err != nil {
		return ProjectMember{}, err
	}
	var out ProjectMember
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrKey, writableProject, func(tx Tx, _ *scope, n *projectNode) error {
		u, err := tx.UserByName(ctx, username)
		if err != nil {
			return bodyRef(err, "body.username", "no such account")
		}
		if _, err := tx.MemberOf(ctx, n.WorkspaceID, u.ID); err != nil {
			return bodyRef(err, "body.username", u.Username+" is not a member of this workspace; add them to it first")
		}
		if err := tx.InsertProjectMember(ctx, n.ID, u.ID, tx.Now()); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeAlreadyMember, "%s can already see %s", u.Username, n.Path)
			}
			return err
		}
		out = ProjectMember{ProjectID: n.ID, ProjectKey: n.Key, User: u, CreatedAt: tx.Now()}
		return record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID, Action: "project.shared",
			SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username}})
	}))
	return out, err
}

// UnshareProject removes a member row. The owner's own row and the last
// remaining row stay, whatever the visibility.
func (s *Service) UnshareProject(ctx context.Context, a Actor, workspace, idOrKey, username string) error {
	return s.store.Update(ctx, withFound(ctx, a, workspace, idOrKey, writableProject, func(tx Tx, _ *scope, n *projectNode) error {
		ms, err := tx.ProjectMembers(ctx, n.ID)
		if err != nil {
			return err
		}
		var found *ProjectMember
		for i := range ms {
			if strings.EqualFold(ms[i].User.Username, username) {
				found = &ms[i]
			}
		}
		switch {
		case found == nil:
			return NotFound("project member")
		case len(ms) == 1:
			// Checked before the owner's row: the owner always holds a row,
			// so the other order would leave this refusal unreachable.
			return Errorf(CodeLastProjectMember, "%s is the last member row of %s", found.User.Username, n.Path)
		case found.User.ID == n.OwnerID:
			return Errorf(CodeProjectOwnerRow, "%s owns %s; the owner's row cannot be removed", found.User.Username, n.Path)
		}
		if err := tx.DeleteProjectMember(ctx, n.ID, found.User.ID); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID, Action: "project.unshared",
			SubjectType: "user", SubjectID: found.User.ID, Changes: map[string]any{"username": found.User.Username}})
	}))
}

// ProjectRoleGrant is the role of the project's own an account is given
// (PUT /v1/projects/{id_or_key}/roles/{username}).
type ProjectRoleGrant struct {
	Role string
}

// SetProjectRole gives an account a role of the project's own, replacing its
// workspace role inside the project. Only those who manage the workspace's
// members may, and never above their own role.
func (s *Service) SetProjectRole(ctx context.Context, a Actor, workspace, idOrKey, username string, in ProjectRoleGrant) (ProjectRole, error) {
	if err := checkRole("body.role", in.Role); err != nil {
		return ProjectRole{}, err
	}
	var out ProjectRole
	err := s.store.Update(ctx, func(tx Tx) error {
		n, u, err := s.roleTarget(ctx, tx, a, workspace, idOrKey, username, in.Role)
		if err != nil {
			return err
		}
		out = ProjectRole{ProjectID: n.ID, UserID: u.ID, Role: in.Role}
		if err := tx.SetProjectRole(ctx, out, tx.Now()); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID, Action: "project.role_set",
			SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username, "role": in.Role}})
	})
	return out, err
}

// RemoveProjectRole takes a project role away; the workspace role applies again.
func (s *Service) RemoveProjectRole(ctx context.Context, a Actor, workspace, idOrKey, username string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		n, u, err := s.roleTarget(ctx, tx, a, workspace, idOrKey, username, "")
		if err != nil {
			return err
		}
		roles, err := tx.ProjectRoles(ctx, n.ID)
		if err != nil {
			return err
		}
		for _, r := range roles {
			if r.UserID == u.ID {
				if err := tx.DeleteProjectRole(ctx, n.ID, u.ID); err != nil {
					return err
				}
				return record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID,
					Action: "project.role_removed", SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username}})
			}
		}
		return NotFound("project role")
	})
}

// ProjectRoleHolder is an account holding a role of a project's own, which
// replaces its workspace role inside the project.
type ProjectRoleHolder struct {
	ProjectKey string
	User       User
	Role       string
}

// ProjectRoleHolders lists who holds a role of the project's own, by
// username, to whoever may see the project. A role kept by someone who has
// since left the workspace gives them nothing there, and is not listed.
func (s *Service) ProjectRoleHolders(ctx context.Context, a Actor, workspace, idOrKey string) ([]ProjectRoleHolder, error) {
	out := []ProjectRoleHolder{}
	err := s.store.View(ctx, withFound(ctx, a, workspace, idOrKey, findProject, func(tx Tx, _ *scope, n *projectNode) error {
		roles, err := tx.ProjectRoles(ctx, n.ID)
		if err != nil || len(roles) == 0 {
			return err
		}
		members, err := tx.Members(ctx, n.WorkspaceID)
		if err != nil {
			return err
		}
		byID := make(map[string]User, len(members))
		for _, m := range members {
			byID[m.UserID] = m.User
		}
		for _, r := range roles {
			if u, ok := byID[r.UserID]; ok {
				out = append(out, ProjectRoleHolder{ProjectKey: n.Key, User: u, Role: r.Role})
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].User.Username < out[j].User.Username })
		return nil
	}))
	return out, err
}

func (s *Service) roleTarget(ctx context.Context, tx Tx, a Actor, workspace, idOrKey, username, role string) (*projectNode, User, error) {
	sc, n, err := findProject(ctx, tx, a, workspace, idOrKey)
	if err != nil {
		return nil, User{}, err
	}
	if err := sc.ws.require(PermWorkspaceMembers); err != nil {
		return nil, User{}, err
	}
	if role != "" && rankOf(role) > rankOf(sc.ws.Role) {
		return nil, User{}, Errorf(CodeForbidden, "you cannot grant a role above your own")
	}
	u, err := tx.UserByName(ctx, username)
	if err != nil {
		return nil, User{}, notFoundAs(err, "account")
	}
	if _, err := tx.MemberOf(ctx, n.WorkspaceID, u.ID); err != nil {
		return nil, User{}, notFoundAs(err, "account")
	}
	return n, u, nil
}

// ProjectRolesHeld lists the projects where the caller holds a role of the
// project's own, in every workspace it reaches.
func (s *Service) ProjectRolesHeld(ctx context.Context, a Actor) ([]ProjectAccess, error) {
	out := []ProjectAccess{}
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		for _, w := range acc.live() {
			sc, err := scopeOf(ctx, tx, acc, w)
			if err != nil {
				return err
			}
			for _, n := range sc.ordered {
				if n.OwnRole && n.visible() {
					out = append(out, ProjectAccess{Address: w.Workspace.Slug + "/" + n.Path, ID: n.ID, Role: n.Role, Permissions: n.Perms})
				}
			}
		}
		return nil
	}))
	return out, err
}
