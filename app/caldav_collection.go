package app

import "context"

// UpdateDavCollection renames or recolours the project of a collection
// (PROPPATCH), as UpdateProject does, with its rules and event. A project
// the account may not read the tasks of is no collection: not_found, as
// for one that does not exist.
func (s *Service) UpdateDavCollection(ctx context.Context, a Actor, workspace, key string, in ProjectUpdate) (DavCollection, error) {
	if err := s.validateProjectUpdate(in); err != nil {
		return DavCollection{}, err
	}
	var col DavCollection
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		n, err := davProject(sc, key)
		if err != nil {
			return err
		}
		if _, err := s.updateProject(ctx, tx, a, sc, n, in); err != nil {
			return err
		}
		return davReread(ctx, tx, a, workspace, key, &col)
	}))
	return col, err
}

// CreateDavCollection creates a project for a collection a client makes
// (MKCALENDAR), as CreateProject does, with its rules and event.
func (s *Service) CreateDavCollection(ctx context.Context, a Actor, workspace string, in ProjectCreate) (DavCollection, error) {
	if err := s.validateProjectCreate(&in); err != nil {
		return DavCollection{}, err
	}
	var col DavCollection
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		if _, err := s.createProject(ctx, tx, a, sc, in); err != nil {
			return err
		}
		return davReread(ctx, tx, a, workspace, in.Key, &col)
	}))
	return col, err
}

// davReread sets col to a collection as the write before it in the same
// transaction left it, from a fresh scope.
func davReread(ctx context.Context, tx Tx, a Actor, workspace, key string, col *DavCollection) error {
	sc, err := inWorkspace(ctx, tx, a, workspace)
	if err != nil {
		return err
	}
	_, err = davCollection(ctx, tx, sc, key, col)
	return err
}
