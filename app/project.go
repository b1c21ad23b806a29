package app

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Project is a node in a workspace's project tree. Every workspace has one
// inbox project, where work lands when no project is named.
type Project struct {
	ID             string
	WorkspaceID    string
	Key            string
	Title          string
	Description    string
	ParentID       string
	Visibility     string
	IsInbox        bool
	OwnerID        string
	StatusID       string
	Colour         string
	Settings       map[string]any
	HiddenStatuses []string
	CreatedBy      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeletedAt      *time.Time
	ArchivedAt     *time.Time
	Version        int
}

// clone copies a project deeply enough to change the copy. The projects of
// a scope are shared between requests (the store caches them with the trees
// resolved from them), so a write changes a clone, never the shared row.
func (p Project) clone() Project {
	p.Settings = maps.Clone(p.Settings)
	p.HiddenStatuses = slices.Clone(p.HiddenStatuses)
	if p.DeletedAt != nil {
		at := *p.DeletedAt
		p.DeletedAt = &at
	}
	if p.ArchivedAt != nil {
		at := *p.ArchivedAt
		p.ArchivedAt = &at
	}
	return p
}

// ProjectView is a project as one caller sees it, with its place in the tree
// and its status resolved.
type ProjectView struct {
	Project
	Path   string
	Depth  int
	Status Status
}

type projectTx interface {
	// OpenTaskCounts counts the open, live tasks of each project among
	// readable (a JSON array of ids), by project id.
	OpenTaskCounts(ctx context.Context, workspaceID, readable string) (map[string]int, error)
	InsertProject(ctx context.Context, p *Project) error
	UpdateProject(ctx context.Context, p *Project) error
	ProjectByID(ctx context.Context, id string) (Project, error)
	ProjectByKey(ctx context.Context, workspaceID, key string) (Project, error)
	// ProjectAncestors lists the ids above a project, nearest first.
	ProjectAncestors(ctx context.Context, id string) ([]string, error)
	// SetProjectsDeleted sets deleted_at on the given projects (nil restores).
	SetProjectsDeleted(ctx context.Context, ids []string, at *time.Time, now time.Time) error
	ProjectMembers(ctx context.Context, projectID string) ([]ProjectMember, error)
	InsertProjectMember(ctx context.Context, projectID, userID string, at time.Time) error
	DeleteProjectMember(ctx context.Context, projectID, userID string) error
	ProjectRoles(ctx context.Context, projectID string) ([]ProjectRole, error)
	SetProjectRole(ctx context.Context, r ProjectRole, at time.Time) error
	DeleteProjectRole(ctx context.Context, projectID, userID string) error
	// ProjectItemCount counts live tasks filed in a project.
	ProjectItemCount(ctx context.Context, projectID string) (int, error)
}

// ProjectMember grants sight of a project; it carries no role.
type ProjectMember struct {
	ProjectID  string
	ProjectKey string
	User       User
	CreatedAt  time.Time
}

// ProjectCreate is a new project. The JSON API reads it from
// wire.ProjectCreate (POST /v1/projects).
type ProjectCreate struct {
	Key         string
	Title       string
	Description string
	Parent      string
	Visibility  string
	Status      string
	Colour      string
	Settings    map[string]any
}

// ProjectUpdate is a change to a project: unset fields stay, null ones
// clear. The key is permanent. The JSON API reads it from
// wire.ProjectUpdate (PATCH /v1/projects/{id_or_key}).
type ProjectUpdate struct {
	Key             Patch[string]
	Title           Patch[string]
	Description     Patch[string]
	Parent          Patch[string]
	Visibility      Patch[string]
	Status          Patch[string]
	Colour          Patch[string]
	Settings        Patch[map[string]any]
	HiddenStatuses  Patch[[]string]
	ExpectedVersion *int
}

var (
	projectKeyRe = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)
	colourRe     = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)
)

func checkProjectKey(loc, key string) error {
	if !projectKeyRe.MatchString(key) {
		return Invalidf(loc, "a project key is 1-32 lower-case letters, digits, '_' or '-', starting with a letter")
	}
	return nil
}

// checkColour accepts a colour written #rrggbb.
func checkColour(loc, c string) error {
	if !colourRe.MatchString(c) {
		return Invalidf(loc, "a colour is #rrggbb")
	}
	return nil
}

func checkVisibility(loc, v string) error {
	if v != "public" && v != "private" {
		return Invalidf(loc, "visibility is public or private")
	}
	return nil
}

