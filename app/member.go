package app

import (
	"context"
	"time"
)

// Member is an account's membership of a workspace, with its role there.
type Member struct {
	WorkspaceID string
	UserID      string
	Role        string
	CreatedAt   time.Time
	User        User
	Workspace   Workspace
}

// Membership is one workspace an account belongs to.
type Membership struct {
	Workspace Workspace
	Role      string
	CreatedAt time.Time
}

type memberTx interface {
	// Memberships lists an account's workspaces, trashed ones too, in joining order.
	Memberships(ctx context.Context, userID string) ([]Membership, error)
	// Members lists a workspace's members in joining order.
	Members(ctx context.Context, workspaceID string) ([]Member, error)
	MemberOf(ctx context.Context, workspaceID, userID string) (Member, error)
	InsertMember(ctx context.Context, m *Member) error
	UpdateMember(ctx context.Context, m *Member) error
	DeleteMember(ctx context.Context, workspaceID, userID string) error
	CountRole(ctx context.Context, workspaceID, role string) (int, error)
}

// Join adds a member to a workspace.
type Join struct {
	Username string
	Role     string
}

// Regrade changes a member's role.
type Regrade struct {
	Role string
}

func checkRole(loc, role string) error {
	if _, ok := RoleByKey(role); !ok {
		return Invalidf(loc, "role is one of %v", roleKeys())
	}
	return nil
}

// Members lists a workspace's members.
func (s *Service) Members(ctx context.Context, a Actor, idOrSlug string) ([]Member, error) {
	var out []Member
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := findWorkspace(ctx, tx, acc, idOrSlug, false)
		if err != nil {
			return err
		}
		if w.Role != "" {
			if err := w.require(PermWorkspaceRead); err != nil {
				return err
			}
		}
		out, err = tx.Members(ctx, w.Workspace.ID)
		return err
	}))
	return out, err
}

// managerRank is how high a role the caller may hand out or touch in w:
// its own role's rank with workspace:members, above every role for an
// instance administrator, and nothing otherwise.
func managerRank(acc *access, w wsAccess) (int, error) {
	if acc.can(PermInstanceAdmin) {
		return 1 << 10, nil
	}
	if err := w.require(PermWorkspaceMembers); err != nil {
		return 0, err
	}
	r, _ := RoleByKey(w.Role)
	return r.Rank, nil
}

func rankOf(role string) int {
	r, _ := RoleByKey(role)
	return r.Rank
}

// AddMember adds an account to a workspace with a role no higher than the caller's own.
func (s *Service) AddMember(ctx context.Context, a Actor, idOrSlug string, in Join) (Member, error) {
	if err := joinErrors(checkRole("body.role", in.Role), checkUsername("body.username", in.Username)); err != nil {
		return Member{}, err
	}
	var out Member
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := findWorkspace(ctx, tx, acc, idOrSlug, false)
		if err != nil {
			return err
		}
		rank, err := managerRank(acc, w)
		if err != nil {
			return err
		}
		if rankOf(in.Role) > rank {
			return Errorf(CodeForbidden, "you cannot grant a role above your own")
		}
		u, err := tx.UserByName(ctx, in.Username)
		if err != nil {
			return bodyRef(err, "body.username", "no such account")
		}
		m := Member{WorkspaceID: w.Workspace.ID, UserID: u.ID, Role: in.Role, CreatedAt: tx.Now()}
		if err := tx.InsertMember(ctx, &m); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeAlreadyMember, "%s is already a member; change the role with PATCH", u.Username)
			}
			return err
		}
		if out, err = tx.MemberOf(ctx, m.WorkspaceID, m.UserID); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID,
			Action: "member.added", SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username, "role": in.Role}})
	}))
	return out, err
}

// RegradeMember changes a member's role. Nobody may touch a role above their
// own, and the last owner stays an owner.
func (s *Service) RegradeMember(ctx context.Context, a Actor, idOrSlug, username string, in Regrade) (Member, error) {
	if err := checkRole("body.role", in.Role); err != nil {
		return Member{}, err
	}
	var out Member
	err := s.store.Update(ctx, func(tx Tx) error {
		w, m, rank, err := s.memberToManage(ctx, tx, a, idOrSlug, username)
		if err != nil {
			return err
		}
		if rankOf(in.Role) > rank {
			return Errorf(CodeForbidden, "you cannot grant a role above your own")
		}
		if m.Role == in.Role {
			out = m
			return nil
		}
		if err := keepOneOwner(ctx, tx, m); err != nil {
			return err
		}
		from := m.Role
		m.Role = in.Role
		if err := tx.UpdateMember(ctx, &m); err != nil {
			return err
		}
		out = m
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID,
			Action: "member.regraded", SubjectType: "user", SubjectID: m.UserID,
			Changes: map[string]any{"username": m.User.Username, "role": map[string]any{"from": from, "to": in.Role}}})
	})
	return out, err
}

