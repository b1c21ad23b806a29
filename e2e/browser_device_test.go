package e2e

import (
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserDevice is tend login --browser's page (issue 34 §6) as its
// person sees it. The terminal starts a sign-in (POST /v1/auth/device, as
// tend login --browser does), the signed-in browser opens the link it
// prints, sees the terminal's name and the code, and approves for the
// workspace; the terminal's poll then receives a credential of that
// person pinned to the workspace. A second sign-in is entered by its code
// on the bare page and denied, and its terminal hears access_denied. Each
// page is photographed at 1280 and 390 px and checked with axe.
func TestBrowserDevice(t *testing.T) {
	t.Parallel()
	w := newWalk(t, false)
	start := func(client string) (deviceCode, userCode, link string) {
		t.Helper()
		status, d := apiJSON(t, w.base, "", http.MethodPost, "/v1/auth/device", map[string]any{"client_name": client})
		if status != http.StatusOK {
			t.Fatalf("starting a sign-in: %d %v", status, d)
		}
		return d["device_code"].(string), d["user_code"].(string), d["verification_uri_complete"].(string)
	}
	poll := func(deviceCode string) (int, map[string]any) {
		t.Helper()
		return apiJSON(t, w.base, "", http.MethodPost, "/v1/auth/device/token", map[string]any{"device_code": deviceCode})
	}

	deviceCode, userCode, link := start("tend on laptop")
	if status, p := poll(deviceCode); status != http.StatusBadRequest || p["code"] != "authorization_pending" {
		t.Fatalf("a poll before the person decides: %d %v", status, p)
	}
	w.run("open the printed link", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`#device-request`)))
	w.has(`#device-request`, "tend on laptop", "admin", userCode)
	w.shot("device-request")
	w.send("approve", chromedp.Click(chromedp.CSS(`button[value=approve]`)), chromedp.WaitVisible(chromedp.CSS(`#device-approved`)))
	w.has(`#device-approved`, "Approved")
	w.shot("device-approved")
	status, issued := poll(deviceCode)
	secret, _ := issued["token"].(string)
	if status != http.StatusOK || secret == "" || issued["workspace_id"] == nil || issued["title"] != "tend on laptop" {
		t.Fatalf("the terminal's credential: %d %v", status, issued)
	}
	status, me := apiJSON(t, w.base, secret, http.MethodGet, "/v1/me", nil)
	cred, _ := me["credential"].(map[string]any)
	user, _ := me["user"].(map[string]any)
	if status != http.StatusOK || user["username"] != "admin" || cred["workspace_id"] != issued["workspace_id"] {
		t.Fatalf("the credential acts as: %d %v", status, me)
	}

	deviceCode, userCode, _ = start("")
	w.open("/device", `#device-code`)
	w.shot("device-code")
	w.run("type the code", chromedp.SendKeys(chromedp.CSS(`#device-code`), strings.ToLower(userCode)))
	w.send("continue", chromedp.Click(chromedp.CSS(`form[action="/device"] button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#device-request`)))
	w.send("deny", chromedp.Click(chromedp.CSS(`button[value=deny]`)), chromedp.WaitVisible(chromedp.CSS(`#device-denied`)))
	w.has(`#device-denied`, "Denied")
	w.shot("device-denied")
	if status, p := poll(deviceCode); status != http.StatusBadRequest || p["code"] != "access_denied" {
		t.Fatalf("the denied terminal's poll: %d %v", status, p)
	}
}
