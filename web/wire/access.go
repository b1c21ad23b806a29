package wire

import (
	"context"
	"net"
	"net/http"

	"tend/app"
)

// DeviceSession is one of a person's sessions as their list of devices
// shows it: never its secret, nor where it signed in from.
type DeviceSession struct {
	ID         string `json:"id"`
	Via        string `json:"via"`
	Browser    string `json:"browser"`
	CreatedAt  string `json:"created_at"`
	LastSeenAt string `json:"last_seen_at"`
	Current    bool   `json:"current"`
}

// NewDeviceSession is s as the wire shows it.
func NewDeviceSession(s app.DeviceSession) DeviceSession {
	return DeviceSession{ID: s.ID, Via: s.Via, Browser: s.Browser, CreatedAt: Stamp(s.CreatedAt),
		LastSeenAt: Stamp(s.LastSeenAt), Current: s.Current}
}

// DeviceLink is POST /v1/me/device-links's answer: the one moment the
// link's secret exists.
type DeviceLink struct {
	URL       string `json:"url"`
	ExpiresAt string `json:"expires_at"`
}

// TailscaleUserLogin is the header `tailscale serve` adds to a request
// from a tailnet with the login of the person making it.
const TailscaleUserLogin = "Tailscale-User-Login"

type tailscaleKey struct{}

// WithTailscaleLogin marks r's context with the login Tailscale vouched for,
// once the server has decided to trust it (TrustedTailscaleLogin).
func WithTailscaleLogin(ctx context.Context, login string) context.Context {
	return context.WithValue(ctx, tailscaleKey{}, login)
}

// TailscaleLoginOf is the Tailscale login the server trusted on r's
// behalf; "" when it trusts none.
func TailscaleLoginOf(r *http.Request) string {
	login, _ := r.Context().Value(tailscaleKey{}).(string)
	return login
}

// TrustedTailscaleLogin is the login r's Tailscale-User-Login header names
// when r comes from a loopback peer, as `tailscale serve` connects: the
// real peer address, never a forwarding header a client can write. From
// any other peer the header is anybody's to forge, so it says nothing.
func TrustedTailscaleLogin(r *http.Request) string {
	ip := net.ParseIP(ClientAddr(r))
	if ip == nil || !ip.IsLoopback() {
		return ""
	}
	return app.TailscaleLogin(r.Header.Get(TailscaleUserLogin))
}
