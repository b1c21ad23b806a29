package pushtest_test

import (
	"bytes"
	"encoding/base64"
	"testing"

	"tend/internal/pushtest"
)

var rfc = pushtest.RFC8291Example

func rfcBrowser(tb testing.TB) *pushtest.Browser {
	tb.Helper()
	b, err := pushtest.BrowserFromKeys(unb64(tb, rfc.UAPrivate), unb64(tb, rfc.Auth))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func unb64(tb testing.TB, s string) []byte {
	tb.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestDecryptRFC8291Example(t *testing.T) {
	b := rfcBrowser(t)
	if b.P256dh != rfc.UAPublic || b.Auth != rfc.Auth {
		t.Fatalf("keys = %s, %s; want the RFC's %s, %s", b.P256dh, b.Auth, rfc.UAPublic, rfc.Auth)
	}
	got, err := b.Decrypt(unb64(t, rfc.Body))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != rfc.Plaintext {
		t.Fatalf("plaintext = %q, want %q", got, rfc.Plaintext)
	}
}

func TestDecryptRefuses(t *testing.T) {
	b := rfcBrowser(t)
	body := unb64(t, rfc.Body)
	edit := func(f func([]byte) []byte) []byte { return f(bytes.Clone(body)) }
	for name, bad := range map[string][]byte{
		"empty":            nil,
		"header only":      body[:86],
		"truncated keyid":  body[:40],
		"flipped tag bit":  edit(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }),
		"flipped salt bit": edit(func(b []byte) []byte { b[0] ^= 1; return b }),
		"rs below 18":      edit(func(b []byte) []byte { b[16], b[17], b[18], b[19] = 0, 0, 0, 17; return b }),
		// rs 24 makes the RFC's 58-byte record more than one record.
		"two records": edit(func(b []byte) []byte { b[16], b[17], b[18], b[19] = 0, 0, 0, 24; return b }),
		"short keyid": edit(func(b []byte) []byte { b[20] = 64; return b }),
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := b.Decrypt(bad); err == nil {
				t.Fatalf("decrypted to %q", got)
			}
		})
	}
	if _, err := pushtest.NewBrowser().Decrypt(body); err == nil {
		t.Fatal("another browser decrypted the RFC's message")
	}
}

func TestBrowserFromKeysRefuses(t *testing.T) {
	if _, err := pushtest.BrowserFromKeys(make([]byte, 32), unb64(t, rfc.Auth)); err == nil {
		t.Error("a zero scalar was taken")
	}
	if _, err := pushtest.BrowserFromKeys(unb64(t, rfc.UAPrivate), make([]byte, 15)); err == nil {
		t.Error("a 15-byte auth secret was taken")
	}
}

// FuzzDecrypt feeds the receiver's header parser and record reader any
// body: it must refuse or decrypt, never panic.
func FuzzDecrypt(f *testing.F) {
	b := rfcBrowser(f)
	body := unb64(f, rfc.Body)
	f.Add(body)
	f.Add(body[:86])
	f.Add(body[:21])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		plain, err := b.Decrypt(body)
		if err == nil && len(plain) >= len(body) {
			t.Fatalf("%d bytes of plaintext out of a %d-byte body", len(plain), len(body))
		}
	})
}