func (s *Service) validateProjectCreate(in *ProjectCreate) error {
	if in.Visibility == "" {
		in.Visibility = "public"
	}
	errs := []error{checkProjectKey("body.key", in.Key), s.checkTitle("body.title", in.Title),
		checkVisibility("body.visibility", in.Visibility), s.checkText("body.description", in.Description, s.limits.MaxDescriptionLength),
		s.checkSettings("body.settings", in.Settings)}
	if in.Colour != "" {
		errs = append(errs, checkColour("body.colour", in.Colour))
	}
	return joinErrors(errs...)
}

// CreateProject creates a project, at top level or inside another. The
// creator owns it and holds its first member row.
func (s *Service) CreateProject(ctx context.Context, a Actor, workspace string, in ProjectCreate) (ProjectView, error) {
	if err := s.validateProjectCreate(&in); err != nil {
		return ProjectView{}, err
	}
	var out ProjectView
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		out, err = s.createProject(ctx, tx, a, sc, in)
		return err
	}))
	return out, err
}

// createProject creates a project in sc's workspace from a checked in.
func (s *Service) createProject(ctx context.Context, tx Tx, a Actor, sc *scope, in ProjectCreate) (ProjectView, error) {
	p := Project{ID: newID(), WorkspaceID: sc.ws.Workspace.ID, Key: in.Key, Title: strings.TrimSpace(in.Title),
		Description: in.Description, Visibility: in.Visibility, OwnerID: a.User.ID, Colour: in.Colour,
		Settings: in.Settings, HiddenStatuses: []string{}, CreatedBy: a.User.ID, CreatedAt: tx.Now(), UpdatedAt: tx.Now(), Version: 1}
	if p.Settings == nil {
		p.Settings = map[string]any{}
	}
	if err := s.placeNewProject(sc, &p, in.Parent); err != nil {
		return ProjectView{}, err
	}
	st, err := statusFor(ctx, tx, sc.ws.Workspace.ID, "project", in.Status, "body.status")
	if err != nil {
		return ProjectView{}, err
	}
	p.StatusID = st.ID
	if err := tx.InsertProject(ctx, &p); err != nil {
		if CodeOf(err) == CodeConflict {
			return ProjectView{}, Errorf(CodeConflict, "the key %q is taken in this workspace (keys are permanent, trashed projects keep theirs)", in.Key)
		}
		return ProjectView{}, err
	}
	if err := tx.InsertProjectMember(ctx, p.ID, a.User.ID, tx.Now()); err != nil {
		return ProjectView{}, err
	}
	if err := record(ctx, tx, a, Event{WorkspaceID: p.WorkspaceID, EntityType: "project", EntityID: p.ID, Action: "project.created",
		Changes: map[string]any{"key": p.Key, "title": p.Title, "visibility": p.Visibility}}); err != nil {
		return ProjectView{}, err
	}
	return projectView(ctx, tx, a, sc.ws.Workspace.ID, p.ID)
}

// placeNewProject checks the caller may create a project where asked and
// that the tree stays within max_hierarchy_depth.
func (s *Service) placeNewProject(sc *scope, p *Project, parent string) error {
	if parent == "" {
		return sc.ws.require(PermProjectWrite)
	}
	par, err := sc.project(parent)
	if err != nil {
		return bodyRef(err, "body.parent", "no such project: "+parent)
	}
	if err := par.requireWrite(); err != nil {
		return err
	}
	if par.Depth+1 >= s.limits.MaxHierarchyDepth {
		return Invalidf("body.parent", "projects nest at most %d deep", s.limits.MaxHierarchyDepth)
	}
	p.ParentID = par.ID
	return nil
}

// projectView re-reads a project after a write and resolves it for the caller.
func projectView(ctx context.Context, tx Tx, a Actor, workspaceID, id string) (ProjectView, error) {
	sc, err := inWorkspace(ctx, tx, a, workspaceID)
	if err != nil {
		return ProjectView{}, err
	}
	n := sc.byID[id]
	if n == nil {
		return ProjectView{}, NotFound("project")
	}
	return viewProject(ctx, tx, n)
}

func viewProject(ctx context.Context, tx Tx, n *projectNode) (ProjectView, error) {
	st, err := tx.StatusByID(ctx, n.StatusID)
	return ProjectView{Project: n.Project, Path: n.Path, Depth: n.Depth, Status: st}, err
}

