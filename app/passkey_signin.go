package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// Sign-in with a passkey needs no credential, so what one address may try
// is bounded, and what one account may be tried for.
var (
	passkeySignInStarts = RateLimit{Name: "passkey.signin.addr", Max: 30, Window: 10 * time.Minute,
		What: "passkey sign-ins started from this address"}
	passkeySignInTries = RateLimit{Name: "passkey.signin.finish.addr", Max: 20, Window: 10 * time.Minute,
		What: "passkey sign-ins tried from this address"}
	passkeySignInAccount = RateLimit{Name: "passkey.signin.account", Max: 20, Window: 10 * time.Minute,
		What: "passkey sign-ins to this account"}
)

// PasskeySignedIn is the session a passkey started, and whose it is.
type PasskeySignedIn struct {
	StartedSession
	User User
}

// PasskeySignIn is the browser's answer to sign-in options: the
// PublicKeyCredential (an assertion) as JSON.
type PasskeySignIn struct {
	ChallengeID string
	Credential  json.RawMessage
}

// BeginPasskeySignIn makes the options for signing in with a passkey from
// the browser at host, asked from the client address addr. They name no
// account: the authenticator offers the passkeys it holds for tend
// (discoverable credentials), so nobody types a username.
func (s *Service) BeginPasskeySignIn(ctx context.Context, host, addr string) (PasskeyOptions, error) {
	wa, err := s.relyingParty(host)
	if err != nil {
		return PasskeyOptions{}, err
	}
	var out PasskeyOptions
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(passkeySignInStarts, addr, tx.Now()); err != nil {
			return err
		}
		assertion, sd, err := wa.BeginDiscoverableLogin()
		if err != nil {
			return err
		}
		out, err = saveChallenge(ctx, tx, "signin", "", assertion.Response, sd)
		return err
	})
	return out, err
}

// FinishPasskeySignIn checks an assertion against the challenge it names
// and the passkey it comes from, and starts a session for the passkey's
// account. The challenge is spent by this first use whatever its outcome;
// a signature count that does not rise (a cloned authenticator) is
// refused unless the authenticator counts nothing.
func (s *Service) FinishPasskeySignIn(ctx context.Context, host string, client SessionClient, in PasskeySignIn) (PasskeySignedIn, error) {
	wa, err := s.relyingParty(host)
	if err != nil {
		return PasskeySignedIn{}, err
	}
	parsed, perr := protocol.ParseCredentialRequestResponseBytes(in.Credential)
	var out PasskeySignedIn
	var refused error
	err = s.store.Update(ctx, spentAnyway(&refused, func(tx Tx) error {
		if err := s.rates.take(passkeySignInTries, client.Address, tx.Now()); err != nil {
			return err
		}
		sd, err := takeChallenge(ctx, tx, in.ChallengeID, "signin", "")
		if err != nil {
			return err
		}
		if perr != nil {
			return ceremonyRefused(perr)
		}
		key, u, err := assertedPasskey(ctx, tx, parsed)
		if err != nil {
			return err
		}
		if err := s.rates.take(passkeySignInAccount, u.ID, tx.Now()); err != nil {
			return err
		}
		_, cred, err := wa.ValidatePasskeyLogin(func(_, _ []byte) (webauthn.User, error) {
			return passkeyUser{u: u, keys: []Passkey{key}}, nil
		}, sd, parsed)
		if err != nil {
			return ceremonyRefused(err)
		}
		if cred.Authenticator.CloneWarning {
			return Errorf(CodePasskeyInvalid, "this passkey's signature count went backwards, as a copied authenticator's does; it is refused")
		}
		if !u.Active {
			return Errorf(CodeAccountInactive, "%s is deactivated", u.Username)
		}
		now := tx.Now()
		key.SignCount, key.BackupState, key.UserVerified = cred.Authenticator.SignCount, cred.Flags.BackupState, cred.Flags.UserVerified
		key.LastUsedAt = &now
		if err := tx.UpdatePasskey(ctx, &key); err != nil {
			return err
		}
		out.User = u
		out.StartedSession, err = openSession(ctx, tx, u.ID, SessionStart{Via: "passkey", SessionClient: client})
		return err
	}))
	if err == nil {
		err = refused
	}
	return out, err
}

// assertedPasskey finds the passkey an assertion names and its account,
// which the assertion's user handle must name too.
func assertedPasskey(ctx context.Context, tx Tx, parsed *protocol.ParsedCredentialAssertionData) (Passkey, User, error) {
	unknown := Errorf(CodePasskeyInvalid, "this passkey is not known here; it may have been removed")
	key, err := tx.PasskeyByCredential(ctx, parsed.RawID)
	if CodeOf(err) == CodeNotFound {
		return Passkey{}, User{}, unknown
	}
	if err != nil {
		return Passkey{}, User{}, err
	}
	if !bytes.Equal(parsed.Response.UserHandle, []byte(key.UserID)) {
		return Passkey{}, User{}, unknown
	}
	u, err := tx.UserByID(ctx, key.UserID)
	if err != nil {
		return Passkey{}, User{}, err
	}
	if u.IsServiceAccount {
		return Passkey{}, User{}, unknown
	}
	return key, u, nil
}

// relyingParty is tend as WebAuthn names it to the browser at host. A
// passkey is bound to a domain, and browsers offer WebAuthn only to a
// secure origin: tend's HTTPS public URL when one is set, else
// http://localhost. An IP address is never a relying party's id, so
// 127.0.0.1 is sent to localhost.
func (s *Service) relyingParty(host string) (*webauthn.WebAuthn, error) {
	id, origins := "", []string(nil)
	if pub := s.opts.PublicURL; pub != "" {
		u, err := url.Parse(pub)
		if err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && u.Hostname() == "localhost")) {
			return nil, Errorf(CodePasskeyUnavailable, "passkeys need a secure address: set tend serve --public-url to the https:// address people open tend at (tailscale serve gives one)")
		}
		id, origins = u.Hostname(), []string{u.Scheme + "://" + u.Host}
	} else {
		name := host
		if h, _, err := net.SplitHostPort(host); err == nil {
			name = h
		}
		switch name {
		case "localhost":
			id, origins = name, []string{"http://" + host, "https://" + host}
		case "127.0.0.1", "::1":
			return nil, Errorf(CodePasskeyUnavailable, "passkeys are bound to a name, not an address: open tend at http://localhost instead of %s", name)
		default:
			return nil, Errorf(CodePasskeyUnavailable, "passkeys need a secure address: set tend serve --public-url to the https:// address people open tend at (tailscale serve gives one), or open tend at http://localhost")
		}
	}
	return webauthn.New(&webauthn.Config{RPID: id, RPDisplayName: "tend", RPOrigins: origins,
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{ResidentKey: protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationPreferred},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: PasskeyChallengeLifetime, TimeoutUVD: PasskeyChallengeLifetime},
			Registration: webauthn.TimeoutConfig{Timeout: PasskeyChallengeLifetime, TimeoutUVD: PasskeyChallengeLifetime}}})
}
