package pushtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"testing"
	"time"
)

// signed is an Authorization header carrying claims as they are, signed
// with key, so that the fuzzer reaches the claims past the signature.
func signed(tb testing.TB, key *ecdsa.PrivateKey, head string, claims []byte) string {
	tb.Helper()
	enc := base64.RawURLEncoding
	input := enc.EncodeToString([]byte(head)) + "." + enc.EncodeToString(claims)
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		tb.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	pub, err := key.PublicKey.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return "vapid t=" + input + "." + enc.EncodeToString(sig) + ", k=" + enc.EncodeToString(pub)
}

const fuzzOrigin = "https://push.example"

var fuzzNow = time.Unix(1_800_000_000, 0)

func TestVerify(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	const head = `{"typ":"JWT","alg":"ES256"}`
	good := signed(t, key, head, []byte(`{"aud":"https://push.example","exp":1800003600,"sub":"mailto:a@tend.example"}`))
	if v, err := verify(good, fuzzOrigin, fuzzNow); err != nil || v.subject != "mailto:a@tend.example" || !v.expires.Equal(fuzzNow.Add(time.Hour)) {
		t.Fatalf("verify = %+v, %v", v, err)
	}
	for name, auth := range map[string]string{
		"no sub":        signed(t, key, head, []byte(`{"aud":"https://push.example","exp":1800003600}`)),
		"no exp":        signed(t, key, head, []byte(`{"aud":"https://push.example","sub":"mailto:a@tend.example"}`)),
		"exp a string":  signed(t, key, head, []byte(`{"aud":"https://push.example","exp":"1800003600","sub":"x"}`)),
		"exp past":      signed(t, key, head, []byte(`{"aud":"https://push.example","exp":1800000000,"sub":"x"}`)),
		"exp 25 h":      signed(t, key, head, []byte(`{"aud":"https://push.example","exp":1800090000,"sub":"x"}`)),
		"aud with path": signed(t, key, head, []byte(`{"aud":"https://push.example/","exp":1800003600,"sub":"x"}`)),
		"alg none":      signed(t, key, `{"alg":"none"}`, []byte(`{"aud":"https://push.example","exp":1800003600,"sub":"x"}`)),
		"no k":          good[:len("vapid t=")+10],
		"empty":         "",
	} {
		if _, err := verify(auth, fuzzOrigin, fuzzNow); err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

// FuzzVerify feeds the VAPID checker any Authorization header and any
// claims under a good signature: it must refuse or accept, never panic,
// and accept only claims that hold.
func FuzzVerify(f *testing.F) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	f.Add("vapid t=a.b.c, k=d", []byte(`{"aud":"https://push.example","exp":1800003600,"sub":"mailto:a@tend.example"}`))
	f.Add("vapid t=, k=", []byte(`{"exp":1e30}`))
	f.Add("WebPush x", []byte(`[]`))
	f.Fuzz(func(t *testing.T, auth string, claims []byte) {
		_, _ = verify(auth, fuzzOrigin, fuzzNow)
		v, err := verify(signed(t, key, `{"typ":"JWT","alg":"ES256"}`, claims), fuzzOrigin, fuzzNow)
		if err == nil && (v.subject == "" || !v.expires.After(fuzzNow) || v.expires.Sub(fuzzNow) > maxLife) {
			t.Fatalf("accepted %s as %+v", claims, v)
		}
	})
}
