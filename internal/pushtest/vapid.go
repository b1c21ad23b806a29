package pushtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// maxLife is the furthest exp may lie ahead of the request (RFC 8292 §2).
const maxLife = 24 * time.Hour

// vapid is a checked VAPID credential.
type vapid struct {
	key     string // k=, as sent
	subject string
	expires time.Time
}

// errAbsent is a request with no "vapid" credential at all, which RFC
// 8292 §4.2 answers 401; a credential that is there and wrong is 403.
var errAbsent = errors.New("no vapid Authorization")

// parseAuthorization splits `vapid t=JWT, k=KEY` (RFC 8292 §3) into its
// two parameters.
func parseAuthorization(v string) (token, key string, err error) {
	scheme, params, ok := strings.Cut(strings.TrimSpace(v), " ")
	if !ok || !strings.EqualFold(scheme, "vapid") {
		return "", "", errAbsent
	}
	for p := range strings.SplitSeq(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch strings.ToLower(name) {
		case "t":
			token = value
		case "k":
			key = value
		}
	}
	if token == "" || key == "" {
		return "", "", errors.New("vapid Authorization without t= or k=")
	}
	return token, key, nil
}

// verify checks the credential in an Authorization header for a message
// to a push resource at origin, at time now.
func verify(authorization, origin string, now time.Time) (vapid, error) {
	token, key, err := parseAuthorization(authorization)
	if err != nil {
		return vapid{}, err
	}
	point, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return vapid{}, errors.New("k= is not base64url")
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), point)
	if err != nil {
		return vapid{}, errors.New("k= is not an uncompressed P-256 point")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return vapid{}, errors.New("t= is not a JWS in compact form")
	}
	var head struct {
		Alg string `json:"alg"`
	}
	if err := decodeJSON(parts[0], &head); err != nil || head.Alg != "ES256" {
		return vapid{}, errors.New("the JWT's header does not say ES256")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return vapid{}, errors.New("the JWT's signature is not 64 bytes of base64url")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(pub, digest[:], r, s) {
		return vapid{}, errors.New("the JWT's signature does not verify under k=")
	}
	var claims struct {
		Aud string          `json:"aud"`
		Exp json.RawMessage `json:"exp"`
		Sub string          `json:"sub"`
	}
	if err := decodeJSON(parts[1], &claims); err != nil {
		return vapid{}, fmt.Errorf("the JWT's claims: %w", err)
	}
	if claims.Aud != origin {
		return vapid{}, fmt.Errorf("aud %q is not the push resource's origin %q", claims.Aud, origin)
	}
	if claims.Exp == nil {
		return vapid{}, errors.New("the JWT has no exp")
	}
	// A NumericDate is a JSON number (RFC 7519 §2), not a string of one.
	exp, err := strconv.ParseInt(string(claims.Exp), 10, 64)
	if err != nil {
		return vapid{}, errors.New("exp is not a whole number of seconds")
	}
	expires := time.Unix(exp, 0)
	switch {
	case !expires.After(now):
		return vapid{}, fmt.Errorf("the JWT expired at %s", expires.UTC().Format(time.RFC3339))
	case expires.Sub(now) > maxLife:
		return vapid{}, fmt.Errorf("exp %s is more than 24 h ahead", expires.UTC().Format(time.RFC3339))
	}
	if claims.Sub == "" {
		return vapid{}, errors.New("the JWT has no sub")
	}
	return vapid{key: key, subject: claims.Sub, expires: expires}, nil
}

func decodeJSON(part string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}
