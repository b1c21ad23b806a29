package app

import "context"

// LocalSession is who the command line acts as on the database file, with
// no server between, and where tend serve last said it listens (for the
// web addresses it prints).
type LocalSession struct {
	Actor   Actor
	Serving Serving
}

// LocalActor resolves the account the command line acts as on the database
// file: the one named, or the oldest active administrator when none is.
// Whoever can open the file already has every account's authority (tend
// token issue mints credentials there), so no secret is asked for; the
// actor carries no credential, so nothing narrows it, as nothing narrows a
// browser session. An inactive account, or an agent whose chain of
// responsibility reaches an inactive person, is refused, as its credential
// would be.
func (s *Service) LocalActor(ctx context.Context, username string) (LocalSession, error) {
	var out LocalSession
	err := s.store.View(ctx, func(tx Tx) error {
		u, sv, err := localAccount(ctx, tx, username)
		if err != nil {
			return err
		}
		if err := chainActive(ctx, tx, u); err != nil {
			return err
		}
		out = LocalSession{Actor: Actor{User: u, Interface: "cli"}, Serving: sv}
		return nil
	})
	return out, err
}

// localAccount finds the account a command on the database file names,
// or the oldest active administrator when it names none, and where tend
// serve last said it listens.
func localAccount(ctx context.Context, tx Tx, username string) (User, Serving, error) {
	u, err := oldestAdministrator(ctx, tx)
	if username != "" {
		u, err = tx.UserByName(ctx, username)
		err = notFoundAs(err, "account")
	}
	if err != nil {
		return User{}, Serving{}, err
	}
	inst, err := tx.Instance(ctx)
	return u, inst.Serving, err
}

// chainActive refuses an account that is inactive, or that answers to an
// inactive account anywhere up its chain, or whose chain loops back on
// itself and so reaches no person who answers for it.
func chainActive(ctx context.Context, tx Tx, u User) error {
	if !u.Active {
		return Errorf(CodeAccountInactive, "%s is deactivated", u.Username)
	}
	ids, err := tx.AnswersToChain(ctx, u.ID)
	if err != nil {
		return err
	}
	top := u
	for _, id := range ids {
		if top, err = tx.UserByID(ctx, id); err != nil {
			return err
		}
		if !top.Active {
			return Errorf(CodeAccountInactive, "%s answers to %s, who is deactivated", u.Username, top.Username)
		}
	}
	if top.AnswersToID != "" {
		return Errorf(CodeAccountInactive, "%s has nobody to answer for it: its chain loops (%s answers to %s)", u.Username, top.Username, top.AnswersTo)
	}
	return nil
}
