package webpush

import (
	"bytes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Keys is the instance's VAPID key pair, each base64url without padding:
// Public is the uncompressed P-256 point (65 bytes) that a browser's
// pushManager.subscribe takes as its applicationServerKey, Private the
// 32-byte scalar that signs.
type Keys struct{ Public, Private string }

// NewKeys makes a fresh VAPID key pair.
func NewKeys() (Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, fmt.Errorf("webpush: making VAPID keys: %w", err)
	}
	return Keys{
		Public:  b64.EncodeToString(k.PublicKey().Bytes()),
		Private: b64.EncodeToString(k.Bytes()),
	}, nil
}

var errKeys = errors.New("webpush: the VAPID keys are not a P-256 key pair")

// signer returns the key that signs the JWT and the public point sent as
// k=. A Public that is not the Private's would have every push refused
// (the push service checks the signature against k=, the browser compares
// k= with the key it subscribed with), so it is an error here instead.
func (k Keys) signer() (*ecdsa.PrivateKey, []byte, error) {
	raw, err := decode(k.Private)
	if err != nil {
		return nil, nil, errKeys
	}
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
	if err != nil {
		return nil, nil, errKeys
	}
	pub, err := priv.PublicKey.Bytes()
	if err != nil {
		return nil, nil, errKeys
	}
	if want, err := decode(k.Public); err != nil || !bytes.Equal(want, pub) {
		return nil, nil, errKeys
	}
	return priv, pub, nil
}

var b64 = base64.RawURLEncoding

// decode reads base64url without padding, as PushSubscription.toJSON()
// gives keys, and also the padded and the standard alphabet, which some
// clients and older libraries send (webpush-go's issue 29).
func decode(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	s = strings.NewReplacer("+", "-", "/", "_").Replace(s)
	return b64.DecodeString(s)
}
