package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// TestBrowserJoinFlow is issue 38's whole flow in Chromium on the real
// server, counted as the day is (TestBrowserDay): the administrator makes
// an invite on /invites; a fresh browser opens the link and joins (a
// username typed, the zone the browser's own); adds a passkey on Account;
// signs out; signs in with the passkey on /signin; makes a device link on
// Account, which signs a second browser in as the same person; there the
// Devices section revokes the first browser's session, whose next
// navigation lands on the signed-out page. Opening a link is not counted
// (it is pasted or scanned); every pointer press and key press the pages
// receive is, and each step wants exactly the presses docs/web.md gives.
// The browsers are at http://localhost, where WebAuthn works over plain
// http. Each page visited is checked with axe at 1280 and 390 px, light
// and dark.
func TestBrowserJoinFlow(t *testing.T) {
	t.Parallel()
	w := atLocalhost(t)
	w.open("/invites", `#invite-add`)
	w.send("make the invite", chromedp.Click(chromedp.CSS(`#invite-add button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#new-invite`)))
	invite := w.eval(`document.getElementById("invite-link").value`)
	w.shot("flow-invites")

	j, jd := counted(t, w)
	virtualAuthenticator(j)
	jd.step("open the invite", 0, 0, func() {
		j.run("open the invite", chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS(`#join-form`)))
		j.until("the page's script ran", `document.readyState === "complete"`)
	})
	j.shot("flow-join")
	jd.step("type a username and join", 1, len("newbie"), func() {
		j.run("type a username", chromedp.SendKeys(chromedp.CSS(`#j-username`), "newbie"))
		j.until("the live check says free", `document.getElementById("j-username-check").textContent === "newbie is free."`)
		j.send("join", chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	j.shot("flow-joined")
	jd.step("add a passkey on Account", 2, len("laptop"), func() {
		jd.nav("Account", "/account", `#passkey-add-form`)
		j.run("name the passkey", chromedp.SendKeys(chromedp.CSS(`#pk-new-name`), "laptop"))
		j.run("add it", chromedp.Click(chromedp.CSS(`#passkey-add-form button`)), chromedp.WaitVisible(chromedp.CSS(`#passkeys table`)))
	})
	j.shot("flow-account")
	jd.step("sign out", 1, 0, func() {
		j.run("sign out", chromedp.Click(chromedp.CSS(`#signout button`)), chromedp.WaitVisible(chromedp.CSS(`#passkey-signin-button`)))
	})
	j.shot("flow-signed-out")
	jd.step("sign in with the passkey", 1, 0, func() {
		j.run("sign in", chromedp.Click(chromedp.CSS(`#passkey-signin-button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	var device string
	jd.step("make a device link on Account", 2, 0, func() {
		jd.nav("Account", "/account", `#device-link-make`)
		j.send("make a device link", chromedp.Click(chromedp.CSS(`#device-link-make`)), chromedp.WaitVisible(chromedp.CSS(`#device-link-url`)))
		device = j.text(`#device-link-url`)
	})
	j.shot("flow-device-link")

	k, kd := counted(t, w)
	kd.step("sign in on the second browser", 1, 0, func() {
		k.run("open the device link", chromedp.Navigate(device), chromedp.WaitVisible(chromedp.CSS(`form[action="/signin"] button`)))
		k.send("sign in", chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	kd.step("revoke the first browser on Account", 2, 0, func() {
		kd.nav("Account", "/account", `#sessions`)
		k.has(`#sessions`, "a passkey", "a link from another device", "(this device)")
		k.send("revoke", chromedp.Click(chromedp.CSS(`#sessions tr:not(.current) form button`)), chromedp.WaitVisible(chromedp.CSS(`#sessions`)))
		k.hasNot(`#sessions`, "a passkey")
	})
	k.shot("flow-devices")
	jd.step("the first browser's next navigation", 1, 0, func() {
		j.run("go to Today", chromedp.Click(chromedp.CSS(`#topbar a.item[href="/tasks"]`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	})
	j.has(`#signed-out`, "Sign in to tend")
	j.shot("flow-revoked")
	status, me := apiJSON(t, w.base, w.token, http.MethodGet, "/v1/users/newbie", nil)
	if status != http.StatusOK || me["username"] != "newbie" {
		t.Errorf("newbie: %d %v", status, me)
	}
	var clicks, keys int
	var took time.Duration
	for _, s := range append(jd.steps, kd.steps...) {
		clicks, keys, took = clicks+s.clicks, keys+s.keys, took+s.took
	}
	t.Logf("joining and coming back: %d steps, %d clicks and %d keys, %s", len(jd.steps)+len(kd.steps), clicks, keys, took.Round(time.Millisecond))
}

// counted opens a fresh browser, never signed in, at w's server, whose
// pages count the presses they receive as TestBrowserDay's do: the walk
// that drives it, and the day that counts its steps.
func counted(t *testing.T, w *walk) (*walk, *day) {
	b := w.another()
	d := &day{lists: &lists{t: t, ctx: b.ctx, base: w.base, admin: w.token, sh: b.sh, w: 1280}}
	d.tally()
	b.open("/signin", "main")
	return b, d
}

// atLocalhost is a browser signed in as the administrator at
// http://localhost, the plain-http address WebAuthn allows (127.0.0.1 is
// an address, never a relying party).
func atLocalhost(t *testing.T) *walk {
	w, link := newBrowser(t, false)
	w.base = strings.Replace(w.base, "127.0.0.1", "localhost", 1)
	w.signIn(strings.Replace(link, "127.0.0.1", "localhost", 1))
	return w
}

// virtualAuthenticator gives b's browser a platform authenticator that
// answers navigator.credentials at once, as TestBrowserPasskey's does.
func virtualAuthenticator(b *walk) {
	b.run("add a virtual authenticator", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2,
				Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
				HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true}})
		return err
	}))
}
