package app

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"
)

// PasskeyChallengeLifetime is how long the options of a passkey ceremony
// can be answered: long enough for a person to find their authenticator,
// short enough that an answer kept for later is useless.
const PasskeyChallengeLifetime = 5 * time.Minute

// passkeyNameMax bounds the name a person gives a passkey, in characters.
const passkeyNameMax = 64

// passkeyRegistrations bounds the passkeys one account begins to add: each
// leaves a challenge row for five minutes.
var passkeyRegistrations = RateLimit{Name: "passkey.register.account", Max: 20, Window: time.Hour,
	What: "passkeys added to this account"}

// Passkey is a WebAuthn credential a person signs in with. Nothing secret
// is kept: the private key never leaves the authenticator.
type Passkey struct {
	ID           string
	UserID       string
	CredentialID []byte
	PublicKey    []byte // COSE
	SignCount    uint32
	// BackupEligible may not change after registration; BackupState and
	// UserVerified follow the authenticator's last answer.
	BackupEligible, BackupState, UserVerified bool
	AttestationType, AttestationFormat        string
	Transports                                []string
	AAGUID                                    []byte
	Name                                      string
	CreatedAt                                 time.Time
	LastUsedAt                                *time.Time
}

// WebAuthnChallenge is a ceremony under way: the state Ceremonies made
// when it began, keyed by the hash of the id the browser was handed.
type WebAuthnChallenge struct {
	IDHash    []byte
	Kind      string // "register" or "signin"
	UserID    string // who registers; empty for a sign-in
	Session   []byte
	ExpiresAt time.Time
	CreatedAt time.Time
}

type passkeyTx interface {
	InsertPasskey(ctx context.Context, p *Passkey) error
	// Passkeys lists an account's passkeys, oldest first.
	Passkeys(ctx context.Context, userID string) ([]Passkey, error)
	// PasskeyByID is the account's passkey id: not_found for another's.
	PasskeyByID(ctx context.Context, userID, id string) (Passkey, error)
	PasskeyByCredential(ctx context.Context, credentialID []byte) (Passkey, error)
	// UpdatePasskey writes the name, count, flags and last use.
	UpdatePasskey(ctx context.Context, p *Passkey) error
	DeletePasskey(ctx context.Context, id string) error
	// InsertWebAuthnChallenge stores a challenge and drops those expired
	// at its CreatedAt.
	InsertWebAuthnChallenge(ctx context.Context, c *WebAuthnChallenge) error
	// TakeWebAuthnChallenge deletes the challenge and returns it.
	TakeWebAuthnChallenge(ctx context.Context, idHash []byte) (WebAuthnChallenge, error)
}

// PasskeyOptions are what the browser's navigator.credentials call takes
// (the publicKey member, as the WebAuthn JSON form), and the id that
// names the ceremony when its answer is posted back.
type PasskeyOptions struct {
	ChallengeID string
	PublicKey   json.RawMessage
}

// PasskeyRegistration is the browser's answer to registration options:
// the PublicKeyCredential as JSON, and the name the person gives it.
type PasskeyRegistration struct {
	ChallengeID string
	Name        string
	Credential  json.RawMessage
}

// Ceremonies speaks WebAuthn for the Service: it makes a ceremony's options
// and checks the browser's answer. app keeps every rule around it (who may
// begin one, challenges spent once, rate limits, which passkey an answer
// names, the relying party a host gets); the implementation, over a
// WebAuthn library, is handed in Options.Passkeys. A refused answer is a
// passkey_invalid *Error saying what failed.
type Ceremonies interface {
	// BeginRegistration makes the creation options for u at rp, excluding
	// the passkeys u holds, and the state FinishRegistration checks the
	// answer against.
	BeginRegistration(rp RelyingParty, u User, holds []Passkey) (options, state []byte, err error)
	// FinishRegistration checks credential, a PublicKeyCredential as JSON,
	// against state and answers the passkey it makes: its credential,
	// key, counts, flags and attestation, nothing else.
	FinishRegistration(rp RelyingParty, u User, state, credential []byte) (Passkey, error)
	// BeginSignIn makes options that name no account (discoverable
	// credentials), and their state.
	BeginSignIn(rp RelyingParty) (options, state []byte, err error)
	// Asserted reads the credential id and user handle an assertion
	// carries, so the passkey it names can be found.
	Asserted(credential []byte) (credentialID, userHandle []byte, err error)
	// FinishSignIn checks an assertion against state and key, the passkey
	// of u it names, and answers key with the count and flags the
	// authenticator reports now; a count gone backwards is refused.
	FinishSignIn(rp RelyingParty, u User, key Passkey, state, credential []byte) (Passkey, error)
}

