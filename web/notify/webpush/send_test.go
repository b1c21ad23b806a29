package webpush_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"tend/internal/pushtest"
	"tend/web/notify/webpush"
)

const subject = "mailto:admin@tend.example"

// fixture is a push service stand-in on loopback, one browser subscribed
// at it for the instance's VAPID key, and that key.
type fixture struct {
	srv     *pushtest.Server
	ts      *httptest.Server
	browser *pushtest.Browser
	keys    webpush.Keys
}

func newFixture(tb testing.TB) fixture {
	tb.Helper()
	keys, err := webpush.NewKeys()
	if err != nil {
		tb.Fatal(err)
	}
	srv := pushtest.NewServer()
	ts := httptest.NewServer(srv)
	tb.Cleanup(ts.Close)
	return fixture{srv: srv, ts: ts, browser: srv.Subscribe(ts.URL, keys.Public), keys: keys}
}

func (f fixture) sub() webpush.Subscription {
	return webpush.Subscription{Endpoint: f.browser.Endpoint, P256dh: f.browser.P256dh, Auth: f.browser.Auth}
}

func (f fixture) send(payload []byte) (int, error) {
	return webpush.Send(context.Background(), f.ts.Client(), f.sub(), payload, f.keys, subject, time.Hour)
}

func TestSendRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, webpush.MaxPayload} {
		f := newFixture(t)
		payload := bytes.Repeat([]byte("é"), n/2)
		if n%2 == 1 {
			payload = append(payload, 'x')
		}
		status, err := f.send(payload)
		if err != nil || status != http.StatusCreated {
			t.Fatalf("%d bytes: Send = %d, %v; stand-in saw %+v", n, status, err, f.srv.Messages())
		}
		msgs := f.srv.Messages()
		if len(msgs) != 1 {
			t.Fatalf("%d bytes: %d messages", n, len(msgs))
		}
		m := msgs[0]
		if !bytes.Equal(m.Payload, payload) {
			t.Errorf("%d bytes: the stand-in decrypted %d bytes that differ", n, len(m.Payload))
		}
		if m.TTL != 3600 || m.Urgency != "normal" || m.Subject != subject || m.Key != f.keys.Public {
			t.Errorf("%d bytes: TTL %d, Urgency %q, sub %q, k %q", n, m.TTL, m.Urgency, m.Subject, m.Key)
		}
		if ce, ct := m.Header.Get("Content-Encoding"), m.Header.Get("Content-Type"); ce != "aes128gcm" || ct != "application/octet-stream" {
			t.Errorf("%d bytes: Content-Encoding %q, Content-Type %q", n, ce, ct)
		}
		if !strings.HasPrefix(m.Header.Get("Authorization"), "vapid t=") {
			t.Errorf("%d bytes: Authorization %q is not the vapid scheme", n, m.Header.Get("Authorization"))
		}
		if life := time.Until(m.Expires); life <= 0 || life > 24*time.Hour {
			t.Errorf("%d bytes: the token expires %s from now", n, life)
		}
	}
}

// TestSendKeysInOtherEncodings takes the subscription keys padded and in
// the standard alphabet, as some clients send them.
func TestSendKeysInOtherEncodings(t *testing.T) {
	f := newFixture(t)
	std := strings.NewReplacer("-", "+", "_", "/")
	sub := f.sub()
	sub.P256dh = std.Replace(sub.P256dh) + "="
	sub.Auth = std.Replace(sub.Auth) + "=="
	status, err := webpush.Send(context.Background(), f.ts.Client(), sub, []byte("hi"), f.keys, subject, 0)
	if err != nil || status != http.StatusCreated {
		t.Fatalf("Send = %d, %v", status, err)
	}
	if m := f.srv.Messages()[0]; m.TTL != 0 || string(m.Payload) != "hi" {
		t.Fatalf("TTL %d, payload %q", m.TTL, m.Payload)
	}
}

