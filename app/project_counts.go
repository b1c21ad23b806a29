package app

import "context"

// OpenTaskCounts counts the open, live tasks filed directly in each
// project whose items the caller may read, by project key; a project with
// none is absent. One grouped read, whatever the number of projects.
func (s *Service) OpenTaskCounts(ctx context.Context, a Actor, workspace string) (map[string]int, error) {
	out := map[string]int{}
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		byID, err := tx.OpenTaskCounts(ctx, sc.ws.Workspace.ID, sc.readJSON)
		for id, n := range byID {
			if p := sc.byID[id]; p != nil {
				out[p.Key] = n
			}
		}
		return err
	}))
	return out, err
}
