package app

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// View is a saved listing: a person's filters and order of the task
// listing under a name, in one workspace. Its owner alone changes it;
// shared, everyone in the workspace sees it and lists through it, each
// seeing only the tasks they may see.
type View struct {
	ID          string
	WorkspaceID string
	UserID      string
	Username    string // the owner's
	Name        string
	// Query is the listing's filters and order (GET /v1/tasks); its
	// paging fields (limit, cursor, grouping, totals) are always zero.
	Query     TaskListQuery
	Shared    bool
	Version   int
	CreatedAt time.Time
	UpdatedAt time.Time
	// Count is how many tasks the reader sees through the view, up to
	// ViewCountCap, where a read answers it; nil when the view's filters
	// no longer resolve (a status or project gone, or out of the reader's
	// sight). CountCapped says more match than Count: it stopped at the cap.
	Count       *int
	CountCapped bool
}

// ViewCreate is a view to save (POST /v1/views).
type ViewCreate struct {
	Name   string
	Query  TaskListQuery
	Shared bool
}

// ViewUpdate changes a view (PATCH /v1/views/{id}); nil fields stay.
type ViewUpdate struct {
	Name            *string
	Query           *TaskListQuery
	Shared          *bool
	ExpectedVersion *int
}

// ViewCountCap is where a view's count stops: past it a view answers
// ViewCountCap with CountCapped. Counting stops reading one task past it,
// so the top bar's counts cost little however many tasks a view selects.
const ViewCountCap = 100

// maxViews bounds one person's views in a workspace, so the navigation
// that counts them stays cheap.
const maxViews = 50

type viewTx interface {
	InsertView(ctx context.Context, v *View) error
	// ViewByID reads a view by id in a workspace.
	ViewByID(ctx context.Context, workspaceID, id string) (View, error)
	// Views lists the views userID owns in a workspace and those shared
	// there, by name (the owner's first on a tie).
	Views(ctx context.Context, workspaceID, userID string) ([]View, error)
	// CountViews counts the views userID owns in a workspace.
	CountViews(ctx context.Context, workspaceID, userID string) (int, error)
	UpdateView(ctx context.Context, v *View) error
	DeleteView(ctx context.Context, id string) error
}

// Views lists the caller's views in a workspace and those shared there,
// each with the count of tasks the caller sees through it.
func (s *Service) Views(ctx context.Context, a Actor, workspace string) ([]View, error) {
	var out []View
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		if err := sc.ws.require(PermItemRead); err != nil {
			return err
		}
		out, err = s.viewsIn(ctx, tx, sc)
		return err
	}))
	return out, err
}

// Frame is what every page shows around its content for one person in one
// workspace: the saved views of the top bar, with their counts, and
// whether the bar links to the People page.
type Frame struct {
	Views []View
	// People is whether the person may manage the workspace's people, or
	// every workspace's as an instance admin.
	People bool
}

// Frame reads a page's frame in one read. A workspace the person cannot
// see leaves only what the instance grants: an instance admin still
// manages people.
func (s *Service) Frame(ctx context.Context, a Actor, workspace string) (Frame, error) {
	var out Frame
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		out.People = acc.can(PermInstanceAdmin)
		w, err := acc.pick(workspace)
		if err != nil {
			if isRefusal(err) {
				return nil
			}
			return err
		}
		out.People = out.People || w.can(PermWorkspaceMembers)
		if !w.can(PermItemRead) {
			return nil
		}
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return err
		}
		out.Views, err = s.viewsIn(ctx, tx, sc)
		return err
	}))
	return out, err
}

// viewsIn reads the person's views and those shared in sc's workspace, and
// counts each.
func (s *Service) viewsIn(ctx context.Context, tx Tx, sc *scope) ([]View, error) {
	out, err := tx.Views(ctx, sc.ws.Workspace.ID, sc.acc.actor.User.ID)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if err := s.countView(ctx, tx, sc, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// countView counts the open work v's filters select as sc sees it, up to
// ViewCountCap; no count when the filters no longer resolve for sc.
func (s *Service) countView(ctx context.Context, tx Tx, sc *scope, v *View) error {
	q, err := s.listingQuery(ctx, tx, sc, v.Query)
	if err != nil {
		if isRefusal(err) {
			return nil
		}
		return err
	}
	// One past the cap tells exactly the cap from more.
	q.Limit = ViewCountCap + 1
	n, err := tx.CountTasks(ctx, q)
	if err != nil {
		return err
	}
	v.CountCapped = n > ViewCountCap
	n = min(n, ViewCountCap)
	v.Count = &n
	return nil
}

// isRefusal reports whether err is the caller's mistake rather than a
// failure to read.
func isRefusal(err error) bool {
	switch CodeOf(err) {
	case CodeValidation, CodeNotFound, CodeForbidden:
		return true
	}
	return false
}

// ViewGet answers one view the caller sees, by id or name.
func (s *Service) ViewGet(ctx context.Context, a Actor, workspace, idOrName string) (View, error) {
	var out View
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		out, err = viewIn(ctx, tx, sc, idOrName)
		if err == nil {
			err = s.countView(ctx, tx, sc, &out)
		}
		return err
	}))
	return out, err
}

