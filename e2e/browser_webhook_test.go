package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// TestBrowserWebhook is the webhooks page (issue 35 §2) as an
// administrator uses it, against a server that may call loopback
// (--outbound-allow): reached from the account page, a webhook added for a
// receiver on loopback, its secret shown once and gone on reload, a task
// created so that the server's worker delivers it, the delivery in the
// log, and the delivery sent again. The receiver verifies every request
// with the secret the page showed. Each page is photographed at 1280 and
// 390 px and checked with axe. TestBrowserWebhookNoScript walks the same
// with JavaScript off.
func TestBrowserWebhook(t *testing.T) { browserWebhook(t, false) }

// TestBrowserWebhookNoScript is TestBrowserWebhook in a browser running no
// JavaScript: every form of the page is a plain post.
func TestBrowserWebhookNoScript(t *testing.T) { browserWebhook(t, true) }

func browserWebhook(t *testing.T, noScript bool) {
	t.Parallel()
	type delivery struct {
		header http.Header
		body   []byte
	}
	got := make(chan delivery, 10)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- delivery{r.Header.Clone(), b}
		_, _ = io.WriteString(w, "received, thank you")
	}))
	t.Cleanup(rcv.Close)
	w := newWalk(t, noScript, "--outbound-allow", "127.0.0.0/8")
	run, has, hasNot, shot, send := w.run, w.has, w.hasNot, w.shot, w.send

	w.open("/account", `#webhooks-link`)
	send("open the webhooks page", chromedp.Click(chromedp.CSS(`#webhooks-link`)), chromedp.WaitVisible(chromedp.CSS(`#webhook-add`)))
	has(`#webhooks-none`, "No webhooks yet")
	shot("webhooks-empty")
	run("fill in the form", chromedp.SendKeys(chromedp.CSS(`#wh-url`), rcv.URL+"/tend"),
		chromedp.SendKeys(chromedp.CSS(`#wh-events`), "task.*"), chromedp.SendKeys(chromedp.CSS(`#wh-desc`), "CI bot"))
	send("add the webhook", chromedp.Click(chromedp.CSS(`#webhook-add button[type=submit]`)), chromedp.WaitVisible(chromedp.CSS(`#new-secret`)))
	has(`#new-webhook`, "Copy it now: it is shown once and never again")
	secret := w.text(`#new-secret`)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("the page shows %q as the secret", secret)
	}
	id := w.eval(`document.getElementById("new-webhook").dataset.id`)
	shot("webhooks-added")
	w.open("/webhooks", `#hook-`+id)
	if w.eval(`String(!!document.getElementById("new-secret") || document.body.innerHTML.includes("whsec_"))`) != "false" {
		t.Fatal("the list shows the secret again after a reload")
	}
	has(`#hook-`+id, rcv.URL+"/tend", "task.*", "none yet")

	verified := func() {
		t.Helper()
		var d delivery
		select {
		case d = <-got:
		case <-time.After(time.Minute):
			t.Fatal("no delivery reached the receiver within a minute")
		}
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(d.body, d.header); err != nil {
			t.Fatalf("the delivery does not verify with the secret the page showed: %v", err)
		}
	}
	w.api(http.MethodPost, "/v1/tasks", map[string]any{"title": "Ship the release"}, http.StatusCreated)
	verified()
	w.logged(id, 1)
	has(`#webhook-log`, "delivered", "200", "received, thank you")
	shot("webhook-log")

	send("send the delivery again", chromedp.Click(chromedp.CSS(`#webhook-log button`)), chromedp.WaitVisible(chromedp.CSS(`#notice`)))
	has(`#notice`, "Queued again")
	verified()
	w.logged(id, 2)
	hasNot(`#webhook-facts`, "failing")
	shot("webhook-redelivered")
}

// logged waits until the webhook's log holds n attempts (the worker
// records one just after the receiver has answered it), then opens the
// webhook's page.
func (w *walk) logged(id string, n int) {
	w.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		status, log := apiJSON(w.t, w.base, w.token, http.MethodGet, "/v1/webhooks/"+id+"/deliveries", nil)
		items, _ := log["items"].([]any)
		if status == http.StatusOK && len(items) >= n {
			break
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("the log of webhook %s holds %d attempts after a minute, want %d: %d %v", id, len(items), n, status, log)
		}
		time.Sleep(20 * time.Millisecond)
	}
	w.open("/webhooks/"+id, `#webhook-log`)
	if got := w.eval(`String(document.querySelectorAll("#webhook-log tbody tr").length)`); got != strconv.Itoa(n) {
		w.t.Fatalf("the page's log shows %s attempts, want %d", got, n)
	}
}
