package app_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/app/passkeytest"
)

// passkeyHost is the browser's view of tend in these tests: localhost,
// where WebAuthn allows plain http.
const passkeyHost = "localhost:7070"

// addPasskey registers a software authenticator for the signed-in a and
// returns it with the passkey kept.
func (f *fixture) addPasskey(a app.Actor, name string) (*passkeytest.Authenticator, app.Passkey) {
	f.t.Helper()
	auth := passkeytest.New("http://" + passkeyHost)
	opts := must(f.svc.BeginPasskeyRegistration(f.ctx, a, passkeyHost))(f.t)
	cred := must(auth.Create(opts.PublicKey))(f.t)
	p := must(f.svc.FinishPasskeyRegistration(f.ctx, a, passkeyHost,
		app.PasskeyRegistration{ChallengeID: opts.ChallengeID, Name: name, Credential: cred}))(f.t)
	return auth, p
}

// passkeySignIn begins a sign-in and answers it with auth.
func (f *fixture) passkeySignIn(auth *passkeytest.Authenticator, addr string) (app.PasskeySignedIn, error) {
	f.t.Helper()
	opts := must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, addr))(f.t)
	cred := must(auth.Get(opts.PublicKey))(f.t)
	return f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{Address: addr},
		app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: cred})
}

func TestPasskeyRegisterAndSignIn(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bob, _ := f.browser(f.person("bob", app.RoleMember))
	auth, p := f.addPasskey(bob, "  laptop ")
	if p.Name != "laptop" || p.UserID != bob.User.ID || p.LastUsedAt != nil {
		t.Errorf("registered %+v, want laptop for bob, never used", p)
	}
	f.clock.Advance(time.Hour)
	ss := must(f.passkeySignIn(auth, "192.0.2.1"))(t)
	a := must(f.svc.AuthenticateSession(f.ctx, ss.Secret, "web"))(t)
	if a.User.ID != bob.User.ID {
		t.Fatalf("signed in as %s, want bob", a.User.Username)
	}
	keys := must(f.svc.Passkeys(f.ctx, bob))(t)
	if len(keys) != 1 || keys[0].LastUsedAt == nil || !keys[0].LastUsedAt.Equal(f.clock.Now()) || keys[0].SignCount != 1 {
		t.Errorf("after sign-in %+v, want last used now with count 1", keys)
	}
	// An authenticator that counts nothing (always 0) is not a clone.
	zero, _ := f.addPasskey(a, "")
	zero.Frozen = true
	must(f.passkeySignIn(zero, "192.0.2.1"))(t)
	must(f.passkeySignIn(zero, "192.0.2.1"))(t)

	renamed := must(f.svc.RenamePasskey(f.ctx, bob, p.ID, "work laptop"))(t)
	if renamed.Name != "work laptop" {
		t.Errorf("renamed to %q", renamed.Name)
	}
	keys = must(f.svc.Passkeys(f.ctx, bob))(t)
	if len(keys) != 2 || keys[1].Name != "Passkey" {
		t.Errorf("passkeys %+v, want laptop and an unnamed one called Passkey", keys)
	}
	must(0, f.svc.RemovePasskey(f.ctx, bob, p.ID))(t)
	must(0, f.svc.RemovePasskey(f.ctx, bob, keys[1].ID))(t)
	_, err := f.passkeySignIn(auth, "192.0.2.1")
	wantCode(t, err, app.CodePasskeyInvalid)
	// The account keeps its other ways in.
	f.browser(bob)
}

