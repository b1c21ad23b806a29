package app_test

import (
	"testing"

	"tend/app"
)

func TestBrowserName(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		"Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0":                                                                  "Firefox on Linux",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1": "Safari on iPhone",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0":           "Edge on Windows",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36":                   "Chrome on macOS",
		"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36":                            "Chrome on Android",
		"curl/8.5.0": "curl",
		"":           "Unknown browser",
	} {
		if got := app.BrowserName(ua); got != want {
			t.Errorf("BrowserName(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestSignInRecorded: every sign-in is an event of the account, saying how.
func TestSignInRecorded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob := f.person("bob", app.RoleMember)
	l := must(f.svc.CreateDeviceLink(f.ctx, bob))(t)
	if !l.ExpiresAt.Equal(f.clock.Now().Add(app.DeviceLinkLifetime)) || l.Via != "device_link" {
		t.Fatalf("device link %+v", l.LoginLink)
	}
	ss := must(f.svc.SignIn(f.ctx, l.Secret, app.SessionClient{UserAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", Address: "192.0.2.1"}))(t)
	if ss.Via != "device_link" || ss.UserAgent == "" {
		t.Fatalf("session %+v", ss.Session)
	}
	a := must(f.svc.AuthenticateSession(f.ctx, ss.Secret, "web"))(t)
	list := must(f.svc.Sessions(f.ctx, a, ""))(t)
	if len(list) != 1 || !list[0].Current || list[0].Browser != "Firefox on Linux" {
		t.Fatalf("sessions %+v", list)
	}
	wantCode(t, errOf(f.svc.CreateDeviceLink(f.ctx, app.SystemActor("cli"))), app.CodeTokenForOther)
	wantCode(t, errOf(f.svc.SignOutOthers(f.ctx, bob, "bob")), app.CodeNotASession)
}
