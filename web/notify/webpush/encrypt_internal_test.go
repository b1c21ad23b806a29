package webpush

import (
	"bytes"
	"crypto/ecdh"
	"testing"

	"tend/internal/pushtest"
)

var rfc = pushtest.RFC8291Example

func unb64(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := decode(s)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestEncryptRFC8291Example(t *testing.T) {
	key, err := ecdh.P256().NewPrivateKey(unb64(t, rfc.ASPrivate))
	if err != nil {
		t.Fatal(err)
	}
	if got := b64.EncodeToString(key.PublicKey().Bytes()); got != rfc.ASPublic {
		t.Fatalf("the RFC's server key gives public %s, want %s", got, rfc.ASPublic)
	}
	got, err := encrypt([]byte(rfc.Plaintext), unb64(t, rfc.UAPublic), unb64(t, rfc.Auth), draw{salt: unb64(t, rfc.Salt), key: key})
	if err != nil {
		t.Fatal(err)
	}
	if want := unb64(t, rfc.Body); !bytes.Equal(got, want) {
		t.Fatalf("body =\n%s\nwant the RFC's\n%s", b64.EncodeToString(got), rfc.Body)
	}

	// The same body through the stand-in's receiver, written apart.
	b, err := pushtest.BrowserFromKeys(unb64(t, rfc.UAPrivate), unb64(t, rfc.Auth))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := b.Decrypt(got)
	if err != nil || string(plain) != rfc.Plaintext {
		t.Fatalf("the stand-in read %q, %v", plain, err)
	}
}

// TestEncryptFreshDraws checks that two messages never share a salt or a
// server key: a repeated pair would repeat the AES-GCM key and nonce.
func TestEncryptFreshDraws(t *testing.T) {
	a, err := newDraw()
	if err != nil {
		t.Fatal(err)
	}
	b, err := newDraw()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.salt, b.salt) || bytes.Equal(a.key.Bytes(), b.key.Bytes()) {
		t.Fatal("two draws are the same")
	}
	if len(a.salt) != 16 {
		t.Fatalf("salt is %d bytes, want 16", len(a.salt))
	}
}
