// Package passkeys speaks WebAuthn for tend's Service: it implements
// app.Ceremonies over github.com/go-webauthn/webauthn. app keeps every rule
// around a ceremony (who may begin one, challenges spent once, rate limits,
// which passkey an answer names, the relying party a host gets); this
// package makes the options and checks the browser's answers. It sits
// outside app because the library's protocol packages also read HTTP
// requests, and app links no transport.
package passkeys

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"tend/app"
)

// Ceremonies is app.Ceremonies over go-webauthn. It holds nothing: each
// call builds the relying party it is given.
type Ceremonies struct{}

var _ app.Ceremonies = Ceremonies{}

// BeginRegistration makes creation options for u that require a
// discoverable credential and exclude the passkeys u holds.
func (Ceremonies) BeginRegistration(rp app.RelyingParty, u app.User, holds []app.Passkey) (options, state []byte, err error) {
	wa, err := relyingParty(rp)
	if err != nil {
		return nil, nil, err
	}
	pu := user{u: u, keys: holds}
	creation, sd, err := wa.BeginRegistration(pu,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(pu.WebAuthnCredentials()).CredentialDescriptors()))
	if err != nil {
		return nil, nil, err
	}
	return begun(creation.Response, sd)
}

// FinishRegistration checks a PublicKeyCredential against state and
// answers the passkey it makes, without the fields app gives it (id,
// account, name, times).
func (Ceremonies) FinishRegistration(rp app.RelyingParty, u app.User, state, credential []byte) (app.Passkey, error) {
	parsed, err := protocol.ParseCredentialCreationResponseBytes(credential)
	if err != nil {
		return app.Passkey{}, refused(err)
	}
	wa, sd, err := resume(rp, state)
	if err != nil {
		return app.Passkey{}, err
	}
	c, err := wa.CreateCredential(user{u: u}, sd, parsed)
	if err != nil {
		return app.Passkey{}, refused(err)
	}
	ts := make([]string, len(c.Transport))
	for i, t := range c.Transport {
		ts[i] = string(t)
	}
	return app.Passkey{CredentialID: c.ID, PublicKey: c.PublicKey, SignCount: c.Authenticator.SignCount,
		BackupEligible: c.Flags.BackupEligible, BackupState: c.Flags.BackupState, UserVerified: c.Flags.UserVerified,
		AttestationType: c.AttestationType, AttestationFormat: c.AttestationFormat, Transports: ts,
		AAGUID: c.Authenticator.AAGUID}, nil
}

// BeginSignIn makes options that name no account: the authenticator
// offers the passkeys it holds for the relying party.
func (Ceremonies) BeginSignIn(rp app.RelyingParty) (options, state []byte, err error) {
	wa, err := relyingParty(rp)
	if err != nil {
		return nil, nil, err
	}
	assertion, sd, err := wa.BeginDiscoverableLogin()
	if err != nil {
		return nil, nil, err
	}
	return begun(assertion.Response, sd)
}

// Asserted reads the credential id and user handle an assertion carries.
func (Ceremonies) Asserted(credential []byte) (credentialID, userHandle []byte, err error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return nil, nil, refused(err)
	}
	return parsed.RawID, parsed.Response.UserHandle, nil
}

// FinishSignIn checks an assertion against state and key, u's passkey it
// names, and answers key with the count and flags the authenticator
// reports now. A count that did not rise (a copied authenticator) is
// refused unless the authenticator counts nothing.
func (Ceremonies) FinishSignIn(rp app.RelyingParty, u app.User, key app.Passkey, state, credential []byte) (app.Passkey, error) {
	parsed, err := protocol.ParseCredentialRequestResponseBytes(credential)
	if err != nil {
		return app.Passkey{}, refused(err)
	}
	wa, sd, err := resume(rp, state)
	if err != nil {
		return app.Passkey{}, err
	}
	_, cred, err := wa.ValidatePasskeyLogin(func(_, _ []byte) (webauthn.User, error) {
		return user{u: u, keys: []app.Passkey{key}}, nil
	}, sd, parsed)
	if err != nil {
		return app.Passkey{}, refused(err)
	}
	if cred.Authenticator.CloneWarning {
		return app.Passkey{}, app.Errorf(app.CodePasskeyInvalid, "this passkey's signature count went backwards, as a copied authenticator's does; it is refused")
	}
	key.SignCount, key.BackupState, key.UserVerified = cred.Authenticator.SignCount, cred.Flags.BackupState, cred.Flags.UserVerified
	return key, nil
}

// relyingParty is the library's relying party for rp, asking for
// discoverable credentials, no attestation, and answers within the
// lifetime of app's challenges.
func relyingParty(rp app.RelyingParty) (*webauthn.WebAuthn, error) {
	return webauthn.New(&webauthn.Config{RPID: rp.ID, RPDisplayName: "tend", RPOrigins: rp.Origins,
		AttestationPreference: protocol.PreferNoAttestation,
		AuthenticatorSelection: protocol.AuthenticatorSelection{ResidentKey: protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationPreferred},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: app.PasskeyChallengeLifetime, TimeoutUVD: app.PasskeyChallengeLifetime},
			Registration: webauthn.TimeoutConfig{Timeout: app.PasskeyChallengeLifetime, TimeoutUVD: app.PasskeyChallengeLifetime}}})
}

// begun is a ceremony's options as the browser takes them and its state as
// app keeps it.
func begun(options any, sd *webauthn.SessionData) ([]byte, []byte, error) {
	o, err := json.Marshal(options)
	if err != nil {
		return nil, nil, err
	}
	s, err := json.Marshal(sd)
	if err != nil {
		return nil, nil, err
	}
	return o, s, nil
}

// resume is the relying party and the session data a ceremony began with.
// The challenge row's expiry, on the store's clock, is the one that
// counts, so the library's own is dropped.
func resume(rp app.RelyingParty, state []byte) (*webauthn.WebAuthn, webauthn.SessionData, error) {
	var sd webauthn.SessionData
	if err := json.Unmarshal(state, &sd); err != nil {
		return nil, sd, err
	}
	sd.Expires = time.Time{}
	wa, err := relyingParty(rp)
	return wa, sd, err
}

// refused is a failed WebAuthn check as the caller reads it: the library's
// own words of what failed, never its internals.
func refused(err error) error {
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		// The library's details of a failed check end in its cause's
		// text, "<nil>" when there is none.
		return &app.Error{Code: app.CodePasskeyInvalid, Detail: "the passkey was not accepted: " + strings.TrimSuffix(pe.Details, ": <nil>"), Err: err}
	}
	return &app.Error{Code: app.CodePasskeyInvalid, Detail: "the passkey was not accepted", Err: err}
}

// user is an account as the library sees it: its user handle is the
// account's id, which names nobody.
type user struct {
	u    app.User
	keys []app.Passkey
}

func (p user) WebAuthnID() []byte          { return []byte(p.u.ID) }
func (p user) WebAuthnName() string        { return p.u.Username }
func (p user) WebAuthnDisplayName() string { return p.u.DisplayName }
func (p user) WebAuthnCredentials() []webauthn.Credential {
	out := make([]webauthn.Credential, len(p.keys))
	for i, k := range p.keys {
		out[i] = credential(k)
	}
	return out
}

// credential is a passkey as the library checks an assertion against it.
func credential(p app.Passkey) webauthn.Credential {
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
