package pages_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestDevicesSection(t *testing.T) {
	t.Parallel()
	p := newPageEnv(t)
	other := p.SignIn(p.MintLink(p.Admin, map[string]any{})).Value
	body := p.get(t, "/account", http.StatusOK)
	contains(t, "the account page", body, `id="devices"`, "(this device)", "a sign-in link", `action="/account/signout-others"`,
		`action="/account/device-link"`)
	if n := strings.Count(body, `/revoke" class="inline"><button type="submit" class="plain" aria-label="Revoke Unknown browser`); n != 1 {
		t.Fatalf("%d Revoke buttons for sessions, want 1 (not this device's)", n)
	}

	// A device link, shown once as the URL and as a QR code.
	r := p.post(t, "/account/device-link", url.Values{})
	if r.Status != http.StatusOK {
		t.Fatalf("device link: %d\n%s", r.Status, r.Body)
	}
	page := string(r.Body)
	contains(t, "the device link", page, `id="device-link-url"`, `<svg class="qr"`, `aria-label="QR code of the sign-in link"`, "ten minutes")
	link := regexp.MustCompile(`id="device-link-url">([^<]+)<`).FindStringSubmatch(page)
	if link == nil || !strings.Contains(link[1], "/signin?link=") {
		t.Fatalf("no link on the page")
	}
	if again := p.get(t, "/account", http.StatusOK); strings.Contains(again, link[1]) {
		t.Fatal("the link is shown again")
	}

	// Revoke the other browser from this one: it is signed out.
	id := regexp.MustCompile(`action="/account/sessions/([^/]+)/revoke"`).FindStringSubmatch(body)[1]
	if to := p.seeOther(t, "/account/sessions/"+id+"/revoke", url.Values{}); to != "/account#devices" {
		t.Fatalf("revoke lands on %s", to)
	}
	if r := p.Browser(http.MethodGet, "/", other, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("the revoked browser: %d", r.Status)
	}
	if r := p.post(t, "/account/sessions/"+id+"/revoke", url.Values{}); r.Status != http.StatusNotFound {
		t.Fatalf("revoked twice: %d", r.Status)
	}

	// Sign out everywhere else keeps this browser.
	third := p.SignIn(p.MintLink(p.Admin, map[string]any{})).Value
	p.seeOther(t, "/account/signout-others", url.Values{})
	if r := p.Browser(http.MethodGet, "/", third, "", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("another browser after signing out everywhere else: %d", r.Status)
	}
	p.get(t, "/account", http.StatusOK)
}
