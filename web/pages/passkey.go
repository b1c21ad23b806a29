package pages

import (
	"context"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// passkeyService is the part of app.Service passkeys call: the Account
// page's Passkeys section, the signed-out page and their JSON routes.
type passkeyService interface {
	Passkeys(ctx context.Context, a app.Actor) ([]app.Passkey, error)
	BeginPasskeyRegistration(ctx context.Context, a app.Actor, host string) (app.PasskeyOptions, error)
	FinishPasskeyRegistration(ctx context.Context, a app.Actor, host string, in app.PasskeyRegistration) (app.Passkey, error)
	RenamePasskey(ctx context.Context, a app.Actor, id, name string) (app.Passkey, error)
	RemovePasskey(ctx context.Context, a app.Actor, id string) error
	BeginPasskeySignIn(ctx context.Context, host, addr string) (app.PasskeyOptions, error)
	FinishPasskeySignIn(ctx context.Context, host string, client app.SessionClient, in app.PasskeySignIn) (app.PasskeySignedIn, error)
	Administrators(ctx context.Context) ([]app.PersonName, error)
}

// passkeysData is the Account page's Passkeys section.
type passkeysData struct {
	Keys []app.Passkey
}

// passkeys reads the Account page's Passkeys section; nil for an agent,
// which signs in with tokens only.
func (s *Server) passkeys(r *http.Request, a app.Actor) (*passkeysData, error) {
	if a.User.IsServiceAccount {
		return nil, nil
	}
	keys, err := s.app.Passkeys(r.Context(), a)
	return &passkeysData{Keys: keys}, err
}

func (s *Server) pagePasskeyRename(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account?notice=edited#passkeys", func(f *pageForm) error {
		_, err := s.app.RenamePasskey(r.Context(), a, wire.Param(r, "passkey"), f.str("name"))
		return err
	})
}

func (s *Server) pagePasskeyRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account#passkeys", func(*pageForm) error {
		return s.app.RemovePasskey(r.Context(), a, wire.Param(r, "passkey"))
	})
}

// signedOutData is what the signed-out page says: whom to ask.
type signedOutData struct {
	Admins []app.PersonName
}

// signedOut shows how to sign in to someone who is not: with a passkey,
// an invite, or by asking an administrator, named. When the names cannot
// be read the page still shows the other ways in.
func (s *Server) signedOut(w http.ResponseWriter, r *http.Request, status int) {
	admins, err := s.app.Administrators(r.Context())
	if err != nil {
		s.log.WarnContext(r.Context(), "signed-out page without administrators", "err", err)
	}
	_ = s.render(w, status, "signed_out", pageView{Title: "Sign in", Static: "/static/" + staticVersion, Standby: s.standby(),
		Data: signedOutData{Admins: admins}})
}
