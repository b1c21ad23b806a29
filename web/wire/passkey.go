package wire

import (
	"encoding/json"

	"tend/app"
)

// Passkey is a passkey as its owner sees it: never its key.
type Passkey struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	CreatedAt  string  `json:"created_at"`
	LastUsedAt *string `json:"last_used_at"`
}

// NewPasskey is the wire record of p.
func NewPasskey(p app.Passkey) Passkey {
	return Passkey{ID: p.ID, Name: p.Name, CreatedAt: Stamp(p.CreatedAt), LastUsedAt: StampPtr(p.LastUsedAt)}
}

// WebAuthnJSON is JSON whose shape WebAuthn defines (options, a
// PublicKeyCredential), passed through as it is: the library reads and
// writes it, so the API does not restate it.
type WebAuthnJSON struct{ raw json.RawMessage }

// MarshalJSON writes the JSON as it is.
func (j WebAuthnJSON) MarshalJSON() ([]byte, error) {
	if j.raw == nil {
		return []byte("null"), nil
	}
	return j.raw, nil
}

// UnmarshalJSON keeps the JSON as it is.
func (j *WebAuthnJSON) UnmarshalJSON(b []byte) error {
	j.raw = append(j.raw[:0], b...)
	return nil
}

// PasskeyOptions is what navigator.credentials.create or .get takes as
// its publicKey member (WebAuthn's JSON form, camelCase as the browser
// reads it), and the id to post the answer back with.
type PasskeyOptions struct {
	ChallengeID string       `json:"challenge_id"`
	PublicKey   WebAuthnJSON `json:"public_key"`
}

// NewPasskeyOptions is the wire record of o.
func NewPasskeyOptions(o app.PasskeyOptions) PasskeyOptions {
	return PasskeyOptions{ChallengeID: o.ChallengeID, PublicKey: WebAuthnJSON{o.PublicKey}}
}

// PasskeyCreate is the body of POST /v1/me/passkeys: the challenge id the
// options came with, the PublicKeyCredential the browser made, as JSON,
// and a name.
type PasskeyCreate struct {
	ChallengeID string       `json:"challenge_id"`
	Name        string       `json:"name,omitempty"`
	Credential  WebAuthnJSON `json:"credential"`
}

// App is the registration to finish.
func (in PasskeyCreate) App() app.PasskeyRegistration {
	return app.PasskeyRegistration{ChallengeID: in.ChallengeID, Name: in.Name, Credential: in.Credential.raw}
}

// PasskeyRename is the body of PATCH /v1/me/passkeys/{id}.
type PasskeyRename struct {
	Name string `json:"name"`
}

// PasskeySignIn is the body of POST /v1/passkeys/signin: the challenge id
// and the assertion the browser made, as JSON.
type PasskeySignIn struct {
	ChallengeID string       `json:"challenge_id"`
	Credential  WebAuthnJSON `json:"credential"`
}

// App is the sign-in to finish.
func (in PasskeySignIn) App() app.PasskeySignIn {
	return app.PasskeySignIn{ChallengeID: in.ChallengeID, Credential: in.Credential.raw}
}
