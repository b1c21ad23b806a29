package app

import "context"

// ProjectPut names a project by its key and what to give it
// (service_project): with a title it is created when no project holds the
// key, else the one holding it is changed; without one it is only changed.
type ProjectPut struct {
	Key        string
	Title      *string
	Parent     *string // the key to file it under; "" files it at the top; nil leaves it (a new one at the top)
	Visibility string  // "public" or "private"; "" leaves it (a new one is public)
}

// PutProject creates the project in.Key names or changes the one that
// holds the key (trashed projects keep theirs, and such a key is not
// found), in one transaction, so that nothing comes between finding the key
// free and taking it. created reports which it did.
func (s *Service) PutProject(ctx context.Context, a Actor, workspace string, in ProjectPut) (out ProjectView, created bool, err error) {
	create := ProjectCreate{Key: in.Key, Visibility: in.Visibility}
	var up ProjectUpdate
	if in.Title != nil {
		create.Title, up.Title = *in.Title, PatchOf(*in.Title)
		if err := s.validateProjectCreate(&create); err != nil {
			return ProjectView{}, false, err
		}
	}
	if in.Parent != nil {
		create.Parent, up.Parent = *in.Parent, PatchOf(*in.Parent)
		if *in.Parent == "" {
			up.Parent = Patch[string]{Set: true, Null: true}
		}
	}
	if in.Visibility != "" {
		up.Visibility = PatchOf(in.Visibility)
	}
	if err := s.validateProjectUpdate(up); err != nil {
		return ProjectView{}, false, err
	}
	err = s.store.Update(ctx, func(tx Tx) error {
		if in.Title != nil {
			sc, err := inWorkspace(ctx, tx, a, workspace)
			if err != nil {
				return err
			}
			_, err = tx.ProjectByKey(ctx, sc.ws.Workspace.ID, in.Key)
			if CodeOf(err) == CodeNotFound {
				out, err = s.createProject(ctx, tx, a, sc, create)
				created = err == nil
				return err
			}
			if err != nil {
				return err
			}
		}
		sc, n, err := findProject(ctx, tx, a, workspace, in.Key)
		if err != nil {
			return err
		}
		out, err = s.updateProject(ctx, tx, a, sc, n, up)
		return err
	})
	return out, created, err
}