func TestPasskeyRefusals(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	bobToken := f.person("bob", app.RoleMember)
	bob, _ := f.browser(bobToken)
	carol, _ := f.browser(f.person("carol", app.RoleMember))
	auth, p := f.addPasskey(bob, "laptop")

	t.Run("token holder", func(t *testing.T) {
		_, err := f.svc.BeginPasskeyRegistration(f.ctx, bobToken, passkeyHost)
		wantCode(t, err, app.CodePasskeyNeedsSession)
	})
	t.Run("another's passkey is not there", func(t *testing.T) {
		wantCode(t, errOf(f.svc.RenamePasskey(f.ctx, carol, p.ID, "mine")), app.CodeNotFound)
		wantCode(t, f.svc.RemovePasskey(f.ctx, carol, p.ID), app.CodeNotFound)
	})
	t.Run("name too long", func(t *testing.T) {
		wantField(t, errOf(f.svc.RenamePasskey(f.ctx, bob, p.ID, strings.Repeat("x", 65))), "body.name")
	})
	t.Run("no secure address", func(t *testing.T) {
		for _, host := range []string{"tend.example:7070", "127.0.0.1:7070"} {
			wantCode(t, errOf(f.svc.BeginPasskeySignIn(f.ctx, host, "a")), app.CodePasskeyUnavailable)
		}
	})
	t.Run("forged signature", func(t *testing.T) {
		opts := must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "a"))(t)
		cred := forge(t, must(auth.Get(opts.PublicKey))(t))
		_, err := f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: cred})
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("replayed", func(t *testing.T) {
		opts := must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "a"))(t)
		cred := must(auth.Get(opts.PublicKey))(t)
		in := app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: cred}
		must(f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, in))(t)
		_, err := f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, in)
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("challenge spent by a failed answer", func(t *testing.T) {
		opts := must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "a"))(t)
		good := must(auth.Get(opts.PublicKey))(t)
		_, err := f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: forge(t, good)})
		wantCode(t, err, app.CodePasskeyInvalid)
		_, err = f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: good})
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("expired", func(t *testing.T) {
		opts := must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "a"))(t)
		cred := must(auth.Get(opts.PublicKey))(t)
		f.clock.Advance(app.PasskeyChallengeLifetime)
		_, err := f.svc.FinishPasskeySignIn(f.ctx, passkeyHost, app.SessionClient{}, app.PasskeySignIn{ChallengeID: opts.ChallengeID, Credential: cred})
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("wrong origin", func(t *testing.T) {
		defer func(o string) { auth.Origin = o }(auth.Origin)
		auth.Origin = "http://localhost:6666"
		_, err := f.passkeySignIn(auth, "a")
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("wrong relying party", func(t *testing.T) {
		defer func() { auth.RPID = "" }()
		auth.RPID = "evil.example"
		_, err := f.passkeySignIn(auth, "a")
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("registration challenge of another account", func(t *testing.T) {
		opts := must(f.svc.BeginPasskeyRegistration(f.ctx, bob, passkeyHost))(t)
		cred := must(passkeytest.New("http://" + passkeyHost).Create(opts.PublicKey))(t)
		_, err := f.svc.FinishPasskeyRegistration(f.ctx, carol, passkeyHost, app.PasskeyRegistration{ChallengeID: opts.ChallengeID, Credential: cred})
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("cloned authenticator", func(t *testing.T) {
		clone := *auth
		must(f.passkeySignIn(auth, "a"))(t)
		_, err := f.passkeySignIn(&clone, "a")
		wantCode(t, err, app.CodePasskeyInvalid)
	})
	t.Run("deactivated account", func(t *testing.T) {
		must(f.svc.UpdateUser(f.ctx, f.admin, "bob", app.UserUpdate{Active: app.PatchOf(false)}))(t)
		_, err := f.passkeySignIn(auth, "a")
		wantCode(t, err, app.CodeAccountInactive)
	})
}

func TestPasskeySignInRateLimit(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for range 30 {
		must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "198.51.100.7"))(t)
	}
	_, err := f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "198.51.100.7")
	wantCode(t, err, app.CodeTooManyAttempts)
	var e *app.Error
	if !errors.As(err, &e) || e.RetryAfter != 10*time.Minute {
		t.Errorf("retry after %v, want the window's 10 minutes", e)
	}
	// Another address is not held up.
	must(f.svc.BeginPasskeySignIn(f.ctx, passkeyHost, "198.51.100.8"))(t)
}

func TestAdministrators(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.agent("robot", "admin")
	got := must(f.svc.Administrators(f.ctx))(t)
	if len(got) != 1 || got[0].Username != f.admin.User.Username {
		t.Errorf("administrators %+v, want the one person who administers", got)
	}
}

// forge flips a bit of an assertion's signature.
func forge(t *testing.T, cred json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]any
	must(0, json.Unmarshal(cred, &m))(t)
	resp := m["response"].(map[string]any)
	sig := resp["signature"].(string)
	c := 'A'
	if sig[10] == 'A' {
		c = 'B'
	}
	resp["signature"] = sig[:10] + string(c) + sig[11:]
	return must(json.Marshal(m))(t)
}