// Projects lists the projects the caller can see in tree order, or with
// deleted set those in the trash.
func (s *Service) Projects(ctx context.Context, a Actor, workspace string, deleted bool) ([]ProjectView, error) {
	out := []ProjectView{}
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		sts, err := statusMap(ctx, tx, sc.ws.Workspace.ID)
		if err != nil {
			return err
		}
		for _, n := range sc.ordered {
			if (deleted && n.visibleTrashed() && n.DeletedAt != nil) || (!deleted && n.visible()) {
				out = append(out, ProjectView{Project: n.Project, Path: n.Path, Depth: n.Depth, Status: sts[n.StatusID]})
			}
		}
		return nil
	}))
	return out, err
}

// ProjectGet returns one project by id or key.
func (s *Service) ProjectGet(ctx context.Context, a Actor, workspace, idOrKey string) (ProjectView, error) {
	var out ProjectView
	err := s.store.View(ctx, withFound(ctx, a, workspace, idOrKey, findProject, func(tx Tx, sc *scope, n *projectNode) (err error) {
		_ = sc
		out, err = viewProject(ctx, tx, n)
		return err
	}))
	return out, err
}

// findProject resolves a project by id (in whatever workspace holds it) or
// by key (in the workspace named, or the only one).
func findProject(ctx context.Context, tx Tx, a Actor, workspace, idOrKey string) (*scope, *projectNode, error) {
	sc, err := projectWorkspace(ctx, tx, a, workspace, idOrKey)
	if err != nil {
		return nil, nil, err
	}
	n, err := sc.project(idOrKey)
	return sc, n, err
}

// writableProject finds a project the caller may change.
func writableProject(ctx context.Context, tx Tx, a Actor, workspace, idOrKey string) (*scope, *projectNode, error) {
	sc, n, err := findProject(ctx, tx, a, workspace, idOrKey)
	if err == nil {
		err = n.requireWrite()
	}
	return sc, n, err
}

// projectWorkspace opens the scope a project reference is resolved in: the
// workspace holding the project when it is named by id, else the one named
// (or the only one).
func projectWorkspace(ctx context.Context, tx Tx, a Actor, workspace, idOrKey string) (*scope, error) {
	if workspace == "" {
		if _, err := uuid.Parse(idOrKey); err == nil {
			p, err := tx.ProjectByID(ctx, idOrKey)
			if err != nil {
				return nil, notFoundAs(err, "project")
			}
			workspace = p.WorkspaceID
		}
	}
	sc, err := inWorkspace(ctx, tx, a, workspace)
	if CodeOf(err) == CodeNotFound && workspace != "" {
		// An id in a workspace the caller cannot reach answers like an unknown id.
		return nil, NotFound("project")
	}
	return sc, err
}

// UpdateProject changes a project's title, description, visibility, status,
// colour, settings or hidden statuses; a parent moves it. The key is permanent.
func (s *Service) UpdateProject(ctx context.Context, a Actor, workspace, idOrKey string, in ProjectUpdate) (ProjectView, error) {
	if err := s.validateProjectUpdate(in); err != nil {
		return ProjectView{}, err
	}
	var out ProjectView
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrKey, findProject, func(tx Tx, sc *scope, n *projectNode) (err error) {
		out, err = s.updateProject(ctx, tx, a, sc, n, in)
		return err
	}))
	return out, err
}

// updateProject applies a checked in to the project n of sc.
func (s *Service) updateProject(ctx context.Context, tx Tx, a Actor, sc *scope, n *projectNode, in ProjectUpdate) (ProjectView, error) {
	if err := n.requireWrite(); err != nil {
		return ProjectView{}, err
	}
	if err := checkVersion(in.ExpectedVersion, n.Version); err != nil {
		return ProjectView{}, err
	}
	if n.IsInbox && in.Visibility.Set && in.Visibility.Value != "public" {
		return ProjectView{}, Errorf(CodeInboxProtected, "the inbox is where everyone's unfiled work lands; it stays public")
	}
	p := n.Project.clone()
	changes, err := applyProjectUpdate(ctx, tx, &p, in)
	if err != nil {
		return ProjectView{}, err
	}
	if in.Parent.Set {
		if p.ParentID, err = s.moveProject(sc, n, in.Parent); err != nil {
			return ProjectView{}, err
		}
		changes["parent"] = in.Parent.Value
	}
	if len(changes) > 0 {
		p.UpdatedAt, p.Version = tx.Now(), p.Version+1
		if err := tx.UpdateProject(ctx, &p); err != nil {
			return ProjectView{}, err
		}
		if err := record(ctx, tx, a, Event{WorkspaceID: p.WorkspaceID, EntityType: "project", EntityID: p.ID,
			Action: "project.updated", Changes: changes}); err != nil {
			return ProjectView{}, err
		}
	}
	return projectView(ctx, tx, a, p.WorkspaceID, p.ID)
}

