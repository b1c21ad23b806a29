package webpush

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// recordSize is the rs every message declares. RFC 8291 §4 wants a single
// record, so rs only has to exceed the record (payload, delimiter and
// tag); 4096 is the RFC's own example and the most a push service must
// accept (RFC 8030 §7.2).
const recordSize = 4096

// draw is what one message's encryption takes at random: the salt and the
// application server's one-use ECDH key (RFC 8291 §3.1). Tests fix both to
// reproduce RFC 8291's Appendix A byte for byte.
type draw struct {
	salt []byte
	key  *ecdh.PrivateKey
}

func newDraw() (draw, error) {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return draw{}, fmt.Errorf("webpush: making the message key: %w", err)
	}
	salt := make([]byte, 16)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails (Go 1.24)
	return draw{salt: salt, key: key}, nil
}

// encrypt returns the aes128gcm body for the browser holding uaPublic and
// authSecret: the RFC 8188 §2.1 header (salt, rs, the server's public key
// as keyid) and one record, the plaintext followed by the last-record
// delimiter 0x02 and no further padding.
func encrypt(plaintext, uaPublic, authSecret []byte, d draw) ([]byte, error) {
	ua, err := ecdh.P256().NewPublicKey(uaPublic)
	if err != nil {
		return nil, errP256dh
	}
	shared, err := d.key.ECDH(ua)
	if err != nil {
		return nil, errP256dh
	}
	asPublic := d.key.PublicKey().Bytes()
	// RFC 8291 §3.3 and §3.4: the auth secret salts the ECDH secret into
	// IKM; the message's salt then derives the content key and nonce from
	// IKM (RFC 8188 §2.2, §2.3).
	keyInfo := "WebPush: info\x00" + string(uaPublic) + string(asPublic)
	ikm, err := hkdf.Key(sha256.New, shared, authSecret, keyInfo, 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, d.salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, d.salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	body := make([]byte, 0, len(d.salt)+4+1+len(asPublic)+len(plaintext)+1+gcm.Overhead())
	body = append(body, d.salt...)
	body = binary.BigEndian.AppendUint32(body, recordSize)
	body = append(body, byte(len(asPublic)))
	body = append(body, asPublic...)
	record := make([]byte, len(plaintext)+1)
	copy(record, plaintext)
	record[len(plaintext)] = 2
	// The only record is record 0, whose nonce is the derived one as is.
	return gcm.Seal(body, nonce, record, nil), nil
}
