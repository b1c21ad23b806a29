package webpush

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"
)

// tokenLife is how long a VAPID token is valid. RFC 8292 §2 caps exp at
// 24 hours after the request; half that leaves room for a push service
// whose clock runs ahead of ours.
const tokenLife = 12 * time.Hour

// jwtHeader is the JWS header of every token: ES256 is the one algorithm
// RFC 8292 §2 allows.
var jwtHeader = b64.EncodeToString([]byte(`{"typ":"JWT","alg":"ES256"}`))

// authorization is the RFC 8292 §3 header value "vapid t=JWT, k=KEY" for
// a push service at aud (an origin). It uses the "vapid" scheme, not the
// older "WebPush" + Crypto-Key form of the drafts, which RFC 8292 replaced.
func authorization(aud, subject string, exp time.Time, priv *ecdsa.PrivateKey, pub []byte) (string, error) {
	claims, err := json.Marshal(struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}{aud, exp.Unix(), subject})
	if err != nil {
		return "", err
	}
	input := jwtHeader + "." + b64.EncodeToString(claims)
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, priv, digest[:])
	if err != nil {
		return "", fmt.Errorf("webpush: signing the VAPID token: %w", err)
	}
	// A JWS ES256 signature is R and S as two 32-byte big-endian numbers
	// (RFC 7518 §3.4), not the ASN.1 form SignASN1 makes.
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return "vapid t=" + input + "." + b64.EncodeToString(sig) + ", k=" + b64.EncodeToString(pub), nil
}
