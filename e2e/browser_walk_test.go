package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// walk is one person in one headless browser, signed in to a fresh `tend
// serve` through the link its first start prints: the steps a flow takes
// and the checks it makes on the way.
type walk struct {
	t        *testing.T
	ctx      context.Context
	base     string // the server's address, http://host:port
	token    string // the admin's token, printed on first start
	noScript bool
	sh       *shooter
}

// newWalk starts the server (with flags beyond the browser tests' own) and
// the browser and signs in; with noScript the browser runs no JavaScript,
// and each screenshot's name says so.
func newWalk(t *testing.T, noScript bool, flags ...string) *walk {
	return newWalkIn(t, browserCtx, noScript, flags...)
}

// newWalkIn is newWalk in the browser that browse gives the test.
func newWalkIn(t *testing.T, browse func(*testing.T) context.Context, noScript bool, flags ...string) *walk {
	w, link := newBrowserIn(t, browse, noScript, flags...)
	if noScript {
		w.run("switch JavaScript off", scriptsOff(true))
	}
	w.signIn(link)
	return w
}

// walkTwice runs flow as a test of its own in a browser running
// JavaScript, and as its NoScript twin in one running none, side by side.
func walkTwice(t *testing.T, flow func(w *walk)) {
	for _, noScript := range []bool{false, true} {
		name := "Script"
		if noScript {
			name = "NoScript"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			flow(newWalk(t, noScript))
		})
	}
}

// newBrowser starts the server and the browser, not yet signed in, and
// returns the sign-in link the server printed.
func newBrowser(t *testing.T, noScript bool, flags ...string) (w *walk, link string) {
	return newBrowserIn(t, browserCtx, noScript, flags...)
}

// newBrowserIn is newBrowser in the browser that browse gives the test.
func newBrowserIn(t *testing.T, browse func(*testing.T) context.Context, noScript bool, flags ...string) (w *walk, link string) {
	// The server first: building it on a loaded machine must not eat into
	// the browser's time.
	base, link, token := browserServer(t, flags...)
	ctx := browse(t)
	return &walk{t: t, ctx: ctx, base: base, token: token, noScript: noScript,
		sh: &shooter{t: t, ctx: ctx, dir: screenshotDir(t), axe: axeSource(t), readme: os.Getenv("TEND_README_SHOTS") == "1", noScript: noScript}}, link
}

// signIn follows the sign-in link and presses its button.
func (w *walk) signIn(link string) {
	w.t.Helper()
	w.run("open the sign-in link", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`form[action="/signin"] button`)))
	w.run("sign in", chromedp.Click(chromedp.CSS(`form[action="/signin"] button`)), chromedp.WaitVisible(chromedp.CSS(`#quick-add`)))
}

// shot photographs the page at both widths in both schemes, and checks it.
func (w *walk) shot(name string) {
	w.t.Helper()
	if w.noScript {
		name += "-noscript"
	}
	w.sh.page(name)
}

// run takes steps, failing the test with what they were for.
func (w *walk) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	if err := chromedp.Do(w.ctx, steps...); err != nil {
		w.t.Fatalf("%s: %v", what, err)
	}
}

// open goes to path on the server and waits for sel.
func (w *walk) open(path, sel string) {
	w.t.Helper()
	w.run("open "+path, chromedp.Navigate(w.base+path), chromedp.WaitVisible(chromedp.CSS(sel)))
}

func (w *walk) text(sel string) string {
	w.t.Helper()
	v, err := pageText(w.ctx, sel)
	if err != nil {
		w.t.Fatalf("reading %s: %v", sel, err)
	}
	return v
}

// has wants each of wants in the text of sel.
func (w *walk) has(sel string, wants ...string) {
	w.t.Helper()
	got := w.text(sel)
	for _, want := range wants {
		if !strings.Contains(got, want) {
			w.t.Fatalf("%s reads %q; want %q in it", sel, got, want)
		}
	}
}

// hasNot wants none of wants in the text of sel.
func (w *walk) hasNot(sel string, wants ...string) {
	w.t.Helper()
	got := w.text(sel)
	for _, want := range wants {
		if strings.Contains(got, want) {
			w.t.Fatalf("%s reads %q; want no %q in it", sel, got, want)
		}
	}
}

// until waits for a script condition; only with JavaScript, whose timers
// the polling needs.
func (w *walk) until(what, cond string) {
	w.t.Helper()
	if _, err := chromedp.Run(w.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		w.t.Fatalf("%s: %v", what, err)
	}
}

// api calls the JSON API as the admin and wants status.
func (w *walk) api(method, path string, body any, status int) {
	w.t.Helper()
	if got, _ := apiJSON(w.t, w.base, w.token, method, path, body); got != status {
		w.t.Fatalf("%s %s: %d, want %d", method, path, got, status)
	}
}

// send takes steps that send a form and waits for the page that answers
// it, which must not be a refusal: a form's answer can carry the same
// marks as the page it was sent from, so waiting for one would not do.
func (w *walk) send(what string, steps ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	res, err := chromedp.RunResponse(w.ctx, steps...)
	if err != nil {
		w.t.Fatalf("%s: %v", what, err)
	}
	if res.Status >= 400 {
		w.t.Fatalf("%s: answered %d %s: %s", what, res.Status, res.StatusText, w.text(`main`))
	}
}
