package webpush

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Subscription is what the browser gave: PushSubscription.toJSON()'s
// endpoint and its keys p256dh and auth.
type Subscription struct{ Endpoint, P256dh, Auth string }

// MaxPayload is the largest payload Send takes. With the 86-byte header,
// the delimiter and the 16-byte tag the body stays well inside the 4096
// bytes every push service must accept (RFC 8030 §7.2, RFC 8291 §4).
const MaxPayload = 3072

// answerRead is how much of a push service's answer is read, so that the
// connection can be reused; reasonLen is how much of it a StatusError
// keeps.
const (
	answerRead = 4096
	reasonLen  = 200
)

var (
	errEndpoint = errors.New("webpush: the endpoint is not an http or https URL")
	errP256dh   = errors.New("webpush: the subscription's p256dh is not a P-256 public key")
	errAuth     = errors.New("webpush: the subscription's auth is not 16 bytes of base64url")
	errSubject  = errors.New("webpush: a VAPID subject (a mailto: or https: contact) is required")
	errPayload  = fmt.Errorf("webpush: the payload is larger than %d bytes", MaxPayload)
)

// StatusError is a push service's refusal of a message.
type StatusError struct {
	// Status is the HTTP status the push service answered.
	Status int
	// RetryAfter is the wait it asked for (429 and 503), 0 if none.
	RetryAfter time.Duration
	// Reason is the start of the answer's body on one line, which is where
	// push services say why (Apple's {"reason":"BadJwtToken"}, Mozilla's
	// errno and message), with the endpoint's path cut out; "" if empty.
	Reason string
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("webpush: the push service answered %d %s", e.Status, http.StatusText(e.Status))
	if e.RetryAfter > 0 {
		msg += fmt.Sprintf(", retry after %s", e.RetryAfter)
	}
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Gone reports whether the subscription no longer exists: RFC 8030 §7.3
// answers 404 or 410 for an expired or unsubscribed push resource, and the
// browser has to subscribe again to be reached.
func (e *StatusError) Gone() bool {
	return e.Status == http.StatusNotFound || e.Status == http.StatusGone
}

// Send encrypts payload (RFC 8291 aes128gcm), signs VAPID (RFC 8292,
// subject e.g. the public URL or "mailto:"), POSTs with TTL and Urgency,
// through client (whose dialer applies the outbound policy), and returns
// the push service's status. 404/410 mean "subscription gone".
//
// A status other than 2xx comes with a *StatusError. An error before any
// answer (a bad subscription, the payload too large, the network) comes
// with status 0. No error names the endpoint's path or a key.
func Send(ctx context.Context, client *http.Client, sub Subscription, payload []byte, keys Keys, subject string, ttl time.Duration) (status int, err error) {
	d, err := newDraw()
	if err != nil {
		return 0, err
	}
	now := time.Now()
	req, err := request(ctx, sub, payload, keys, subject, ttl, d, now)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, redact(err, req.URL)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, answerRead))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, nil
	}
	return resp.StatusCode, &StatusError{
		Status:     resp.StatusCode,
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), now),
		Reason:     reason(answer, req.URL),
	}
}

// reason is the start of a refusal's body as one printable line. A push
// service may echo the request's URL; its path is the subscription's
// capability, so it is cut out before anything is kept.
func reason(answer []byte, u *url.URL) string {
	s := strings.ToValidUTF8(string(answer), "")
	for _, p := range []string{u.EscapedPath(), u.Path} {
		if len(p) > 1 {
			s = strings.ReplaceAll(s, p, "/…")
		}
	}
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }), " ")
	if len(s) > reasonLen {
		s = strings.ToValidUTF8(s[:reasonLen], "") + "…"
	}
	return s
}

// request builds the POST of RFC 8030 §5 with the encrypted body.
func request(ctx context.Context, sub Subscription, payload []byte, keys Keys, subject string, ttl time.Duration, d draw, now time.Time) (*http.Request, error) {
	u, err := url.Parse(sub.Endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errEndpoint
	}
	uaPublic, err := decode(sub.P256dh)
	if err != nil {
		return nil, errP256dh
	}
	authSecret, err := decode(sub.Auth)
	if err != nil || len(authSecret) != 16 {
		return nil, errAuth
	}
	if len(payload) > MaxPayload {
		return nil, errPayload
	}
	if subject == "" {
		return nil, errSubject
	}
	priv, pub, err := keys.signer()
	if err != nil {
		return nil, err
	}
	body, err := encrypt(payload, uaPublic, authSecret, d)
	if err != nil {
		return nil, err
	}
	auth, err := authorization(origin(u), subject, now.Add(tokenLife), priv, pub)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, errEndpoint
	}
	req.Header.Set("Content-Encoding", "aes128gcm")
	req.Header.Set("Content-Type", "application/octet-stream")
	req.Header.Set("TTL", strconv.FormatInt(int64(max(ttl, 0)/time.Second), 10))
	req.Header.Set("Urgency", "normal")
	req.Header.Set("Authorization", auth)
	return req, nil
}

// origin is the aud of RFC 8292 §2, the push resource's origin as RFC
// 6454 §6.2 serializes it: scheme and host in lower case, and no port
// where it is the scheme's default, as a push service compares it with
// its own.
func origin(u *url.URL) string {
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" && !(scheme == "https" && port == "443") && !(scheme == "http" && port == "80") {
		host += ":" + port
	}
	return scheme + "://" + host
}

// redact drops the endpoint from a transport error: *url.Error prints the
// whole URL, and its path is the subscription's capability.
func redact(err error, u *url.URL) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("webpush: POST to %s://%s: %w", u.Scheme, u.Host, err)
}

// retryAfter reads a Retry-After of seconds or an HTTP date (RFC 9110
// §10.2.3); what does not read is no wait.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
