package app

import "context"

// Me is the caller's identity, credential and effective permissions in one answer.
type Me struct {
	User                User
	Credential          *Token
	InstancePermissions []string
	Workspaces          []WorkspaceView
	ReaderTimezone      string
	APIVersion          string
	InstanceVersion     string
	SchemaRevision      string
	// AnswersTo is an agent's chain of responsibility, nearest first, by
	// username; empty for a person.
	AnswersTo []string
}

// Me answers GET /v1/me. Permissions are the role's intersected with the
// credential's scopes, and only workspaces the credential reaches appear.
func (s *Service) Me(ctx context.Context, a Actor) (Me, error) {
	out := Me{User: a.User, Credential: a.Token, APIVersion: APIVersion, InstanceVersion: s.opts.Version,
		SchemaRevision: s.store.SchemaRevision(), Workspaces: []WorkspaceView{}}
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		out.InstancePermissions = acc.instance
		for _, w := range acc.live() {
			out.Workspaces = append(out.Workspaces, viewOf(w))
		}
		if out.AnswersTo, err = answersToNames(ctx, tx, a.User); err != nil {
			return err
		}
		var ws *Workspace
		if live := acc.live(); len(live) == 1 {
			ws = &live[0].Workspace
		}
		z, err := readerZone(ctx, tx, a.User, ws)
		out.ReaderTimezone = z.Name
		return err
	}))
	return out, err
}

// answersToNames is the usernames up u's chain of responsibility.
func answersToNames(ctx context.Context, tx Tx, u User) ([]string, error) {
	if u.AnswersToID == "" {
		return nil, nil
	}
	ids, err := tx.AnswersToChain(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ids))
	for _, id := range ids {
		v, err := tx.UserByID(ctx, id)
		if err != nil {
			return nil, err
		}
		names = append(names, v.Username)
	}
	return names, nil
}
