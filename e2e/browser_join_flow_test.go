package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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
	w, link := newBrowser(t, false)
	w.base = strings.Replace(w.base, "127.0.0.1", "localhost", 1)
	w.signIn(strings.Replace(link, "127.0.0.1", "localhost", 1))
	w.open("/invites", `#invite-add`)
	w.send("make the invite", chromedp.Click(chromedp.CSS(`#invite-add button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#new-invite`)))
	invite := w.eval(`document.getElementById("invite-link").value`)
	w.shot("flow-invites")

	f := &flow{t: t}
	j := f.browser(w)
	virtualAuthenticator(j)
	f.step(j, "open the invite", 0, 0, func() {
		j.run("open the invite", chromedp.Navigate(invite), chromedp.WaitVisible(chromedp.CSS(`#join-form`)))
		j.until("the page's script ran", `document.readyState === "complete"`)
	})
	j.shot("flow-join")
	f.step(j, "type a username and join", 1, len("newbie"), func() {
		j.run("type a username", chromedp.SendKeys(chromedp.CSS(`#j-username`), "newbie"))
		j.until("the live check says free", `document.getElementById("j-username-check").textContent === "newbie is free."`)
		j.send("join", chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	j.shot("flow-joined")
	f.step(j, "add a passkey on Account", 2, len("laptop"), func() {
		f.nav(j, "/account", `#passkey-add-form`)
		j.run("name the passkey", chromedp.SendKeys(chromedp.CSS(`#pk-new-name`), "laptop"))
		j.run("add it", chromedp.Click(chromedp.CSS(`#passkey-add-form button`)), chromedp.WaitVisible(chromedp.CSS(`#passkeys table`)))
	})
	j.shot("flow-account")
	f.step(j, "sign out", 1, 0, func() {
		j.run("sign out", chromedp.Click(chromedp.CSS(`#signout button`)), chromedp.WaitVisible(chromedp.CSS(`#passkey-signin-button`)))
	})
	j.shot("flow-signed-out")
	f.step(j, "sign in with the passkey", 1, 0, func() {
		j.run("sign in", chromedp.Click(chromedp.CSS(`#passkey-signin-button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	var device string
	f.step(j, "make a device link on Account", 2, 0, func() {
		f.nav(j, "/account", `#device-link-make`)
		j.send("make a device link", chromedp.Click(chromedp.CSS(`#device-link-make`)), chromedp.WaitVisible(chromedp.CSS(`#device-link-url`)))
		device = j.text(`#device-link-url`)
	})
	j.shot("flow-device-link")

	k := f.browser(w)
	f.step(k, "sign in on the second browser", 1, 0, func() {
		k.run("open the device link", chromedp.Navigate(device), chromedp.WaitVisible(chromedp.CSS(`form[action="/signin"] button`)))
		k.send("sign in", chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	})
	f.step(k, "revoke the first browser on Account", 2, 0, func() {
		f.nav(k, "/account", `#sessions`)
		k.has(`#sessions`, "a passkey", "a link from another device", "(this device)")
		k.send("revoke", chromedp.Click(chromedp.CSS(`#sessions tr:not(.current) form button`)), chromedp.WaitVisible(chromedp.CSS(`#sessions`)))
		k.hasNot(`#sessions`, "a passkey")
	})
	k.shot("flow-devices")
	f.step(j, "the first browser's next navigation", 1, 0, func() {
		j.run("go to Today", chromedp.Click(chromedp.CSS(`#topbar a.item[href="/tasks"]`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	})
	j.has(`#signed-out`, "Sign in to tend")
	j.shot("flow-revoked")
	status, me := apiJSON(t, w.base, w.token, http.MethodGet, "/v1/users/newbie", nil)
	if status != http.StatusOK || me["username"] != "newbie" {
		t.Errorf("newbie: %d %v", status, me)
	}
	f.total()
}

// flow counts the presses of a flow across browsers, step by step.
type flow struct {
	t            *testing.T
	clicks, keys int
	took         time.Duration
	steps        int
}

// browser opens a fresh browser, never signed in, at w's server, whose
// pages count the presses they receive in its session storage.
func (f *flow) browser(w *walk) *walk {
	ctx := browserCtx(f.t)
	b := &walk{t: f.t, ctx: ctx, base: w.base, token: w.token, sh: &shooter{t: f.t, ctx: ctx, dir: w.sh.dir, axe: w.sh.axe}}
	b.run("count presses", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `["pointerdown", "keydown"].forEach(function (k) {
				addEventListener(k, function () { sessionStorage.setItem("n-" + k, +(sessionStorage.getItem("n-" + k) || 0) + 1); }, true);
			});`})
		return err
	}))
	b.open("/signin", "main")
	return b
}

// step runs one step in b and wants it to have taken exactly clicks
// pointer presses and keys key presses.
func (f *flow) step(b *walk, name string, clicks, keys int, run func()) {
	f.t.Helper()
	b.eval(`sessionStorage.setItem("n-pointerdown", "0"); sessionStorage.setItem("n-keydown", "0"); ""`)
	start := time.Now()
	run()
	took := time.Since(start)
	var n [2]int
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify([+sessionStorage.getItem("n-pointerdown"), +sessionStorage.getItem("n-keydown")])`)), &n); err != nil {
		f.t.Fatal(err)
	}
	if n[0] != clicks || n[1] != keys {
		f.t.Errorf("%s took %d clicks and %d keys, want %d and %d", name, n[0], n[1], clicks, keys)
	}
	f.clicks, f.keys, f.took, f.steps = f.clicks+n[0], f.keys+n[1], f.took+took, f.steps+1
	f.t.Logf("%-40s %2d clicks %3d keys %6s", name, n[0], n[1], took.Round(time.Millisecond))
}

// nav clicks the top bar's link to path in b and waits for sel there.
func (f *flow) nav(b *walk, path, sel string) {
	f.t.Helper()
	b.run("go to "+path, chromedp.Click(chromedp.CSS(`#topbar a.item[href="`+path+`"]`)), chromedp.WaitVisible(chromedp.CSS(sel)))
	b.until(path+" is open", `location.pathname === "`+path+`" && document.readyState === "complete"`)
}

// total logs the flow's presses.
func (f *flow) total() {
	f.t.Logf("joining and coming back: %d steps, %d clicks and %d keys, %s", f.steps, f.clicks, f.keys, f.took.Round(time.Millisecond))
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