// rewrite is a transport that edits each request before it leaves, as a
// broken or hostile path between tend and the push service would.
type rewrite func(*http.Request)

func (f rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	f(r)
	return http.DefaultTransport.RoundTrip(r)
}

func TestSendRefusedCredentials(t *testing.T) {
	other, err := webpush.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, why string
		status    int
		edit      func(f *fixture, sub *webpush.Subscription, client *http.Client)
	}{
		{"no credential", "no vapid", http.StatusUnauthorized, func(f *fixture, _ *webpush.Subscription, c *http.Client) {
			c.Transport = rewrite(func(r *http.Request) { r.Header.Del("Authorization") })
		}},
		{"the older WebPush scheme", "no vapid", http.StatusUnauthorized, func(f *fixture, _ *webpush.Subscription, c *http.Client) {
			c.Transport = rewrite(func(r *http.Request) {
				r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), "vapid", "WebPush", 1))
			})
		}},
		{"tampered token", "signature", http.StatusForbidden, func(f *fixture, _ *webpush.Subscription, c *http.Client) {
			c.Transport = rewrite(func(r *http.Request) {
				a := r.Header.Get("Authorization")
				i := strings.Index(a, ",") - 2 // inside the signature
				flip := byte('A')
				if a[i] == 'A' {
					flip = 'B'
				}
				r.Header.Set("Authorization", a[:i]+string(flip)+a[i+1:])
			})
		}},
		{"wrong aud", "aud", http.StatusForbidden, func(f *fixture, sub *webpush.Subscription, c *http.Client) {
			// The same server under another name: the token is for that
			// name's origin, the subscription for the one it was made at.
			addr := f.ts.Listener.Addr().String()
			sub.Endpoint = strings.Replace(sub.Endpoint, addr, "push.example", 1)
			c.Transport = &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}}
		}},
		{"expired", "expired", http.StatusForbidden, func(f *fixture, _ *webpush.Subscription, _ *http.Client) {
			f.srv.SetClock(func() time.Time { return time.Now().Add(13 * time.Hour) })
		}},
		{"exp beyond 24 h", "24 h", http.StatusForbidden, func(f *fixture, _ *webpush.Subscription, _ *http.Client) {
			f.srv.SetClock(func() time.Time { return time.Now().Add(-13 * time.Hour) })
		}},
		{"another instance's key", "restricted", http.StatusForbidden, func(f *fixture, _ *webpush.Subscription, _ *http.Client) {
			f.keys = other
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			sub, client := f.sub(), f.ts.Client()
			tc.edit(&f, &sub, client)
			status, err := webpush.Send(context.Background(), client, sub, []byte("hi"), f.keys, subject, time.Minute)
			var se *webpush.StatusError
			if status != tc.status || !errors.As(err, &se) || se.Status != tc.status || se.Gone() {
				t.Fatalf("Send = %d, %v; want %d", status, err, tc.status)
			}
			if msgs := f.srv.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Refused, tc.why) {
				t.Fatalf("the stand-in saw %+v; want it refused for %q", msgs, tc.why)
			}
		})
	}
}