// RemoveMember takes an account out of a workspace. Anyone may leave; the
// last owner may not.
func (s *Service) RemoveMember(ctx context.Context, a Actor, idOrSlug, username string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		w, m, _, err := s.memberToManage(ctx, tx, a, idOrSlug, username)
		if err != nil {
			return err
		}
		if err := keepOneOwner(ctx, tx, m); err != nil {
			return err
		}
		if err := tx.DeleteMember(ctx, m.WorkspaceID, m.UserID); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID,
			Action: "member.removed", SubjectType: "user", SubjectID: m.UserID, Changes: map[string]any{"username": m.User.Username, "role": m.Role}})
	})
}

// memberToManage finds the member a caller wants to change and checks the
// caller outranks (or is) them.
func (s *Service) memberToManage(ctx context.Context, tx Tx, a Actor, idOrSlug, username string) (wsAccess, Member, int, error) {
	acc, err := accessOf(ctx, tx, a)
	if err != nil {
		return wsAccess{}, Member{}, 0, err
	}
	w, err := findWorkspace(ctx, tx, acc, idOrSlug, false)
	if err != nil {
		return wsAccess{}, Member{}, 0, err
	}
	u, err := tx.UserByName(ctx, username)
	if err != nil {
		return wsAccess{}, Member{}, 0, notFoundAs(err, "member")
	}
	m, err := tx.MemberOf(ctx, w.Workspace.ID, u.ID)
	if err != nil {
		return wsAccess{}, Member{}, 0, notFoundAs(err, "member")
	}
	if !a.system && u.ID == a.User.ID {
		return w, m, rankOf(m.Role), nil
	}
	rank, err := managerRank(acc, w)
	if err != nil {
		return wsAccess{}, Member{}, 0, err
	}
	if rankOf(m.Role) > rank {
		return wsAccess{}, Member{}, 0, Errorf(CodeForbidden, "%s holds a role above yours", u.Username)
	}
	return w, m, rank, nil
}

func keepOneOwner(ctx context.Context, tx Tx, m Member) error {
	if m.Role != RoleOwner {
		return nil
	}
	n, err := tx.CountRole(ctx, m.WorkspaceID, RoleOwner)
	if err != nil {
		return err
	}
	if n <= 1 {
		return Errorf(CodeLastOwner, "a workspace keeps at least one owner; make somebody else owner first")
	}
	return nil
}

// workerIn makes sure the account a credential pinned to workspace wsID is
// for can work there, so that the credential works as issued. A member
// already can. A service account that is not joins as the agent of the
// account it answers to, with that account's role there but never above
// member: an agent does the work, and running the workspace stays with
// people, who may regrade it. Joining is a grant, so the issuer must be
// one who may add that member. Anybody else, and an agent whose person is
// not a member either, is refused with what to do first.
func workerIn(ctx context.Context, tx Tx, acc *access, u User, wsID string) error {
	_, err := tx.MemberOf(ctx, wsID, u.ID)
	if CodeOf(err) != CodeNotFound {
		return err
	}
	w, err := tx.WorkspaceByID(ctx, wsID)
	if err != nil {
		return err
	}
	addFirst := func(who string) string {
		return "add " + who + " first: POST /v1/workspaces/" + w.Slug + `/members {"username": "` + who + `", "role": "member"}`
	}
	if !u.IsServiceAccount {
		return Errorf(CodeNotAMember, "%s is not a member of workspace %s, so a credential pinned there could do nothing; %s",
			u.Username, w.Slug, addFirst(u.Username))
	}
	boss, err := tx.MemberOf(ctx, wsID, u.AnswersToID)
	if CodeOf(err) == CodeNotFound {
		return Errorf(CodeNotAMember, "%s answers to %s, who is not a member of workspace %s; %s, and %s joins as their agent",
			u.Username, u.AnswersTo, w.Slug, addFirst(u.AnswersTo), u.Username)
	}
	if err != nil {
		return err
	}
	role := boss.Role
	if rankOf(role) > rankOf(RoleMember) {
		role = RoleMember
	}
	if !acc.actor.system {
		if rank, err := managerRank(acc, acc.workspaces[wsID]); err != nil || rankOf(role) > rank {
			return Errorf(CodeForbidden, "%s is not a member of workspace %s and joining it there needs %s with a role of at least %s; %s",
				u.Username, w.Slug, PermWorkspaceMembers, role, addFirst(u.Username))
		}
	}
	if err := tx.InsertMember(ctx, &Member{WorkspaceID: wsID, UserID: u.ID, Role: role, CreatedAt: tx.Now()}); err != nil {
		return err
	}
	return record(ctx, tx, acc.actor, Event{WorkspaceID: wsID, EntityType: "workspace", EntityID: wsID, Action: "member.added",
		SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username, "role": role}})
}
