package app

import (
	"context"
	"time"
)

// Person is a workspace member as the People page shows them: the
// membership (with the account, and whom an agent answers to) and when
// they were last seen.
type Person struct {
	Member
	// LastSeenAt is the latest use of any of their sessions or
	// credentials; nil when they have never used one.
	LastSeenAt *time.Time
}

type peopleTx interface {
	// LastSeen is, per member of the workspace seen at all, the latest use
	// of any of their sessions or credentials.
	LastSeen(ctx context.Context, workspaceID string) (map[string]time.Time, error)
}

// People lists a workspace's members with when each was last seen, for
// those who manage its members (its owners and admins) and instance
// administrators. Anyone else is answered as if the workspace did not
// exist: who works where, and when, is theirs to know.
func (s *Service) People(ctx context.Context, a Actor, idOrSlug string) ([]Person, error) {
	var out []Person
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		w, err := acc.pick(idOrSlug)
		if idOrSlug != "" {
			w, err = findWorkspace(ctx, tx, acc, idOrSlug, false)
		}
		if err != nil {
			return err
		}
		if !acc.can(PermInstanceAdmin) && !w.can(PermWorkspaceMembers) {
			return NotFound("workspace")
		}
		members, err := tx.Members(ctx, w.Workspace.ID)
		if err != nil {
			return err
		}
		seen, err := tx.LastSeen(ctx, w.Workspace.ID)
		if err != nil {
			return err
		}
		out = make([]Person, len(members))
		for i, m := range members {
			out[i] = Person{Member: m}
			if at, ok := seen[m.UserID]; ok {
				out[i].LastSeenAt = &at
			}
		}
		return nil
	}))
	return out, err
}
