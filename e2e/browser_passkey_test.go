package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserPasskey is a passkey's life (issue 38 §2) in Chromium with a
// CDP virtual authenticator (ctap2, internal, resident keys, user
// verification), which answers navigator.credentials as a platform
// authenticator would: the person adds a passkey on the Account page,
// signs out, signs in with it on /signin with nothing typed, and removes
// it. The browser is at http://localhost, the plain-http address WebAuthn
// allows (127.0.0.1 is an address, never a relying party). Account and
// /signin are photographed at 1280 and 390 px, light and dark, and checked
// with axe.
func TestBrowserPasskey(t *testing.T) {
	t.Parallel()
	w := atLocalhost(t)
	virtualAuthenticator(w)

	w.open("/account", `#passkey-add-form`)
	w.has(`#passkeys`, "You have no passkey yet")
	w.shot("account-passkeys")
	w.run("name the passkey", chromedp.SendKeys(chromedp.CSS(`#pk-new-name`), "laptop"))
	w.run("add a passkey", chromedp.Click(chromedp.CSS(`#passkey-add-form button`)), chromedp.WaitVisible(chromedp.CSS(`#passkeys table`)))
	w.has(`#passkeys table`, "laptop", "never")

	w.run("sign out", chromedp.Click(chromedp.CSS(`#signout button`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	w.run("wait for the passkey button", chromedp.WaitVisible(chromedp.CSS(`#passkey-signin-button`)))
	w.has(`#signed-out`, "Sign in with a passkey", "Open the link you were given", "Ask an administrator", "admin")
	w.hasNot(`#signed-out`, "/v1/login-links")
	w.shot("signin-passkey")
	w.run("sign in with the passkey", chromedp.Click(chromedp.CSS(`#passkey-signin-button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))

	w.open("/account", `#passkeys table`)
	w.hasNot(`#passkeys table`, "never")
	w.run("remove the passkey", chromedp.Click(chromedp.CSS(`#passkeys form[action$="/remove"] button`)), chromedp.WaitVisible(chromedp.CSS(`#no-passkeys`)))
}
