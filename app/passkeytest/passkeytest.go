// Package passkeytest is a software WebAuthn authenticator for tests: it
// answers the options tend hands a browser as a platform authenticator
// would, built by hand from the WebAuthn specification (§6.1 authenticator
// data, §6.5 attestation "none", §6.3.3 assertion signatures), with an
// ES256 key. Tests tamper with its fields to forge, replay and clone.
package passkeytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// Authenticator holds one discoverable credential, made by Create.
type Authenticator struct {
	// Origin is what the browser puts in clientDataJSON: where the page
	// that asked is.
	Origin string
	// RPID overrides the relying party id the options name, as a phishing
	// site's authenticator data would carry its own.
	RPID string
	// SignCount is the counter the next assertion carries; each Get adds 1
	// first unless Frozen.
	SignCount uint32
	// Frozen keeps SignCount as it is, as authenticators that count
	// nothing (always 0) do.
	Frozen bool
	// BackupEligible and BackupState set the BE and BS flags.
	BackupEligible, BackupState bool

	key        *ecdsa.PrivateKey
	id         []byte
	userHandle []byte
	rpID       string
}

// New is an authenticator for pages at origin.
func New(origin string) *Authenticator {
	return &Authenticator{Origin: origin}
}

var b64 = base64.RawURLEncoding

// CredentialID is the credential Create made, base64url as the browser
// names it.
func (a *Authenticator) CredentialID() string { return b64.EncodeToString(a.id) }

type options struct {
	Challenge string `json:"challenge"`
	RPID      string `json:"rpId"`
	RP        struct {
		ID string `json:"id"`
	} `json:"rp"`
	User struct {
		ID string `json:"id"`
	} `json:"user"`
}

// Create answers creation options (PublicKeyCredentialCreationOptionsJSON)
// with a new ES256 credential and attestation "none", as
// navigator.credentials.create's PublicKeyCredential in its JSON form.
func (a *Authenticator) Create(publicKey json.RawMessage) (json.RawMessage, error) {
	var o options
	if err := json.Unmarshal(publicKey, &o); err != nil {
		return nil, err
	}
	var err error
	if a.key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return nil, err
	}
	a.id = make([]byte, 16)
	_, _ = rand.Read(a.id)
	if a.userHandle, err = b64.DecodeString(o.User.ID); err != nil {
		return nil, fmt.Errorf("user.id: %w", err)
	}
	a.rpID = o.RP.ID
	ecdh, err := a.key.PublicKey.ECDH()
	if err != nil {
		return nil, err
	}
	raw := ecdh.Bytes() // 0x04 || x || y
	cose := cborMap(
		cborPair{cborInt(1), cborInt(2)},  // kty: EC2
		cborPair{cborInt(3), cborInt(-7)}, // alg: ES256
		cborPair{cborInt(-1), cborInt(1)}, // crv: P-256
		cborPair{cborInt(-2), cborBytes(raw[1:33])},
		cborPair{cborInt(-3), cborBytes(raw[33:65])},
	)
	cred := make([]byte, 16, 16+2+len(a.id)+len(cose)) // AAGUID: zero
	cred = binary.BigEndian.AppendUint16(cred, uint16(len(a.id)))
	cred = append(append(cred, a.id...), cose...)
	authData := a.authData(0x40, cred) // AT
	att := cborMap(
		cborPair{cborText("fmt"), cborText("none")},
		cborPair{cborText("attStmt"), cborMap()},
		cborPair{cborText("authData"), cborBytes(authData)},
	)
	cdj, err := a.clientData("webauthn.create", o.Challenge)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": a.CredentialID(), "rawId": a.CredentialID(), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cdj), "attestationObject": b64.EncodeToString(att),
			"transports": []string{"internal"}}})
}

// Get answers request options (PublicKeyCredentialRequestOptionsJSON) with
// an assertion by the credential Create made, naming its user handle.
func (a *Authenticator) Get(publicKey json.RawMessage) (json.RawMessage, error) {
	var o options
	if err := json.Unmarshal(publicKey, &o); err != nil {
		return nil, err
	}
	if a.key == nil {
		return nil, fmt.Errorf("no credential: call Create first")
	}
	if !a.Frozen {
		a.SignCount++
	}
	authData := a.authData(0, nil)
	cdj, err := a.clientData("webauthn.get", o.Challenge)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(cdj)
	digest := sha256.Sum256(append(append([]byte{}, authData...), sum[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.key, digest[:])
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": a.CredentialID(), "rawId": a.CredentialID(), "type": "public-key",
		"authenticatorAttachment": "platform", "clientExtensionResults": map[string]any{},
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cdj), "authenticatorData": b64.EncodeToString(authData),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(a.userHandle)}})
}

// authData is §6.1's authenticator data: rpIdHash, flags (UP and UV
// always, BE/BS as set, plus extra), the counter, then attested.
func (a *Authenticator) authData(extra byte, attested []byte) []byte {
	rp := a.rpID
	if a.RPID != "" {
		rp = a.RPID
	}
	h := sha256.Sum256([]byte(rp))
	flags := byte(0x01|0x04) | extra
	if a.BackupEligible {
		flags |= 0x08
	}
	if a.BackupState {
		flags |= 0x10
	}
	out := append(h[:], flags)
	out = binary.BigEndian.AppendUint32(out, a.SignCount)
	return append(out, attested...)
}

func (a *Authenticator) clientData(typ, challenge string) ([]byte, error) {
	return json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
}

// The little CBOR (RFC 8949) the attestation object and COSE key need:
// small maps, integers, byte and text strings, in canonical form.
type cborPair struct{ k, v []byte }

func cborHead(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 1<<8:
		return []byte{major<<5 | 24, byte(n)}
	case n < 1<<16:
		return binary.BigEndian.AppendUint16([]byte{major<<5 | 25}, uint16(n))
	}
	return binary.BigEndian.AppendUint32([]byte{major<<5 | 26}, uint32(n))
}

func cborInt(n int) []byte {
	if n < 0 {
		return cborHead(1, uint64(-1-n))
	}
	return cborHead(0, uint64(n))
}

func cborBytes(b []byte) []byte { return append(cborHead(2, uint64(len(b))), b...) }
func cborText(s string) []byte  { return append(cborHead(3, uint64(len(s))), s...) }

func cborMap(ps ...cborPair) []byte {
	out := cborHead(5, uint64(len(ps)))
	for _, p := range ps {
		out = append(append(out, p.k...), p.v...)
	}
	return out
}
