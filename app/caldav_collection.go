package app

import (
	"cmp"
	"context"
)

// UpdateDavCollection renames or recolours the project of a collection
// (PROPPATCH), as UpdateProject does, with its rules and event. A project
// the account may not read the tasks of is no collection: not_found, as
// for one that does not exist. The collection is addressed as davScope
// reads it.
func (s *Service) UpdateDavCollection(ctx context.Context, a Actor, workspace, key string, in ProjectUpdate) (DavCollection, error) {
	if err := s.validateProjectUpdate(in); err != nil {
		return DavCollection{}, err
	}
	var col DavCollection
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, n, err := davScope(ctx, tx, a, workspace, key)
		if err != nil {
			return err
		}
		if _, err := s.updateProject(ctx, tx, a, sc, n, in); err != nil {
			return err
		}
		return davReread(ctx, tx, a, sc.ws.Workspace.ID, n.ID, &col)
	})
	return col, err
}

// CreateDavCollection creates a project for a collection a client makes
// (MKCALENDAR), as CreateProject does, with its rules and event: in the
// workspace named, of in's key, or, with workspace "", for a collection
// named by the client (name), which tend keeps as the account's name for
// it. That project is made in the account's home workspace (davHome), of
// a key made from its title as an import makes one (freeKey). A name the
// account already has for a project it may read is a conflict.
func (s *Service) CreateDavCollection(ctx context.Context, a Actor, workspace, name string, in ProjectCreate) (DavCollection, error) {
	if workspace != "" {
		if err := s.validateProjectCreate(&in); err != nil {
			return DavCollection{}, err
		}
	}
	var col DavCollection
	err := s.store.Update(ctx, func(tx Tx) error {
		acc, err := accessOf(ctx, tx, a)
		if err != nil {
			return err
		}
		w, err := acc.pick(workspace)
		if workspace == "" {
			w, err = davHome(acc)
		}
		if err != nil {
			return err
		}
		sc, err := scopeOf(ctx, tx, acc, w)
		if err != nil {
			return err
		}
		if workspace == "" {
			if _, _, err := davScope(ctx, tx, a, "", name); CodeOf(err) != CodeNotFound {
				return cmp.Or(err, Errorf(CodeConflict, "you have a list named %s already", name))
			}
			in.Key = sc.freeKey(in.Title)
			if err := s.validateProjectCreate(&in); err != nil {
				return err
			}
		}
		p, err := s.createProject(ctx, tx, a, sc, in)
		if err != nil {
			return err
		}
		if workspace == "" {
			if err := tx.PutDavList(ctx, a.User.ID, name, p.ID); err != nil {
				return err
			}
		}
		return davReread(ctx, tx, a, w.Workspace.ID, p.ID, &col)
	})
	return col, err
}

// davHome is the workspace a list a task app names is made in: the only
// one the account reaches (a token pinned to a workspace reaches only
// that), else the first it joined where it may create projects, else the
// first it joined, where the create is refused as the API refuses it.
func davHome(acc *access) (wsAccess, error) {
	live := acc.live()
	if len(live) == 0 {
		return wsAccess{}, NotFound("workspace")
	}
	for _, w := range live {
		if w.can(PermProjectWrite) {
			return w, nil
		}
	}
	return live[0], nil
}

// davReread sets col to a collection, by its project's id, as the write
// before it in the same transaction left it, from a fresh scope.
func davReread(ctx context.Context, tx Tx, a Actor, workspaceID, projectID string, col *DavCollection) error {
	sc, err := inWorkspace(ctx, tx, a, workspaceID)
	if err != nil {
		return err
	}
	n, err := sc.project(projectID)
	if err != nil {
		return err
	}
	cs, err := davCollections(ctx, tx, sc, []*projectNode{n})
	if err != nil {
		return err
	}
	if len(cs) == 0 {
		return NotFound("project")
	}
	*col = cs[0]
	return nil
}
