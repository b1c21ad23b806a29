package app

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Workspace holds projects and everything filed in them. Deleting one moves
// it to the trash; restore brings it back.
type Workspace struct {
	ID        string
	Slug      string
	Name      string
	Timezone  string
	Settings  map[string]any
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt *time.Time
	Version   int
}

// WorkspaceView is a workspace as one caller sees it: with the caller's role
// and effective permissions there (both empty for an administrator who sees
// it only as the instance's administrator).
type WorkspaceView struct {
	Workspace
	Role        string
	Permissions []string
}

// WorkspaceOnInstance is a workspace in the administrator's instance-wide list.
type WorkspaceOnInstance struct {
	Workspace
	Members int
	Owners  []string
}

type workspaceTx interface {
	WorkspaceByID(ctx context.Context, id string) (Workspace, error)
	WorkspaceBySlug(ctx context.Context, slug string) (Workspace, error)
	InsertWorkspace(ctx context.Context, w *Workspace) error
	UpdateWorkspace(ctx context.Context, w *Workspace) error
	// InstanceWorkspaces lists every workspace, trashed ones too, oldest first.
	InstanceWorkspaces(ctx context.Context) ([]WorkspaceOnInstance, error)
}

// WorkspaceCreate is a new workspace (POST /v1/workspaces).
type WorkspaceCreate struct {
	Slug     string
	Name     string
	Timezone string
}

// WorkspaceUpdate is a change to a workspace: unset fields stay, null
// ones clear (PATCH /v1/workspaces/{id_or_slug}).
type WorkspaceUpdate struct {
	Slug            Patch[string]
	Name            Patch[string]
	Timezone        Patch[string]
	Settings        Patch[map[string]any]
	ExpectedVersion *int
}

func viewOf(w wsAccess) WorkspaceView {
	return WorkspaceView{Workspace: w.Workspace, Role: w.Role, Permissions: w.Perms}
}

// findWorkspace resolves a workspace the caller may act on. Members find
// theirs; an instance administrator finds any, with no role in it. Anything
// else answers not_found.
func findWorkspace(ctx context.Context, tx Tx, acc *access, idOrSlug string, trashed bool) (wsAccess, error) {
	if w, err := acc.workspace(idOrSlug, trashed); err == nil || !acc.can(PermInstanceAdmin) {
		return w, err
	}
	w, err := workspaceByRef(ctx, tx, idOrSlug)
	// A credential pinned to one workspace reaches no other, even an administrator's.
	pinned := acc.actor.Token != nil && acc.actor.Token.WorkspaceID != "" && acc.actor.Token.WorkspaceID != w.ID
	if err != nil {
		return wsAccess{}, notFoundAs(err, "workspace")
	}
	if (w.DeletedAt != nil) != trashed || pinned {
		return wsAccess{}, NotFound("workspace")
	}
	return wsAccess{Workspace: w}, nil
}

func workspaceByRef(ctx context.Context, tx Tx, idOrSlug string) (Workspace, error) {
	if _, err := uuid.Parse(idOrSlug); err == nil {
		return tx.WorkspaceByID(ctx, idOrSlug)
	}
	return tx.WorkspaceBySlug(ctx, idOrSlug)
}

// Workspaces lists the workspaces the caller belongs to (and its credential
// reaches), or with deleted set only those in the trash.
func (s *Service) Workspaces(ctx context.Context, a Actor, deleted bool) ([]WorkspaceView, error) {
	out := []WorkspaceView{}
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		for _, id := range acc.order {
			w := acc.workspaces[id]
			if (w.Workspace.DeletedAt != nil) == deleted && w.can(PermWorkspaceRead) {
				out = append(out, viewOf(w))
			}
		}
		return nil
	}))
	return out, err
}

// Workspace returns one workspace by id or slug.
func (s *Service) Workspace(ctx context.Context, a Actor, idOrSlug string) (WorkspaceView, error) {
	var out WorkspaceView
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := findWorkspace(ctx, tx, acc, idOrSlug, false)
		out = viewOf(w)
		return err
	}))
	return out, err
}

// CreateWorkspace creates a workspace with the default vocabularies and an
// inbox project; the creator becomes its owner.
func (s *Service) CreateWorkspace(ctx context.Context, a Actor, in WorkspaceCreate) (WorkspaceView, error) {
	in.Slug = strings.ToLower(strings.TrimSpace(in.Slug))
	errs := []error{checkSlug("body.slug", in.Slug), s.checkTitle("body.name", in.Name)}
	if in.Timezone != "" {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone))
	}
	if err := joinErrors(errs...); err != nil {
		return WorkspaceView{}, err
	}
	var out WorkspaceView
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		if err := acc.require(PermWorkspaceCreate); err != nil {
			return err
		}
		if a.Token != nil && a.Token.WorkspaceID != "" {
			return Errorf(CodeForbidden, "a credential pinned to one workspace cannot create another")
		}
		w, err := createWorkspace(ctx, tx, a, in)
		if err != nil {
			return err
		}
		role, _ := RoleByKey(RoleOwner)
		out = WorkspaceView{Workspace: w, Role: RoleOwner, Permissions: narrowTo(role.Permissions, a.scopes())}
		return nil
	}))
	return out, err
}

