package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
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

// WebAuthnChallenge is a ceremony under way: the library's SessionData as
// JSON, keyed by the hash of the id the browser was handed.
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

// BeginPasskeyRegistration makes the options for adding a passkey to the
// caller's account, as the browser at host sees tend. Only a browser
// session may: a passkey is a way into the whole account, wider than any
// token.
func (s *Service) BeginPasskeyRegistration(ctx context.Context, a Actor, host string) (PasskeyOptions, error) {
	if err := sessionOnly(a); err != nil {
		return PasskeyOptions{}, err
	}
	wa, err := s.relyingParty(host)
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
		pu := passkeyUser{u: a.User, keys: keys}
		creation, sd, err := wa.BeginRegistration(pu,
			webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
			webauthn.WithExclusions(webauthn.Credentials(pu.WebAuthnCredentials()).CredentialDescriptors()))
		if err != nil {
			return err
		}
		out, err = saveChallenge(ctx, tx, "register", a.User.ID, creation.Response, sd)
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
	wa, err := s.relyingParty(host)
	if err != nil {
		return Passkey{}, err
	}
	parsed, perr := protocol.ParseCredentialCreationResponseBytes(in.Credential)
	var out Passkey
	var refused error
	err = s.store.Update(ctx, spentAnyway(&refused, func(tx Tx) error {
		if err := s.rates.take(passkeyRegistrations, a.User.ID, tx.Now()); err != nil {
			return err
		}
		sd, err := takeChallenge(ctx, tx, in.ChallengeID, "register", a.User.ID)
		if err != nil {
			return err
		}
		if perr != nil {
			return ceremonyRefused(perr)
		}
		cred, err := wa.CreateCredential(passkeyUser{u: a.User}, sd, parsed)
		if err != nil {
			return ceremonyRefused(err)
		}
		if _, err := tx.PasskeyByCredential(ctx, cred.ID); CodeOf(err) != CodeNotFound {
			return joinErrors(err, Errorf(CodePasskeyInvalid, "this passkey is registered already"))
		}
		out = passkeyOf(cred, a.User.ID, name, tx.Now())
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

// saveChallenge keeps what the library needs to check the answer to
// options and returns them with the id that names them.
func saveChallenge(ctx context.Context, tx Tx, kind, userID string, options any, sd *webauthn.SessionData) (PasskeyOptions, error) {
	pk, err := json.Marshal(options)
	if err != nil {
		return PasskeyOptions{}, err
	}
	session, err := json.Marshal(sd)
	if err != nil {
		return PasskeyOptions{}, err
	}
	_, id, hash := newSecret()
	now := tx.Now()
	c := WebAuthnChallenge{IDHash: hash, Kind: kind, UserID: userID, Session: session,
		ExpiresAt: now.Add(PasskeyChallengeLifetime), CreatedAt: now}
	if err := tx.InsertWebAuthnChallenge(ctx, &c); err != nil {
		return PasskeyOptions{}, err
	}
	return PasskeyOptions{ChallengeID: id, PublicKey: pk}, nil
}

// takeChallenge spends the challenge id names and returns its session,
// refusing one unknown, spent, expired, of the other ceremony or begun by
// another account.
func takeChallenge(ctx context.Context, tx Tx, id, kind, userID string) (webauthn.SessionData, error) {
	gone := Errorf(CodePasskeyInvalid, "this passkey request is unknown, used or expired; start again")
	if _, ok := secretPrefix(id); !ok {
		return webauthn.SessionData{}, gone
	}
	c, err := tx.TakeWebAuthnChallenge(ctx, secretHash(id))
	if CodeOf(err) == CodeNotFound {
		return webauthn.SessionData{}, gone
	}
	if err != nil {
		return webauthn.SessionData{}, err
	}
	if c.Kind != kind || c.UserID != userID || !tx.Now().Before(c.ExpiresAt) {
		return webauthn.SessionData{}, gone
	}
	var sd webauthn.SessionData
	if err := json.Unmarshal(c.Session, &sd); err != nil {
		return webauthn.SessionData{}, err
	}
	// The row's expiry, on the store's clock, is the one that counts.
	sd.Expires = time.Time{}
	return sd, nil
}

// ceremonyRefused is a failed WebAuthn check as the caller reads it: the
// library's own words of what failed, never its internals.
func ceremonyRefused(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		// The library's details of a failed check end in its cause's
		// text, "<nil>" when there is none.
		return &Error{Code: CodePasskeyInvalid, Detail: "the passkey was not accepted: " + strings.TrimSuffix(pe.Details, ": <nil>"), Err: err}
	}
	return &Error{Code: CodePasskeyInvalid, Detail: "the passkey was not accepted", Err: err}
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

// passkeyUser is an account as the library sees it: its user handle is
// the account's id, which names nobody.
type passkeyUser struct {
	u    User
	keys []Passkey
}

func (p passkeyUser) WebAuthnID() []byte          { return []byte(p.u.ID) }
func (p passkeyUser) WebAuthnName() string        { return p.u.Username }
func (p passkeyUser) WebAuthnDisplayName() string { return p.u.DisplayName }
func (p passkeyUser) WebAuthnCredentials() []webauthn.Credential {
	out := make([]webauthn.Credential, len(p.keys))
	for i, k := range p.keys {
		out[i] = k.credential()
	}
	return out
}

// credential is the passkey as the library checks an assertion against it.
func (p Passkey) credential() webauthn.Credential {
	ts := make([]protocol.AuthenticatorTransport, len(p.Transports))
	for i, t := range p.Transports {
		ts[i] = protocol.AuthenticatorTransport(t)
	}
	return webauthn.Credential{ID: p.CredentialID, PublicKey: p.PublicKey, AttestationType: p.AttestationType,
		AttestationFormat: p.AttestationFormat, Transport: ts,
		Flags: webauthn.CredentialFlags{UserPresent: true, UserVerified: p.UserVerified,
			BackupEligible: p.BackupEligible, BackupState: p.BackupState},
		Authenticator: webauthn.Authenticator{AAGUID: p.AAGUID, SignCount: p.SignCount}}
}

func passkeyOf(c *webauthn.Credential, userID, name string, now time.Time) Passkey {
	ts := make([]string, len(c.Transport))
	for i, t := range c.Transport {
		ts[i] = string(t)
	}
	return Passkey{ID: newID(), UserID: userID, CredentialID: c.ID, PublicKey: c.PublicKey, SignCount: c.Authenticator.SignCount,
		BackupEligible: c.Flags.BackupEligible, BackupState: c.Flags.BackupState, UserVerified: c.Flags.UserVerified,
		AttestationType: c.AttestationType, AttestationFormat: c.AttestationFormat, Transports: ts,
		AAGUID: c.Authenticator.AAGUID, Name: name, CreatedAt: now}
}