func (s *Service) validateProjectUpdate(in ProjectUpdate) error {
	var errs []error
	if in.Key.Set {
		errs = append(errs, Invalidf("body.key", "a project's key is permanent"))
	}
	if in.Title.Set {
		errs = append(errs, s.checkTitle("body.title", in.Title.Value))
	}
	if in.Visibility.Set {
		errs = append(errs, checkVisibility("body.visibility", in.Visibility.Value))
	}
	if in.Description.Set {
		errs = append(errs, s.checkText("body.description", in.Description.Value, s.limits.MaxDescriptionLength))
	}
	if in.Colour.Set && !in.Colour.Null {
		errs = append(errs, checkColour("body.colour", in.Colour.Value))
	}
	if in.Settings.Set {
		errs = append(errs, s.checkSettings("body.settings", in.Settings.Value))
	}
	if in.HiddenStatuses.Set {
		errs = append(errs, checkCount("body.hidden_statuses", len(in.HiddenStatuses.Value), s.limits.MaxHiddenStatuses, "max_hidden_statuses"))
		for _, k := range in.HiddenStatuses.Value {
			errs = append(errs, s.checkText("body.hidden_statuses", k, 64))
		}
	}
	return joinErrors(errs...)
}

func applyProjectUpdate(ctx context.Context, tx Tx, p *Project, in ProjectUpdate) (map[string]any, error) {
	changes := map[string]any{}
	setChange(changes, "title", &p.Title, in.Title)
	setChange(changes, "visibility", &p.Visibility, in.Visibility)
	if in.Description.Set {
		setChange(changes, "description", &p.Description, Patch[string]{Set: true, Value: in.Description.Value})
	}
	if in.Colour.Set {
		setChange(changes, "colour", &p.Colour, Patch[string]{Set: true, Value: in.Colour.Value})
	}
	if in.Status.Set {
		st, err := statusFor(ctx, tx, p.WorkspaceID, "project", in.Status.Value, "body.status")
		if err != nil {
			return nil, err
		}
		id := st.ID
		if id != p.StatusID {
			changes["status"] = in.Status.Value
			p.StatusID = id
		}
	}
	if in.Settings.Set {
		base := p.Settings
		if in.Settings.Null {
			base = nil
		}
		p.Settings = mergedSettings(base, in.Settings.Value)
		changes["settings"] = in.Settings.Value
	}
	if in.HiddenStatuses.Set {
		p.HiddenStatuses = append([]string{}, in.HiddenStatuses.Value...)
		changes["hidden_statuses"] = p.HiddenStatuses
	}
	return changes, nil
}

// MoveProject re-parents a project with its whole subtree; nil parent moves
// it to the top level.
func (s *Service) MoveProject(ctx context.Context, a Actor, workspace, idOrKey string, parent Patch[string]) (ProjectView, error) {
	var out ProjectView
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrKey, writableProject, func(tx Tx, sc *scope, n *projectNode) (err error) {
		from := n.ParentID
		p := n.Project.clone()
		if p.ParentID, err = s.moveProject(sc, n, parent); err != nil {
			return err
		}
		p.UpdatedAt, p.Version = tx.Now(), p.Version+1
		if err := tx.UpdateProject(ctx, &p); err != nil {
			return err
		}
		if err := record(ctx, tx, a, Event{WorkspaceID: p.WorkspaceID, EntityType: "project", EntityID: p.ID, Action: "project.moved",
			Changes: map[string]any{"parent": map[string]any{"from": from, "to": p.ParentID}}}); err != nil {
			return err
		}
		out, err = projectView(ctx, tx, a, p.WorkspaceID, p.ID)
		return err
	}))
	return out, err
}

