package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserInvite is issue 38 §1 as people use it: the administrator
// makes an invite on the Invites page (reached from the Account page) and
// copies its link; a fresh browser opens it, types a username (the live
// check says an existing one is taken, then that another is free), picks a
// zone, joins and lands signed in on Today. Every page is photographed at
// 1280 and 390 px, light and dark, and checked with axe.
// TestBrowserInviteNoScript walks the same with JavaScript off, where the
// taken username comes back on the form.
func TestBrowserInvite(t *testing.T) { browserInvite(t, false) }

// TestBrowserInviteNoScript is TestBrowserInvite in browsers running no
// JavaScript.
func TestBrowserInviteNoScript(t *testing.T) { browserInvite(t, true) }

func browserInvite(t *testing.T, noScript bool) {
	t.Parallel()
	w := newWalk(t, noScript)
	w.api(http.MethodPost, "/v1/users", map[string]any{"username": "taken"}, http.StatusCreated)

	w.open("/account", `#invites-link`)
	w.send("open the invites page", chromedp.Click(chromedp.CSS(`#invites-link`)), chromedp.WaitVisible(chromedp.CSS(`#invite-add`)))
	w.has(`#invites-none`, "No pending invites")
	w.shot("invites-empty")
	w.run("fill in the form", chromedp.SetValue(chromedp.CSS(`#iv-uses`), "1"), chromedp.SendKeys(chromedp.CSS(`#iv-note`), "Welcome aboard"))
	w.send("make the invite", chromedp.Click(chromedp.CSS(`#invite-add button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#new-invite`)))
	w.has(`#new-invite`, "shown once")
	link := w.eval(`document.getElementById("invite-link").value`)
	if !strings.Contains(link, "/join/tend_") {
		t.Fatalf("the page shows %q as the link", link)
	}
	if copyShown := w.eval(`String(!document.getElementById("invite-copy").hidden)`); copyShown != map[bool]string{true: "false", false: "true"}[noScript] {
		t.Errorf("the copy button shown: %s", copyShown)
	}
	w.shot("invites-added")

	// A browser that has never been signed in.
	ctx := browserCtx(t)
	j := &walk{t: t, ctx: ctx, base: w.base, token: w.token, noScript: noScript,
		sh: &shooter{t: t, ctx: ctx, dir: w.sh.dir, axe: w.sh.axe, noScript: noScript}}
	if noScript {
		j.run("switch JavaScript off", scriptsOff(true))
	}
	j.run("open the invite", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`#join-form`)))
	j.has(`main`, "Join Default", "Welcome aboard", "member")
	j.shot("join")
	if noScript {
		j.run("type a taken username", chromedp.SendKeys(chromedp.CSS(`#j-username`), "taken"), chromedp.SetValue(chromedp.CSS(`#j-tz`), "Europe/Berlin"))
		j.run("join with it", chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#j-username-check.field-error`)))
		j.has(`#j-username-check`, "is taken")
		if got := j.eval(`document.getElementById("j-tz").value`); got != "Europe/Berlin" {
			t.Errorf("the re-shown form picks %s", got)
		}
		j.shot("join-taken")
		j.eval(`document.getElementById("j-username").value = ""`)
		j.run("type a free one", chromedp.SendKeys(chromedp.CSS(`#j-username`), "newbie"))
	} else {
		if got, want := j.eval(`document.getElementById("j-tz").value`), j.eval(`Intl.DateTimeFormat().resolvedOptions().timeZone`); got != want {
			t.Errorf("the form picks %s, the browser's zone is %s", got, want)
		}
		j.run("type a taken username", chromedp.SendKeys(chromedp.CSS(`#j-username`), "taken"))
		j.until("the live check says taken", `document.getElementById("j-username-check").textContent.includes("taken is taken")`)
		j.shot("join-taken")
		j.eval(`document.getElementById("j-username").value = ""`)
		j.run("type a free one", chromedp.SendKeys(chromedp.CSS(`#j-username`), "newbie"))
		j.until("the live check says free", `document.getElementById("j-username-check").textContent === "newbie is free."`)
		j.run("pick a zone", chromedp.SetValue(chromedp.CSS(`#j-tz`), "Europe/Berlin"))
	}
	j.send("join", chromedp.Click(chromedp.CSS(`#join-form button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
	if got := j.location(); got != w.base+"/" {
		t.Errorf("joining lands on %s", got)
	}
	if !strings.Contains(j.eval(`document.body.innerText`), "newbie") {
		t.Error("Today does not name newbie as signed in")
	}
	j.shot("joined-today")
	status, me := apiJSON(t, w.base, w.token, http.MethodGet, "/v1/users/newbie", nil)
	if status != http.StatusOK || me["timezone"] != "Europe/Berlin" {
		t.Errorf("newbie: %d %v", status, me)
	}
}