// createWorkspace inserts a workspace, seeds it and makes a.User its owner.
func createWorkspace(ctx context.Context, tx Tx, a Actor, in WorkspaceCreate) (Workspace, error) {
	if in.Timezone == "" {
		inst, err := tx.Instance(ctx)
		if err != nil {
			return Workspace{}, err
		}
		in.Timezone = inst.Timezone
	}
	now := tx.Now()
	w := Workspace{ID: newID(), Slug: in.Slug, Name: strings.TrimSpace(in.Name), Timezone: in.Timezone,
		CreatedAt: now, UpdatedAt: now, Version: 1}
	if err := tx.InsertWorkspace(ctx, &w); err != nil {
		if CodeOf(err) == CodeConflict {
			return Workspace{}, Errorf(CodeConflict, "the slug %q is taken", in.Slug)
		}
		return Workspace{}, err
	}
	if err := tx.InsertMember(ctx, &Member{WorkspaceID: w.ID, UserID: a.User.ID, Role: RoleOwner, CreatedAt: now}); err != nil {
		return Workspace{}, err
	}
	if err := seedWorkspace(ctx, tx, w, a.User.ID); err != nil {
		return Workspace{}, err
	}
	if err := record(ctx, tx, a, Event{WorkspaceID: w.ID, EntityType: "workspace", EntityID: w.ID, Action: "workspace.created",
		Changes: map[string]any{"slug": w.Slug, "name": w.Name, "timezone": w.Timezone}}); err != nil {
		return Workspace{}, err
	}
	// The creator's membership is recorded like any other, so the
	// workspace's events tell who has belonged to it from the start.
	return w, record(ctx, tx, a, Event{WorkspaceID: w.ID, EntityType: "workspace", EntityID: w.ID, Action: "member.added",
		SubjectType: "user", SubjectID: a.User.ID, Changes: map[string]any{"username": a.User.Username, "role": RoleOwner}})
}

// UpdateWorkspace renames a workspace or changes its slug or timezone.
func (s *Service) UpdateWorkspace(ctx context.Context, a Actor, idOrSlug string, in WorkspaceUpdate) (WorkspaceView, error) {
	var errs []error
	if in.Slug.Set {
		in.Slug.Value = strings.ToLower(strings.TrimSpace(in.Slug.Value))
		errs = append(errs, checkSlug("body.slug", in.Slug.Value))
	}
	if in.Name.Set {
		errs = append(errs, s.checkTitle("body.name", in.Name.Value))
	}
	if in.Timezone.Set {
		errs = append(errs, checkTimezone("body.timezone", in.Timezone.Value))
	}
	if in.Settings.Set {
		errs = append(errs, s.checkSettings("body.settings", in.Settings.Value))
	}
	if err := joinErrors(errs...); err != nil {
		return WorkspaceView{}, err
	}
	var out WorkspaceView
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := acc.workspace(idOrSlug, false)
		if err != nil {
			return err
		}
		if err := w.require(PermWorkspaceWrite); err != nil {
			return err
		}
		if err := checkVersion(in.ExpectedVersion, w.Workspace.Version); err != nil {
			return err
		}
		changes := map[string]any{}
		ws := &w.Workspace
		setChange(changes, "slug", &ws.Slug, in.Slug)
		setChange(changes, "name", &ws.Name, in.Name)
		setChange(changes, "timezone", &ws.Timezone, in.Timezone)
		if in.Settings.Set && len(in.Settings.Value) > 0 {
			ws.Settings = mergedSettings(ws.Settings, in.Settings.Value)
			changes["settings"] = in.Settings.Value
		}
		out = viewOf(w)
		if len(changes) == 0 {
			return nil
		}
		ws.UpdatedAt = tx.Now()
		ws.Version++
		if err := tx.UpdateWorkspace(ctx, ws); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeConflict, "the slug %q is taken", ws.Slug)
			}
			return err
		}
		out = viewOf(w)
		return record(ctx, tx, a, Event{WorkspaceID: ws.ID, EntityType: "workspace", EntityID: ws.ID, Action: "workspace.updated", Changes: changes})
	}))
	return out, err
}

// DeleteWorkspace moves a workspace to the trash and returns it.
func (s *Service) DeleteWorkspace(ctx context.Context, a Actor, idOrSlug string) (WorkspaceView, error) {
	return s.trashWorkspace(ctx, a, idOrSlug, true)
}

// RestoreWorkspace brings a workspace back from the trash.
func (s *Service) RestoreWorkspace(ctx context.Context, a Actor, idOrSlug string) (WorkspaceView, error) {
	return s.trashWorkspace(ctx, a, idOrSlug, false)
}

func (s *Service) trashWorkspace(ctx context.Context, a Actor, idOrSlug string, trash bool) (WorkspaceView, error) {
	var out WorkspaceView
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := acc.workspace(idOrSlug, !trash)
		if err != nil {
			return err
		}
		if err := w.require(PermWorkspaceDelete); err != nil {
			return err
		}
		now := tx.Now()
		action := "workspace.restored"
		w.Workspace.DeletedAt = nil
		if trash {
			w.Workspace.DeletedAt, action = &now, "workspace.deleted"
		}
		w.Workspace.UpdatedAt = now
		w.Workspace.Version++
		if err := tx.UpdateWorkspace(ctx, &w.Workspace); err != nil {
			return err
		}
		out = viewOf(w)
		return record(ctx, tx, a, Event{WorkspaceID: w.Workspace.ID, EntityType: "workspace", EntityID: w.Workspace.ID, Action: action})
	}))
	return out, err
}
