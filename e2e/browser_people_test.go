package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPeople is the People page (issue 38 §3) as the administrator
// uses it: opened from the top bar (listing their own session and a
// pending invite), a member's role changed, the last
// owner's refused in words, the member deactivated and reactivated, a
// token issued for a new agent with its MCP configuration copied (the text
// the copy button hands the clipboard is asserted), and a token revoked.
// The page is checked with axe at 1280 and 390 px, light and dark, before
// and after the issue. The token's issue is counted as TestBrowserDay
// counts a day: each step's pointer presses and keys, logged and wanted
// exactly (docs/web.md, "People"). TestBrowserPeopleNoScript walks the
// same with JavaScript off, where the snippets are there to select by hand.
func TestBrowserPeople(t *testing.T) { browserPeople(t, false) }

// TestBrowserPeopleNoScript is TestBrowserPeople in a browser running no
// JavaScript: every form of the page is a plain post.
func TestBrowserPeopleNoScript(t *testing.T) { browserPeople(t, true) }

func browserPeople(t *testing.T, noScript bool) {
	t.Parallel()
	w := newWalk(t, noScript)
	w.api(http.MethodPost, "/v1/users", map[string]any{"username": "bob"}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/workspaces/default/members", map[string]any{"username": "bob", "role": "member"}, http.StatusCreated)
	w.api(http.MethodPost, "/v1/workspaces/default/invites", map[string]any{"role": "member", "note": "for the designers"}, http.StatusCreated)
	d := &day{lists: &lists{t: t, ctx: w.ctx, base: w.base, admin: w.token, sh: w.sh, w: 1280}}
	d.do("the width", chromedp.EmulateViewport(1280, 900))
	// Presses are counted by a script in the page: without the script the
	// steps are taken uncounted.
	step := d.step
	if noScript {
		step = func(_ string, _, _ int, run func()) { run() }
	} else {
		d.tally()
	}
	w.open("/", `#topbar`)

	step("open People", 1, 0, func() {
		w.send("open People", chromedp.Click(chromedp.CSS(`#topbar a.item[href="/people"]`)), chromedp.WaitVisible(chromedp.CSS(`#person-bob`)))
	})
	w.has(`#person-bob`, "person", "active")
	w.has(`#people-invites`, "Pending invites", "for the designers")
	w.has(`#sessions-admin`, "(your session)")
	w.shot("people")

	w.run("pick viewer for bob", chromedp.SetValue(chromedp.CSS(`#role-bob`), "viewer"))
	w.send("change bob's role", chromedp.Click(chromedp.CSS(`#person-bob button[aria-label="Change role of bob"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	w.has(`#notice`, "Changed the role.")
	if got := w.eval(`document.getElementById("role-bob").value`); got != "viewer" {
		t.Fatalf("bob's role shows %q", got)
	}
	w.run("pick member for the last owner", chromedp.SetValue(chromedp.CSS(`#role-admin`), "member"))
	w.run("change the last owner's role", chromedp.Click(chromedp.CSS(`#person-admin button[aria-label="Change role of admin"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#people-refused`)))
	w.has(`#people-refused`, "Not changed for admin", "a workspace keeps at least one owner", "last_owner")

	w.send("deactivate bob", chromedp.Click(chromedp.CSS(`#person-bob button[aria-label="Deactivate bob"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	w.has(`#person-bob`, "deactivated")
	w.send("reactivate bob", chromedp.Click(chromedp.CSS(`#person-bob button[aria-label="Reactivate bob"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	w.has(`#notice`, "Reactivated")
	w.hasNot(`#person-bob`, "deactivated")

	step("name the new agent", 1, 5, func() {
		d.click("the new agent's name", `#ti-new`)
		d.do("type coder", chromedp.KeyEvent("coder"))
	})
	step("expire in 30 days", 1, 2, func() {
		d.click("expires in days", `#ti-days`)
		d.do("type 30", chromedp.KeyEvent("30"))
	})
	step("issue the token", 1, 0, func() {
		w.send("issue the token", chromedp.Click(chromedp.CSS(`#token-issue button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#new-secret`)))
	})
	secret := w.text(`#new-secret`)
	if !strings.HasPrefix(secret, "tend_") {
		t.Fatalf("the page shows %q as the secret", secret)
	}
	want := `claude mcp add --transport http tend ` + w.base + `/mcp --header "Authorization: Bearer ` + secret + `"`
	w.has(`#snippet-claude`, want)
	w.has(`#snippet-json`, `"url": "`+w.base+`/mcp"`, `"Authorization": "Bearer `+secret+`"`)
	if noScript {
		if w.eval(`String(document.querySelector('button[data-copy="snippet-claude"]').hidden)`) != "true" {
			t.Fatal("a copy button shows without the script that makes it work")
		}
	} else {
		// The clipboard of a headless browser is not the test's to read:
		// the page's own writeText is watched instead, which is what the
		// button hands the text to.
		w.eval(`navigator.clipboard.writeText = function (t) { window.copied = t; return Promise.resolve(); }; ""`)
		step("copy the Claude Code command", 1, 0, func() {
			d.click("Copy the command", `button[data-copy="snippet-claude"]`)
			d.until("the button says so", `document.querySelector('button[data-copy="snippet-claude"]').textContent === "Copied"`)
		})
		if got := w.eval(`window.copied`); got != want {
			t.Fatalf("the copy button copied\n%q\nwant\n%q", got, want)
		}
		var clicks, keys int
		var took time.Duration
		for _, s := range d.steps[1:] {
			clicks, keys, took = clicks+s.clicks, keys+s.keys, took+s.took
		}
		t.Logf("issuing a token for a new agent and copying its configuration: %d clicks and %d keys, %s", clicks, keys, took.Round(time.Millisecond))
	}
	w.shot("people-issued")
	if status, _ := apiJSON(t, w.base, secret, http.MethodGet, "/v1/me", nil); status != http.StatusOK {
		t.Fatalf("the issued token: %d", status)
	}

	w.open("/people", `#person-coder`)
	if w.eval(`String(document.body.innerHTML.includes(`+strconv.Quote(secret)+`))`) != "false" {
		t.Fatal("the page shows the secret again after a reload")
	}
	w.has(`#person-coder`, "agent, answers to admin", secret[:len("tend_")+10])
	w.send("revoke coder's token", chromedp.Click(chromedp.CSS(`#tokens-coder button[aria-label^="Revoke"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	w.has(`#notice`, "Revoked the token")
	w.has(`#tokens-coder`, "revoked or expired")
	if status, _ := apiJSON(t, w.base, secret, http.MethodGet, "/v1/me", nil); status != http.StatusUnauthorized {
		t.Fatalf("the revoked token: %d", status)
	}
}
