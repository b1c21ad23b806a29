package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/url"
	"time"
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
	rp, err := s.relyingParty(host)
	if err != nil {
		return PasskeyOptions{}, err
	}
	var out PasskeyOptions
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(passkeySignInStarts, addr, tx.Now()); err != nil {
			return err
		}
		options, state, err := s.opts.Passkeys.BeginSignIn(rp)
		if err != nil {
			return err
		}
		out, err = saveChallenge(ctx, tx, "signin", "", options, state)
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
	rp, err := s.relyingParty(host)
	if err != nil {
		return PasskeySignedIn{}, err
	}
	var out PasskeySignedIn
	var refused error
	err = s.store.Update(ctx, spentAnyway(&refused, func(tx Tx) error {
		if err := s.rates.take(passkeySignInTries, client.Address, tx.Now()); err != nil {
			return err
		}
		state, err := takeChallenge(ctx, tx, in.ChallengeID, "signin", "")
		if err != nil {
			return err
		}
		credentialID, userHandle, err := s.opts.Passkeys.Asserted(in.Credential)
		if err != nil {
			return err
		}
		key, u, err := assertedPasskey(ctx, tx, credentialID, userHandle)
		if err != nil {
			return err
		}
		if err := s.rates.take(passkeySignInAccount, u.ID, tx.Now()); err != nil {
			return err
		}
		if key, err = s.opts.Passkeys.FinishSignIn(rp, u, key, state, in.Credential); err != nil {
			return err
		}
		if !u.Active {
			return Errorf(CodeAccountInactive, "%s is deactivated", u.Username)
		}
		now := tx.Now()
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
func assertedPasskey(ctx context.Context, tx Tx, credentialID, userHandle []byte) (Passkey, User, error) {
	unknown := Errorf(CodePasskeyInvalid, "this passkey is not known here; it may have been removed")
	key, err := tx.PasskeyByCredential(ctx, credentialID)
	if CodeOf(err) == CodeNotFound {
		return Passkey{}, User{}, unknown
	}
	if err != nil {
		return Passkey{}, User{}, err
	}
	if !bytes.Equal(userHandle, []byte(key.UserID)) {
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
func (s *Service) relyingParty(host string) (RelyingParty, error) {
	if s.opts.Passkeys == nil {
		return RelyingParty{}, Errorf(CodePasskeyUnavailable, "this tend was started without passkeys")
	}
	id, origins := "", []string(nil)
	if pub := s.opts.PublicURL; pub != "" {
		u, err := url.Parse(pub)
		if err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && u.Hostname() == "localhost")) {
			return RelyingParty{}, Errorf(CodePasskeyUnavailable, "passkeys need a secure address: set tend serve --public-url to the https:// address people open tend at (tailscale serve gives one)")
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
			return RelyingParty{}, Errorf(CodePasskeyUnavailable, "passkeys are bound to a name, not an address: open tend at http://localhost instead of %s", name)
		default:
			return RelyingParty{}, Errorf(CodePasskeyUnavailable, "passkeys need a secure address: set tend serve --public-url to the https:// address people open tend at (tailscale serve gives one), or open tend at http://localhost")
		}
	}
	return RelyingParty{ID: id, Origins: origins}, nil
}
