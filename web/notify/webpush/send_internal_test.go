package webpush

import (
	"bytes"
	"net/url"
	"testing"
	"time"
)

// BenchmarkRequest is the sender's own share of a push: a fresh message
// key and salt, the encryption of a 1 KB payload and the VAPID signature.
func BenchmarkRequest(b *testing.B) {
	keys, err := NewKeys()
	if err != nil {
		b.Fatal(err)
	}
	sub := Subscription{Endpoint: "https://push.example/push/s1", P256dh: rfc.UAPublic, Auth: rfc.Auth}
	payload := bytes.Repeat([]byte("x"), 1024)
	b.ReportAllocs()
	for b.Loop() {
		d, err := newDraw()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := request(b.Context(), sub, payload, keys, "mailto:a@tend.example", time.Hour, d, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                              0,
		"120":                           2 * time.Minute,
		"0":                             0,
		"-5":                            0,
		"soon":                          0,
		"Sun, 06 Dec 2026 09:01:30 GMT": 90 * time.Second,
		"Sun, 06 Dec 2026 08:59:00 GMT": 0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", v, got, want)
		}
	}
}

func TestOrigin(t *testing.T) {
	for endpoint, want := range map[string]string{
		"https://fcm.googleapis.com/fcm/send/abc":         "https://fcm.googleapis.com",
		"https://Updates.Push.Services.Mozilla.com/wpush": "https://updates.push.services.mozilla.com",
		"https://web.push.apple.com:443/QGx":              "https://web.push.apple.com",
		"http://push.example:80/x":                        "http://push.example",
		"http://127.0.0.1:8080/push/s1":                   "http://127.0.0.1:8080",
		"https://[::1]:8443/push/s1":                      "https://[::1]:8443",
		"HTTPS://push.example:8443/x":                     "https://push.example:8443",
	} {
		u, err := url.Parse(endpoint)
		if err != nil {
			t.Fatal(err)
		}
		if got := origin(u); got != want {
			t.Errorf("origin(%s) = %s, want %s", endpoint, got, want)
		}
	}
}
