package pushtest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
)

// Browser is the user agent's side of a push subscription: the ECDH key
// pair and the authentication secret it keeps (RFC 8291 §2), and the
// endpoint its push service gave it.
type Browser struct {
	// Endpoint is the push resource's URL; "" until Server.Subscribe.
	Endpoint string
	// P256dh and Auth are the subscription's keys as
	// PushSubscription.toJSON() gives them: base64url without padding.
	P256dh, Auth string

	key  *ecdh.PrivateKey
	auth []byte
}

// NewBrowser makes a user agent's key pair and auth secret.
func NewBrowser() *Browser {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		// ecdh reads the system's random source, which does not fail
		// since Go 1.24.
		panic(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return &Browser{
		P256dh: base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes()),
		Auth:   base64.RawURLEncoding.EncodeToString(auth),
		key:    key,
		auth:   auth,
	}
}

// BrowserFromKeys is a browser holding the given private key (a 32-byte
// P-256 scalar) and auth secret, such as RFC 8291 Appendix A's.
func BrowserFromKeys(private, auth []byte) (*Browser, error) {
	key, err := ecdh.P256().NewPrivateKey(private)
	if err != nil {
		return nil, fmt.Errorf("pushtest: the browser's key: %w", err)
	}
	if len(auth) != 16 {
		return nil, errors.New("pushtest: an auth secret is 16 bytes (RFC 8291 §3.2)")
	}
	return &Browser{
		P256dh: base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes()),
		Auth:   base64.RawURLEncoding.EncodeToString(auth),
		key:    key,
		auth:   append([]byte(nil), auth...),
	}, nil
}

// header is the aes128gcm coding's header, RFC 8188 §2.1.
type header struct {
	salt  []byte
	rs    uint32
	keyid []byte
}

// parseHeader splits body into the RFC 8188 §2.1 header and what follows.
func parseHeader(body []byte) (header, []byte, error) {
	const fixed = 16 + 4 + 1 // salt, rs, idlen
	if len(body) < fixed {
		return header{}, nil, errors.New("pushtest: shorter than the aes128gcm header")
	}
	h := header{salt: body[:16], rs: binary.BigEndian.Uint32(body[16:20])}
	idlen := int(body[20])
	if len(body) < fixed+idlen {
		return header{}, nil, errors.New("pushtest: shorter than its keyid")
	}
	h.keyid = body[fixed : fixed+idlen]
	// RFC 8188 §2.1: rs below 18 leaves no room for a delimiter and tag.
	if h.rs < 18 {
		return header{}, nil, fmt.Errorf("pushtest: record size %d is below 18", h.rs)
	}
	return h, body[fixed+idlen:], nil
}

// Decrypt reads a push message's body the way RFC 8291 §3.4 and RFC 8188
// tell a user agent to, and returns the plaintext. It takes a single
// record only, as RFC 8291 §4 lets a user agent do.
func (b *Browser) Decrypt(body []byte) ([]byte, error) {
	h, records, err := parseHeader(body)
	if err != nil {
		return nil, err
	}
	// RFC 8291 §4: the keyid is the application server's public key, an
	// uncompressed point.
	if len(h.keyid) != 65 {
		return nil, fmt.Errorf("pushtest: keyid is %d bytes, not a 65-byte P-256 point", len(h.keyid))
	}
	asPublic, err := ecdh.P256().NewPublicKey(h.keyid)
	if err != nil {
		return nil, fmt.Errorf("pushtest: keyid: %w", err)
	}
	const tag = 16
	if len(records) < tag+1 {
		return nil, errors.New("pushtest: the record is shorter than a tag and a delimiter")
	}
	if uint64(len(records)) > uint64(h.rs) {
		return nil, fmt.Errorf("pushtest: %d bytes of records under rs %d is more than one record", len(records), h.rs)
	}
	ecdhSecret, err := b.key.ECDH(asPublic)
	if err != nil {
		return nil, fmt.Errorf("pushtest: ECDH: %w", err)
	}
	uaPublic := b.key.PublicKey().Bytes()

	// RFC 8291 §3.4, step by step: HKDF written out as HMAC-SHA-256, its
	// expand cut to one block (T(1) = HMAC(PRK, info || 0x01)).
	prkKey := mac(b.auth, ecdhSecret)
	keyInfo := concat([]byte("WebPush: info\x00"), uaPublic, h.keyid)
	ikm := mac(prkKey, keyInfo, []byte{1})
	prk := mac(h.salt, ikm)
	cek := mac(prk, []byte("Content-Encoding: aes128gcm\x00"), []byte{1})[:16]
	nonce := mac(prk, []byte("Content-Encoding: nonce\x00"), []byte{1})[:12]

	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	// Record 0's nonce is the derived nonce XOR 0 (RFC 8188 §2.3).
	plain, err := aead.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, fmt.Errorf("pushtest: the record does not decrypt: %w", err)
	}
	return unpad(plain)
}

// unpad strips RFC 8188 §2's padding: the content, one delimiter octet
// (2 for the last record), then any number of zeros.
func unpad(record []byte) ([]byte, error) {
	i := len(record) - 1
	for i >= 0 && record[i] == 0 {
		i--
	}
	switch {
	case i < 0:
		return nil, errors.New("pushtest: the record has no delimiter")
	case record[i] != 2:
		return nil, fmt.Errorf("pushtest: the only record ends in delimiter %d, not 2", record[i])
	}
	return record[:i], nil
}

func mac(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