// RelyingParty is tend as WebAuthn names it to one browser: the domain its
// passkeys are bound to, and the origins that may answer.
type RelyingParty struct {
	ID      string
	Origins []string
}

// BeginPasskeyRegistration makes the options for adding a passkey to the
// caller's account, as the browser at host sees tend. Only a browser
// session may: a passkey is a way into the whole account, wider than any
// token.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, a Actor, host string) (PasskeyOptions, error) {
	if err := sessionOnly(a); err != nil {
		return PasskeyOptions{}, err
	}
	rp, err := s.relyingParty(host)
	if err != nil {
		return PasskeyOptions{}, err
	}
	var out PasskeyOptions
	err = s.store.Update(ctx, func(tx Tx) error {
		if err := s.rates.take(passkeyRegistrations, a.User.ID, tx.Now()); err != nil {
			return err
		}
		keys, err := tx.Passkeys(ctx, a.User.ID)
		if err != nil {
			return err
		}
		options, state, err := s.opts.Passkeys.BeginRegistration(rp, a.User, keys)
		if err != nil {
			return err
		}
		out, err = saveChallenge(ctx, tx, "register", a.User.ID, options, state)
		return err
	})
	return out, err
}

// FinishPasskeyRegistration checks the browser's answer against the
// challenge it names and keeps the passkey. The challenge is spent by this
// first use whatever its outcome.
func (s *Service) FinishPasskeyRegistration(ctx context.Context, a Actor, host string, in PasskeyRegistration) (Passkey, error) {
	if err := sessionOnly(a); err != nil {
		return Passkey{}, err
	}
	name, err := passkeyName(in.Name)
	if err != nil {
		return Passkey{}, err
	}
	rp, err := s.relyingParty(host)
	if err != nil {
		return Passkey{}, err
	}
	var out Passkey
	var refused error
	err = s.store.Update(ctx, spentAnyway(&refused, func(tx Tx) error {
		if err := s.rates.take(passkeyRegistrations, a.User.ID, tx.Now()); err != nil {
			return err
		}
		state, err := takeChallenge(ctx, tx, in.ChallengeID, "register", a.User.ID)
		if err != nil {
			return err
		}
		if out, err = s.opts.Passkeys.FinishRegistration(rp, a.User, state, in.Credential); err != nil {
			return err
		}
		if _, err := tx.PasskeyByCredential(ctx, out.CredentialID); CodeOf(err) != CodeNotFound {
			return joinErrors(err, Errorf(CodePasskeyInvalid, "this passkey is registered already"))
		}
		out.ID, out.UserID, out.Name, out.CreatedAt = newID(), a.User.ID, name, tx.Now()
		if err := tx.InsertPasskey(ctx, &out); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{EntityType: "user", EntityID: a.User.ID, Action: "passkey.added",
			Changes: map[string]any{"passkey": out.ID, "name": out.Name}})
	}))
	if err == nil {
		err = refused
	}
	return out, err
}

// Passkeys lists the caller's passkeys, oldest first.
func (s *Service) Passkeys(ctx context.Context, a Actor) ([]Passkey, error) {
	var out []Passkey
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, _ *access) (err error) {
		out, err = tx.Passkeys(ctx, a.User.ID)
		return err
	}))
	return out, err
}

