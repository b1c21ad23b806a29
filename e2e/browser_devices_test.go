package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDevices is the Account page's Devices section (issue 38 §2)
// with three browsers of one person. The first makes a device link: the
// page shows it as a QR code drawn inline (an <svg>) with the link's text
// beside it; a third browser signs in with it once, and a second use of it
// says it no longer works. The first browser revokes the second's session
// in its Devices table, and the second's next navigation lands on the
// signed-out page; then "Sign out everywhere else" signs the third out the
// same way and leaves the first signed in. Account, the device link and
// the pages the others land on are checked with axe at 1280 and 390 px,
// light and dark. TestBrowserDevicesNoScript walks the same with
// JavaScript off in every browser: each of these is a plain form.
func TestBrowserDevices(t *testing.T) { browserDevices(t, false) }

// TestBrowserDevicesNoScript is TestBrowserDevices in browsers running no
// JavaScript.
func TestBrowserDevicesNoScript(t *testing.T) { browserDevices(t, true) }

func browserDevices(t *testing.T, noScript bool) {
	t.Parallel()
	a := newWalk(t, noScript)
	status, link := apiJSON(t, a.base, a.token, http.MethodPost, "/v1/login-links", map[string]any{})
	if status != http.StatusCreated {
		t.Fatalf("a second sign-in link: %d %v", status, link)
	}
	b := a.another()
	b.signIn(link["url"].(string))

	a.open("/account", `#sessions`)
	a.has(`#sessions`, "(this device)", "a sign-in link")
	a.send("make a device link", chromedp.Click(chromedp.CSS(`#device-link-make`)), chromedp.WaitVisible(chromedp.CSS(`#device-link-url`)))
	device := a.text(`#device-link-url`)
	if !strings.HasPrefix(device, a.base+"/signin?") {
		t.Fatalf("the device link reads %q", device)
	}
	if got := a.eval(`String(document.querySelectorAll("#device-link svg").length)`); got != "1" {
		t.Fatalf("the device link has %s inline SVG images", got)
	}
	a.has(`#device-link`, "ten minutes", "shown only now")
	a.shot("devices-link")

	c := a.another()
	c.signIn(device)
	b.run("use the device link again", chromedp.Navigate(device), chromedp.WaitVisible(chromedp.CSS(`#spent`)))
	b.has(`#spent`, "no longer works", "used already")
	b.shot("devices-link-used")
	b.open("/", `#topbar`)

	a.open("/account", `#sessions`)
	a.has(`#sessions`, "a link from another device")
	a.rows(3)
	a.shot("devices")
	a.send("revoke the second browser", chromedp.Click(chromedp.Search(`//table[@id="sessions"]//tr[not(contains(@class, "current"))][td[2][contains(., "a sign-in link")]]//button`)),
		chromedp.WaitVisible(chromedp.CSS(`#sessions`)))
	a.rows(2)
	b.run("the second browser's next navigation", chromedp.Click(chromedp.CSS(`#topbar a.item[href="/tasks"]`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	b.has(`#signed-out`, "Sign in to tend")
	b.shot("devices-revoked")

	a.send("sign out everywhere else", chromedp.Click(chromedp.CSS(`#signout-others button`)), chromedp.WaitVisible(chromedp.CSS(`#sessions`)))
	a.rows(1)
	c.run("the third browser's next navigation", chromedp.Click(chromedp.CSS(`#topbar a.item[href="/tasks"]`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	a.open("/tasks", `#topbar`)
	if got := a.location(); got != a.base+"/tasks" {
		t.Fatalf("the first browser is at %s", got)
	}
}

// another is a fresh browser at w's server, never signed in, running
// script as w does, photographed and checked as w is.
func (w *walk) another() *walk {
	ctx := browserCtx(w.t)
	o := &walk{t: w.t, ctx: ctx, base: w.base, token: w.token, noScript: w.noScript,
		sh: &shooter{t: w.t, ctx: ctx, dir: w.sh.dir, axe: w.sh.axe, noScript: w.noScript}}
	if w.noScript {
		o.run("switch JavaScript off", scriptsOff(true))
	}
	return o
}

// rows wants n sessions in the Devices table.
func (w *walk) rows(n int) {
	w.t.Helper()
	if got := w.eval(`String(document.querySelectorAll("#sessions tbody tr").length)`); got != strconv.Itoa(n) {
		w.t.Fatalf("Devices lists %s sessions, want %d: %s", got, n, w.text(`#sessions`))
	}
}