// TestStandInRefusesMessages: what RFC 8030 and RFC 8291 require of the
// request, broken on the way, is refused by the stand-in and surfaces as
// the status.
func TestStandInRefusesMessages(t *testing.T) {
	for _, tc := range []struct {
		name, why string
		status    int
		edit      func(*http.Request)
	}{
		{"no TTL", "TTL", http.StatusBadRequest, func(r *http.Request) { r.Header.Del("TTL") }},
		{"unknown urgency", "urgency", http.StatusBadRequest, func(r *http.Request) { r.Header.Set("Urgency", "urgent") }},
		{"older coding", "aes128gcm", http.StatusBadRequest, func(r *http.Request) { r.Header.Set("Content-Encoding", "aesgcm") }},
		{"body over 4096 bytes", "4096", http.StatusRequestEntityTooLarge, func(r *http.Request) {
			setBody(r, make([]byte, 4097))
		}},
		{"tampered body", "decrypt", http.StatusBadRequest, func(r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			body[len(body)-1] ^= 1
			setBody(r, body)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			client := &http.Client{Transport: rewrite(tc.edit)}
			status, err := webpush.Send(context.Background(), client, f.sub(), []byte("hi"), f.keys, subject, time.Minute)
			if status != tc.status || err == nil {
				t.Fatalf("Send = %d, %v; want %d", status, err, tc.status)
			}
			if msgs := f.srv.Messages(); len(msgs) != 1 || !strings.Contains(msgs[0].Refused, tc.why) {
				t.Fatalf("the stand-in saw %+v; want it refused for %q", msgs, tc.why)
			}
		})
	}
}

func setBody(r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
}

func TestSendGone(t *testing.T) {
	f := newFixture(t)
	f.srv.Unsubscribe(f.browser)
	status, err := f.send([]byte("hi"))
	var se *webpush.StatusError
	if status != http.StatusGone || !errors.As(err, &se) || !se.Gone() {
		t.Fatalf("unsubscribed: Send = %d, %v", status, err)
	}

	sub := f.sub()
	sub.Endpoint = f.ts.URL + "/push/never"
	status, err = webpush.Send(context.Background(), f.ts.Client(), sub, []byte("hi"), f.keys, subject, time.Minute)
	if status != http.StatusNotFound || !errors.As(err, &se) || !se.Gone() {
		t.Fatalf("unknown: Send = %d, %v", status, err)
	}
}

func TestSendPushServiceRefusals(t *testing.T) {
	f := newFixture(t)
	f.srv.Answer(http.StatusTooManyRequests, 30*time.Second)
	status, err := f.send([]byte("hi"))
	var se *webpush.StatusError
	if status != http.StatusTooManyRequests || !errors.As(err, &se) || se.RetryAfter != 30*time.Second || se.Gone() {
		t.Fatalf("429: Send = %d, %v", status, err)
	}
	if !strings.Contains(err.Error(), "429") {
		t.Errorf("the error %q does not say the status", err)
	}
	f.srv.Answer(http.StatusInternalServerError, 0)
	if status, err = f.send([]byte("hi")); status != http.StatusInternalServerError || !errors.As(err, &se) || se.RetryAfter != 0 {
		t.Fatalf("500: Send = %d, %v", status, err)
	}
	f.srv.Answer(0, 0)
	if status, err = f.send([]byte("hi")); status != http.StatusCreated || err != nil {
		t.Fatalf("back to normal: Send = %d, %v", status, err)
	}
	if got := len(f.srv.Delivered()); got != 1 {
		t.Fatalf("%d delivered, want 1", got)
	}
}

// TestSendSlowService: a push service that does not answer holds Send
// until the caller's context ends, and the message sent once it answers
// again arrives.
func TestSendSlowService(t *testing.T) {
	f := newFixture(t)
	release := f.srv.Hold()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := webpush.Send(ctx, f.ts.Client(), f.sub(), []byte("held"), f.keys, subject, time.Minute)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Send while held = %v", err)
	}
	release()
	if status, err := f.send([]byte("hi")); status != http.StatusCreated || err != nil {
		t.Fatalf("Send after release = %d, %v", status, err)
	}
	// The held request may have gone through on release too, if the
	// server had not yet seen its client leave: only "hi" is sure.
	msgs, err := f.srv.Wait(context.Background(), 1)
	if err != nil || !slices.ContainsFunc(msgs, func(m pushtest.Message) bool { return string(m.Payload) == "hi" }) {
		t.Fatalf("Wait = %+v, %v", msgs, err)
	}
}