// moveProject checks a new parent for the node (no cycle, the caller may
// write where it lands, the tree stays within depth) and answers its id,
// "" for the top level. The node is left alone: trees are shared between
// requests (see scopeOf).
func (s *Service) moveProject(sc *scope, n *projectNode, parent Patch[string]) (string, error) {
	if parent.Null || parent.Value == "" {
		return "", sc.ws.require(PermProjectWrite)
	}
	if n.IsInbox {
		// Under another project, trashing that project would take the inbox with it.
		return "", Errorf(CodeInboxProtected, "the inbox stays at the top level; it cannot be moved under another project")
	}
	par, err := sc.project(parent.Value)
	if err != nil {
		return "", bodyRef(err, "body.parent", "no such project: "+parent.Value)
	}
	if err := par.requireWrite(); err != nil {
		return "", err
	}
	for x := par; x != nil; x = x.parent {
		if x.ID == n.ID {
			return "", FieldErrorf(CodeCycle, "body.parent", "%s is inside %s; a project cannot move under itself", par.Path, n.Path)
		}
	}
	height := 0
	for _, d := range n.subtree() {
		height = max(height, d.Depth-n.Depth)
	}
	if par.Depth+1+height >= s.limits.MaxHierarchyDepth {
		return "", Invalidf("body.parent", "projects nest at most %d deep", s.limits.MaxHierarchyDepth)
	}
	return par.ID, nil
}

// DeleteProject moves a project and everything under it to the trash; the
// items filed in them leave the visible world with them.
func (s *Service) DeleteProject(ctx context.Context, a Actor, workspace, idOrKey string) (ProjectView, error) {
	var out ProjectView
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrKey, writableProject, func(tx Tx, _ *scope, n *projectNode) (err error) {
		if n.IsInbox {
			return Errorf(CodeInboxProtected, "the inbox is where unfiled work lands; it cannot be trashed or moved away")
		}
		now := tx.Now()
		var ids []string
		for _, d := range n.subtree() {
			if d.DeletedAt == nil {
				ids = append(ids, d.ID)
			}
		}
		if err := tx.SetProjectsDeleted(ctx, ids, &now, now); err != nil {
			return err
		}
		if err := record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID, Action: "project.deleted",
			Changes: map[string]any{"projects": len(ids)}}); err != nil {
			return err
		}
		trashed := *n
		trashed.Project = n.Project.clone()
		trashed.DeletedAt = &now
		out, err = viewProject(ctx, tx, &trashed)
		out.Version++
		return err
	}))
	return out, err
}

// RestoreProject brings a project back from the trash with everything that
// was trashed with it.
func (s *Service) RestoreProject(ctx context.Context, a Actor, workspace, idOrKey string) (ProjectView, error) {
	var out ProjectView
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, err := projectWorkspace(ctx, tx, a, workspace, idOrKey)
		if err != nil {
			return err
		}
		n, err := sc.trashedProject(idOrKey)
		if err != nil {
			return notFoundAs(err, "project")
		}
		if n.DeletedAt == nil {
			return NotFound("project")
		}
		if err := n.requireWrite(); err != nil {
			return err
		}
		if n.parent != nil && n.parent.trashed {
			return Errorf(CodeConflict, "%s is inside a project in the trash; restore that one first", n.Path)
		}
		var ids []string
		for _, d := range n.subtree() {
			if d.DeletedAt != nil && d.DeletedAt.Equal(*n.DeletedAt) {
				ids = append(ids, d.ID)
			}
		}
		if err := tx.SetProjectsDeleted(ctx, ids, nil, tx.Now()); err != nil {
			return err
		}
		if err := record(ctx, tx, a, Event{WorkspaceID: n.WorkspaceID, EntityType: "project", EntityID: n.ID, Action: "project.restored",
			Changes: map[string]any{"projects": len(ids)}}); err != nil {
			return err
		}
		out, err = projectView(ctx, tx, a, n.WorkspaceID, n.ID)
		return err
	})
	return out, err
}

var keyJunk = regexp.MustCompile(`[^a-z0-9_-]+`)

// freeKey makes a project key from a title that no project of the
// workspace has, for a project whose maker names it but gives no key (an
// import, a task app's new list): lower case, runs of anything else as
// '-', a numbered suffix when taken.
func (sc *scope) freeKey(title string) string {
	base := strings.Trim(keyJunk.ReplaceAllString(strings.ToLower(title), "-"), "-_")
	if base == "" || base[0] < 'a' || base[0] > 'z' {
		base = "p-" + base
	}
	base = strings.TrimRight(base, "-")
	if len(base) > 28 {
		base = strings.TrimRight(base[:28], "-_")
	}
	key := base
	for i := 2; sc.byKey[key] != nil; i++ {
		key = fmt.Sprintf("%s-%d", base, i)
	}
	return key
}