// viewIn finds a view the caller sees: its own, or one shared in the
// workspace, by id, else by name, the caller's own name first. Another's
// private view answers as one that does not exist.
func viewIn(ctx context.Context, tx Tx, sc *scope, idOrName string) (View, error) {
	if err := sc.ws.require(PermItemRead); err != nil {
		return View{}, err
	}
	me := sc.acc.actor.User.ID
	v, err := tx.ViewByID(ctx, sc.ws.Workspace.ID, idOrName)
	if err == nil && (v.Shared || v.UserID == me) {
		return v, nil
	}
	if err != nil && CodeOf(err) != CodeNotFound {
		return View{}, err
	}
	vs, err := tx.Views(ctx, sc.ws.Workspace.ID, me)
	if err != nil {
		return View{}, err
	}
	var shared *View
	for i, v := range vs {
		if !strings.EqualFold(v.Name, idOrName) {
			continue
		}
		if v.UserID == me {
			return v, nil
		}
		if shared == nil {
			shared = &vs[i]
		}
	}
	if shared != nil {
		return *shared, nil
	}
	return View{}, Errorf(CodeNotFound, "no view %q", idOrName)
}

// ownView finds a view the caller may change: its own. Another's shared
// view is forbidden, as another's comment is; another's private view is
// not found.
func ownView(ctx context.Context, tx Tx, sc *scope, idOrName string) (View, error) {
	v, err := viewIn(ctx, tx, sc, idOrName)
	if err == nil && v.UserID != sc.acc.actor.User.ID {
		err = Errorf(CodeForbidden, "view %q is %s's; only its owner changes it", v.Name, v.Username)
	}
	return v, err
}

// CreateView saves a listing's filters and order under a name.
func (s *Service) CreateView(ctx context.Context, a Actor, workspace string, in ViewCreate) (View, error) {
	name := strings.TrimSpace(in.Name)
	if err := joinErrors(s.checkTitle("body.name", name), checkViewQuery(in.Query)); err != nil {
		return View{}, err
	}
	var out View
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		if err := sc.ws.require(PermItemRead); err != nil {
			return err
		}
		n, err := tx.CountViews(ctx, sc.ws.Workspace.ID, sc.acc.actor.User.ID)
		if err != nil {
			return err
		}
		if err := checkCount("body.name", n+1, maxViews, "views per person in a workspace"); err != nil {
			return err
		}
		if _, err := s.listingQuery(ctx, tx, sc, in.Query); err != nil {
			return err
		}
		now := tx.Now()
		out = View{ID: newID(), WorkspaceID: sc.ws.Workspace.ID, UserID: sc.acc.actor.User.ID, Username: sc.acc.actor.User.Username,
			Name: name, Query: viewQuery(in.Query), Shared: in.Shared, Version: 1, CreatedAt: now, UpdatedAt: now}
		if err := tx.InsertView(ctx, &out); err != nil {
			return viewConflict(err, name)
		}
		return recordView(ctx, tx, a, out, "view.created")
	}))
	return out, err
}

// UpdateView changes the caller's own view.
func (s *Service) UpdateView(ctx context.Context, a Actor, workspace, idOrName string, in ViewUpdate) (View, error) {
	if in.Name != nil {
		trimmed := strings.TrimSpace(*in.Name)
		in.Name = &trimmed
		if err := s.checkTitle("body.name", trimmed); err != nil {
			return View{}, err
		}
	}
	if in.Query != nil {
		if err := checkViewQuery(*in.Query); err != nil {
			return View{}, err
		}
	}
	var out View
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		if out, err = ownView(ctx, tx, sc, idOrName); err != nil {
			return err
		}
		if in.ExpectedVersion != nil && *in.ExpectedVersion != out.Version {
			return Errorf(CodeVersionConflict, "view %q is at version %d, not %d", out.Name, out.Version, *in.ExpectedVersion)
		}
		if in.Query != nil {
			if _, err := s.listingQuery(ctx, tx, sc, *in.Query); err != nil {
				return err
			}
			out.Query = viewQuery(*in.Query)
		}
		if in.Name != nil {
			out.Name = *in.Name
		}
		if in.Shared != nil {
			out.Shared = *in.Shared
		}
		out.Version++
		out.UpdatedAt = tx.Now()
		if err := tx.UpdateView(ctx, &out); err != nil {
			return viewConflict(err, out.Name)
		}
		return recordView(ctx, tx, a, out, "view.updated")
	}))
	return out, err
}

// DeleteView removes the caller's own view for good: a view is a
// preference, not work, and saving it again is one request.
func (s *Service) DeleteView(ctx context.Context, a Actor, workspace, idOrName string) (View, error) {
	var out View
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		if out, err = ownView(ctx, tx, sc, idOrName); err != nil {
			return err
		}
		if err := tx.DeleteView(ctx, out.ID); err != nil {
			return err
		}
		return recordView(ctx, tx, a, out, "view.deleted")
	}))
	return out, err
}

// recordView records a view's event. Like a calendar feed's, it belongs
// to no workspace's feed: a private view is its owner's alone.
func recordView(ctx context.Context, tx Tx, a Actor, v View, action string) error {
	return record(ctx, tx, a, Event{EntityType: "view", EntityID: v.ID, Action: action,
		Changes: map[string]any{"name": v.Name, "shared": v.Shared}})
}

// viewConflict names the name in use: among the caller's views, or among
// the workspace's shared ones.
func viewConflict(err error, name string) error {
	if CodeOf(err) == CodeConflict {
		return &Error{Code: CodeConflict, Err: err,
			Detail: fmt.Sprintf("a view named %q is yours already or shared in the workspace; choose another name", name)}
	}
	return err
}