func TestSendRefusesBeforeSending(t *testing.T) {
	f := newFixture(t)
	other, err := webpush.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		edit    func(*webpush.Subscription, *webpush.Keys, *string)
		payload int
	}{
		{"payload over 3 KB", func(*webpush.Subscription, *webpush.Keys, *string) {}, webpush.MaxPayload + 1},
		{"no subject", func(_ *webpush.Subscription, _ *webpush.Keys, s *string) { *s = "" }, 1},
		{"endpoint not http", func(s *webpush.Subscription, _ *webpush.Keys, _ *string) { s.Endpoint = "ftp://push.example/x" }, 1},
		{"endpoint not a URL", func(s *webpush.Subscription, _ *webpush.Keys, _ *string) { s.Endpoint = "://" }, 1},
		{"p256dh not a point", func(s *webpush.Subscription, _ *webpush.Keys, _ *string) { s.P256dh = s.P256dh[:20] }, 1},
		{"p256dh not base64", func(s *webpush.Subscription, _ *webpush.Keys, _ *string) { s.P256dh = "!!" }, 1},
		{"auth short", func(s *webpush.Subscription, _ *webpush.Keys, _ *string) { s.Auth = "AAAA" }, 1},
		{"keys not a pair", func(_ *webpush.Subscription, k *webpush.Keys, _ *string) { k.Public = other.Public }, 1},
		{"private key not a scalar", func(_ *webpush.Subscription, k *webpush.Keys, _ *string) { k.Private = "AAAA" }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sub, keys, subj := f.sub(), f.keys, subject
			tc.edit(&sub, &keys, &subj)
			status, err := webpush.Send(context.Background(), f.ts.Client(), sub, make([]byte, tc.payload), keys, subj, time.Minute)
			if status != 0 || err == nil {
				t.Fatalf("Send = %d, %v", status, err)
			}
			if strings.Contains(err.Error(), "/push/") || strings.Contains(err.Error(), keys.Private) {
				t.Errorf("the error %q shows the endpoint's path or the key", err)
			}
		})
	}
	if n := len(f.srv.Messages()); n != 0 {
		t.Fatalf("%d requests reached the push service", n)
	}
}

// TestSendErrorHidesEndpoint: a network error names the push service's
// origin and not the endpoint's path, which is the subscription's
// capability.
func TestSendErrorHidesEndpoint(t *testing.T) {
	f := newFixture(t)
	f.ts.Close()
	status, err := f.send([]byte("hi"))
	if status != 0 || err == nil {
		t.Fatalf("Send to a closed server = %d, %v", status, err)
	}
	if msg := err.Error(); strings.Contains(msg, "/push/") || !strings.Contains(msg, f.ts.URL) {
		t.Fatalf("the error %q shows the path or not the origin", msg)
	}

	// A push service that echoes the URL in its refusal.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "{\"error\": \"no subscription at\n"+r.URL.String()+"\"}", http.StatusBadRequest)
	}))
	defer echo.Close()
	sub := f.sub()
	sub.Endpoint = echo.URL + "/push/s1"
	status, err = webpush.Send(context.Background(), echo.Client(), sub, []byte("hi"), f.keys, subject, time.Minute)
	var se *webpush.StatusError
	if status != http.StatusBadRequest || !errors.As(err, &se) {
		t.Fatalf("Send to the echo = %d, %v", status, err)
	}
	if want := `{"error": "no subscription at /…"}`; se.Reason != want || strings.Contains(err.Error(), "/push/") {
		t.Fatalf("reason %q, error %q; want the reason %q", se.Reason, err, want)
	}
}

func TestNewKeys(t *testing.T) {
	a, err := webpush.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	b, err := webpush.NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Fatal("two key pairs are the same")
	}
	// 65 bytes and 32 bytes in unpadded base64url.
	if len(a.Public) != 87 || len(a.Private) != 43 || a.Public[0] != 'B' {
		t.Fatalf("keys %d and %d characters, public starting %q", len(a.Public), len(a.Private), a.Public[:1])
	}
}
