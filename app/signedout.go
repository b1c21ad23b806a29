package app

import "context"

// PersonName is how a person is named to someone who cannot see their
// account: the signed-out page's "ask an administrator".
type PersonName struct {
	Username    string
	DisplayName string
}

type signedOutTx interface {
	// ActiveAdministratorNames lists the active people who administer
	// the instance, oldest first; never an agent.
	ActiveAdministratorNames(ctx context.Context) ([]PersonName, error)
}

// Administrators names the instance's active administrators to a person
// who is not signed in, so that they know whom to ask for a way in.
func (s *Service) Administrators(ctx context.Context) ([]PersonName, error) {
	var out []PersonName
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = tx.ActiveAdministratorNames(ctx)
		return err
	})
	return out, err
}