// RenamePasskey names one of the caller's passkeys anew.
func (s *Service) RenamePasskey(ctx context.Context, a Actor, id, name string) (Passkey, error) {
	name, err := passkeyName(name)
	if err != nil {
		return Passkey{}, err
	}
	var out Passkey
	err = s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		if out, err = ownPasskey(ctx, tx, a, acc, id); err != nil {
			return err
		}
		out.Name = name
		return tx.UpdatePasskey(ctx, &out)
	}))
	return out, err
}

// RemovePasskey removes one of the caller's passkeys. The account keeps
// every other way in; removing the last passkey is allowed, as a sign-in
// link still opens it.
func (s *Service) RemovePasskey(ctx context.Context, a Actor, id string) error {
	return s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		p, err := ownPasskey(ctx, tx, a, acc, id)
		if err != nil {
			return err
		}
		if err := tx.DeletePasskey(ctx, p.ID); err != nil {
			return err
		}
		return record(ctx, tx, a, Event{EntityType: "user", EntityID: a.User.ID, Action: "passkey.removed",
			Changes: map[string]any{"passkey": p.ID, "name": p.Name}})
	}))
}

// ownPasskey is the caller's passkey id, changed only with account:write,
// as every other change to one's own account.
func ownPasskey(ctx context.Context, tx Tx, a Actor, acc *access, id string) (Passkey, error) {
	if a.system {
		return Passkey{}, NotFound("passkey")
	}
	if !acc.can(PermAccountWrite) {
		return Passkey{}, Errorf(CodeCredentialNarrowed, "changing your passkeys needs a credential with the %s scope", PermAccountWrite)
	}
	p, err := tx.PasskeyByID(ctx, a.User.ID, id)
	return p, notFoundAs(err, "passkey")
}

func sessionOnly(a Actor) error {
	if a.SessionID == "" {
		return Errorf(CodePasskeyNeedsSession, "a passkey is added from a signed-in browser (the Account page), not with a token")
	}
	return nil
}

func passkeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "Passkey", nil
	}
	if utf8.RuneCountInString(name) > passkeyNameMax {
		return "", Invalidf("body.name", "a passkey's name is at most %d characters", passkeyNameMax)
	}
	return name, nil
}

// saveChallenge keeps the state a ceremony's answer is checked against and
// returns its options with the id that names them.
func saveChallenge(ctx context.Context, tx Tx, kind, userID string, options, state []byte) (PasskeyOptions, error) {
	_, id, hash := newSecret()
	now := tx.Now()
	c := WebAuthnChallenge{IDHash: hash, Kind: kind, UserID: userID, Session: state,
		ExpiresAt: now.Add(PasskeyChallengeLifetime), CreatedAt: now}
	if err := tx.InsertWebAuthnChallenge(ctx, &c); err != nil {
		return PasskeyOptions{}, err
	}
	return PasskeyOptions{ChallengeID: id, PublicKey: options}, nil
}

// takeChallenge spends the challenge id names and returns its state,
// refusing one unknown, spent, expired, of the other ceremony or begun by
// another account.
func takeChallenge(ctx context.Context, tx Tx, id, kind, userID string) ([]byte, error) {
	gone := Errorf(CodePasskeyInvalid, "this passkey request is unknown, used or expired; start again")
	if _, ok := secretPrefix(id); !ok {
		return nil, gone
	}
	c, err := tx.TakeWebAuthnChallenge(ctx, secretHash(id))
	if CodeOf(err) == CodeNotFound {
		return nil, gone
	}
	if err != nil {
		return nil, err
	}
	if c.Kind != kind || c.UserID != userID || !tx.Now().Before(c.ExpiresAt) {
		return nil, gone
	}
	return c.Session, nil
}

// spentAnyway runs fn in a write whose refusal of the ceremony still
// commits: the challenge fn took stays spent, and the refusal is handed
// back through refused once the write is done. fn makes no other write
// before it can refuse.
func spentAnyway(refused *error, fn func(Tx) error) func(Tx) error {
	return func(tx Tx) error {
		err := fn(tx)
		if c := CodeOf(err); err != nil && (c == CodePasskeyInvalid || c == CodeAccountInactive) {
			*refused = err
			return nil
		}
		return err
	}
}
