package e2e

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"
)

// TestBrowserPWA is the installable app (issue 37 §4) in Chromium, on the
// real server: Chromium finds nothing that keeps it from installing the
// app; the manifest's fields and icons load; the service worker registers
// and controls the page; a push delivered to it over the DevTools protocol
// (ServiceWorker.deliverPushMessage) shows the notification with its Done
// and Snooze buttons; a notificationclick on Done, dispatched in the
// worker's own scope, posts the Done link to a receiver on loopback and
// closes the notification, and a click on a notification itself opens its
// task's page; with the network gone, Today and a task's page
// reload from the worker's copy with the offline banner, while a page
// never opened says there is no copy; and signing out forgets the copies.
func TestBrowserPWA(t *testing.T) {
	t.Parallel()
	pressed := make(chan *http.Request, 4)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The worker's origin is the server's, not this one's: a real
		// action link is the server's own, and needs no such header.
		w.Header().Set("Access-Control-Allow-Origin", "*")
		pressed <- r
	}))
	t.Cleanup(rcv.Close)
	w := newWalkIn(t, ownBrowserCtx, false)
	ctx := w.ctx

	w.until("the service worker controls Today", `!!navigator.serviceWorker.controller`)
	var errs []*page.InstallabilityError
	for range 40 {
		res, err := chromedp.Call(ctx, page.GetInstallabilityErrors, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		if errs = res.InstallabilityErrors; len(errs) == 0 {
			break
		}
		// The manifest and the worker are read after the page: give
		// Chromium's check the time it takes, not a fixed wait.
		_ = chromedp.Do(ctx, chromedp.Sleep(250*time.Millisecond))
	}
	for _, e := range errs {
		t.Errorf("Chromium's installability error: %s %v", e.ErrorID, e.ErrorArguments)
	}

	var m struct {
		Type, Name, ShortName, StartURL, Scope, Display, Theme, Background string
		Icons                                                              []struct{ Src, Sizes, Purpose, Type, Loaded string }
	}
	js(t, ctx, `fetch("/manifest.webmanifest").then(r => r.json().then(j => Promise.all(j.icons.map(i => new Promise(ok => {
		const img = new Image(); img.onload = () => ok(img.naturalWidth + "x" + img.naturalHeight); img.onerror = () => ok("failed"); img.src = i.src;
	}))).then(sizes => JSON.stringify({Type: r.headers.get("Content-Type"), Name: j.name, ShortName: j.short_name, StartURL: j.start_url,
		Scope: j.scope, Display: j.display, Theme: j.theme_color, Background: j.background_color,
		Icons: j.icons.map((i, n) => ({Src: i.src, Sizes: i.sizes, Purpose: i.purpose, Type: i.type, Loaded: sizes[n]}))}))))`, &m)
	if m.Type != "application/manifest+json" || m.Name != "tend" || m.ShortName != "tend" || m.StartURL != "/" || m.Scope != "/" ||
		m.Display != "standalone" || m.Theme != "#f6f8fa" || m.Background != "#ffffff" {
		t.Errorf("the manifest reads %+v", m)
	}
	have := map[string]bool{}
	for _, i := range m.Icons {
		if i.Loaded == "failed" || (i.Type == "image/png" && i.Loaded != i.Sizes) {
			t.Errorf("icon %s (%s) loads as %s", i.Src, i.Sizes, i.Loaded)
		}
		have[i.Sizes+" "+i.Purpose] = true
	}
	for _, want := range []string{"192x192 any", "512x512 any", "192x192 maskable", "512x512 maskable"} {
		if !have[want] {
			t.Errorf("the manifest has no %s icon: %+v", want, m.Icons)
		}
	}

	// A push, as the server sends one (issue 37's payload), delivered to
	// the worker by Chromium itself.
	grantNotifications(t, ctx, w.base)
	payload, _ := json.Marshal(map[string]any{"id": "ntf_1", "kind": "reminder", "title": "Renew passport", "body": "Due today 09:00",
		"url": w.base + "/tasks/1", "task_id": "t1", "late": false, "actions": []map[string]string{
			{"action": "done", "title": "Done", "url": rcv.URL + "/v1/actions/DONE"},
			{"action": "snooze", "title": "Snooze 1 h", "url": rcv.URL + "/v1/actions/SNOOZE"}}})
	reg := registrationID(t, ctx, w.base)
	if _, err := chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
		Origin: w.base, RegistrationID: reg, Data: string(payload)}); err != nil {
		t.Fatalf("delivering a push: %v", err)
	}
	w.until("the push shows a notification", `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length > 0)`)
	var shown []struct{ Title, Body, Tag, Actions string }
	js(t, ctx, `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => JSON.stringify(ns.map(n => ({
		Title: n.title, Body: n.body, Tag: n.tag, Actions: n.actions.map(a => a.action + ":" + a.title).join(",")}))))`, &shown)
	if len(shown) != 1 || shown[0].Title != "Renew passport" || shown[0].Body != "Due today 09:00" || shown[0].Tag != "ntf_1" ||
		shown[0].Actions != "done:Done,snooze:Snooze 1 h" {
		t.Fatalf("the push shows %+v", shown)
	}

	// Done, pressed: no DevTools command clicks a notification, so the
	// worker's own notificationclick listener gets the event in its scope.
	// An event made by a script cannot be extended (waitUntil throws), but
	// the post it starts goes on.
	sw := workerCtx(t, ctx)
	if _, err := chromedp.Run(sw, chromedp.Evaluate[int](`self.registration.getNotifications().then(ns => {
		try { self.dispatchEvent(new NotificationEvent("notificationclick", {notification: ns[0], action: "done"})); } catch (e) { /* waitUntil */ }
		return ns.length; })`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("dispatching notificationclick: %v", err)
	}
	select {
	case r := <-pressed:
		if r.Method != http.MethodPost || r.URL.Path != "/v1/actions/DONE" || r.Header.Get("Cookie") != "" {
			t.Fatalf("the Done button sent %s %s (cookie %q)", r.Method, r.URL.Path, r.Header.Get("Cookie"))
		}
	case <-time.After(time.Minute):
		t.Fatal("the Done button posted nothing within a minute")
	}
	w.until("the pressed notification is closed", `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length === 0)`)

	// A click on the notification itself, not a button, opens the task's
	// page. A window opens only on a person's real click, so the worker's
	// openWindow is replaced by one that notes where it was sent.
	payload, _ = json.Marshal(map[string]any{"id": "ntf_2", "kind": "reminder", "title": "Water plants", "body": "Due today 10:00",
		"url": w.base + "/tasks/2", "task_id": "t2", "late": false, "actions": []map[string]string{}})
	if _, err := chromedp.Call(ctx, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
		Origin: w.base, RegistrationID: reg, Data: string(payload)}); err != nil {
		t.Fatalf("delivering a push: %v", err)
	}
	w.until("the second push shows", `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length === 1)`)
	if _, err := chromedp.Run(sw, chromedp.Evaluate[int](`self.registration.getNotifications().then(ns => {
		self.clients.openWindow = url => { self.opened = url; return Promise.resolve(null); };
		try { self.dispatchEvent(new NotificationEvent("notificationclick", {notification: ns[0]})); } catch (e) { /* waitUntil */ }
		return ns.length; })`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatalf("dispatching notificationclick: %v", err)
	}
	var opened string
	for range 40 {
		var err error
		if opened, err = chromedp.Run(sw, chromedp.Evaluate[string](`String(self.opened || "")`)); err != nil {
			t.Fatal(err)
		}
		if opened != "" {
			break
		}
		_ = chromedp.Do(ctx, chromedp.Sleep(250*time.Millisecond))
	}
	if opened != w.base+"/tasks/2" {
		t.Fatalf("a click on the notification opened %q, want its task's page", opened)
	}
	w.until("the clicked notification is closed", `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.length === 0)`)

	// Offline: the pages opened last are read from the worker's copy.
	st, task := apiJSON(t, w.base, w.token, http.MethodPost, "/v1/tasks", map[string]any{"title": "Read me offline"})
	if st != http.StatusCreated {
		t.Fatalf("creating a task: %d %v", st, task)
	}
	ref := fmt.Sprint(task["ref"])
	w.open("/tasks/"+ref, `#comment-add`)
	w.open("/", `#quick-add`)
	w.until("the worker keeps both pages", `caches.keys().then(ks => Promise.all(ks.filter(k => k.startsWith("tend-pages-")).map(k => caches.open(k))))
		.then(cs => Promise.all(cs.map(c => c.keys()))).then(ls => ls.flat().map(r => new URL(r.url).pathname))
		.then(ps => ps.includes("/") && ps.includes("/tasks/`+ref+`"))`)
	offline(t, ctx, sw, true)
	w.run("reload Today offline", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#offline-note`)))
	w.has(`#offline-note`, "Offline: showing the copy from ")
	if note := w.text(`#offline-note`); !strings.Contains(note, ":") {
		t.Fatalf("the banner names no time: %q", note)
	}
	w.open("/tasks/"+ref, `#offline-note`)
	w.has(`main`, "Read me offline")
	w.open("/tasks/999999", `#offline-missing`)
	offline(t, ctx, sw, false)
	w.open("/", `#quick-add`)
	if w.eval(`String(!!document.getElementById("offline-note"))`) != "false" {
		t.Fatal("Today back online still says it is offline")
	}

	// Signing out forgets the pages kept.
	w.open("/account", `#signout`)
	w.run("sign out", chromedp.Click(chromedp.CSS(`#signout button`)), chromedp.WaitVisible(chromedp.CSS(`#signed-out`)))
	w.until("the kept pages are forgotten", `caches.keys().then(ks => !ks.some(k => k.startsWith("tend-pages-")))`)
}

// TestBrowserPWASubscribe is the Account page's Notify this browser, up to
// the subscription: with notifications allowed over the DevTools protocol,
// the button asks the server for its VAPID key and the browser's push
// service for a subscription. Here no push service can be reached, so the
// subscription may fail; either way the page says what happened in
// words, and nothing is thrown uncaught. The key and the channel's POST
// are answered by the test (Fetch.fulfillRequest) with what issue 37's
// contract gives; TestBrowserPWASubscribeServer makes the same press
// against the server's own routes. The page passes axe with the button.
func TestBrowserPWASubscribe(t *testing.T) {
	t.Parallel()
	w := newWalk(t, false)
	ctx := w.ctx
	grantNotifications(t, ctx, w.base)
	w.open("/account", `#push-subscribe`)
	w.has(`#push-subscribe`, "Notify this browser")
	w.shot("account-push")

	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	posted := make(chan []byte, 1)
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
		{URLPattern: w.base + "/v1/push/key"}, {URLPattern: w.base + "/v1/me/channels"}}}); err != nil {
		t.Fatal(err)
	}
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			status, body := int64(200), []byte(`{"vapid_public_key":"`+base64.RawURLEncoding.EncodeToString(key.PublicKey().Bytes())+`"}`)
			if strings.HasSuffix(ev.Request.URL, "/v1/me/channels") {
				var b []byte
				for _, e := range ev.Request.PostDataEntries {
					b = append(b, e.Bytes...)
				}
				posted <- b
				status, body = 201, []byte(`{"id":"chn_1","type":"webpush","name":"Chrome on Linux"}`)
			}
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: status,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: body})
		}
	}()
	said := pressSubscribe(t, w)
	select {
	case b := <-posted:
		var c struct {
			Type, Endpoint, Name string
			Keys                 struct{ P256dh, Auth string }
		}
		if err := json.Unmarshal(b, &c); err != nil || c.Type != "webpush" || !strings.HasPrefix(c.Endpoint, "https://") ||
			c.Keys.P256dh == "" || c.Keys.Auth == "" || c.Name == "" {
			t.Fatalf("the channel posted: %s (%v)", b, err)
		}
		if said != "This browser will be notified." {
			t.Fatalf("subscribed, and the page says %q", said)
		}
	default:
		if !strings.Contains(said, "could not subscribe with its push service") {
			t.Fatalf("no subscription, and the page says %q", said)
		}
		t.Logf("Chromium could not subscribe here (no push service): the page says %q", said)
	}
}

// TestBrowserPWASubscribeServer is TestBrowserPWASubscribe against the
// server's own GET /v1/push/key and POST /v1/me/channels, which issue 37's
// delivery branch adds: until they are merged it skips. The browser must
// take the server's key (a refused key is an error about the key, not
// about the push service); when Chromium can reach a push service, the
// channel is the person's.
func TestBrowserPWASubscribeServer(t *testing.T) {
	t.Parallel()
	w := newWalk(t, false)
	if st, _ := apiJSON(t, w.base, "", http.MethodGet, "/v1/push/key", nil); st == http.StatusNotFound {
		t.Skip("the server has no GET /v1/push/key yet (issue 37's delivery branch)")
	}
	grantNotifications(t, w.ctx, w.base)
	w.open("/account", `#push-subscribe`)
	said := pressSubscribe(t, w)
	if said == "This browser will be notified." {
		st, body := apiJSON(t, w.base, w.token, http.MethodGet, "/v1/me/channels", nil)
		if items, _ := body["items"].([]any); st != http.StatusOK || len(items) != 1 {
			t.Fatalf("after subscribing, GET /v1/me/channels answers %d %v", st, body)
		}
		return
	}
	if !strings.Contains(said, "could not subscribe with its push service") || strings.Contains(strings.ToLower(said), "applicationserverkey") {
		t.Fatalf("the page says %q", said)
	}
}

// pressSubscribe presses Notify this browser, watching for anything thrown
// uncaught, and returns what the page then says.
func pressSubscribe(t *testing.T, w *walk) string {
	t.Helper()
	// No push service answers here: the page is told to wait 2 s, not 20.
	w.eval(`document.getElementById("push-slot").dataset.wait = "2"; window.pushErrors = []; addEventListener("error", e => pushErrors.push(String(e.message)));
		addEventListener("unhandledrejection", e => pushErrors.push(String(e.reason))); ""`)
	w.run("press Notify this browser", chromedp.Click(chromedp.CSS(`#push-subscribe`)))
	if _, err := chromedp.Run(w.ctx, chromedp.Poll[bool](`(s => !!s && s.textContent !== "" && s.textContent !== "Asking the browser…")(document.getElementById("push-status"))`,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		t.Fatalf("the page says nothing of how it went: %v", err)
	}
	if errs := w.eval(`JSON.stringify(pushErrors)`); errs != "[]" {
		t.Fatalf("thrown uncaught: %s", errs)
	}
	return w.text(`#push-status`)
}

func grantNotifications(t *testing.T, ctx context.Context, origin string) {
	t.Helper()
	for _, p := range []string{"notifications", "push"} {
		if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: p, UserVisibleOnly: true}, Setting: browser.PermissionSettingGranted, Origin: origin,
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}); err != nil {
			t.Fatalf("granting %s: %v", p, err)
		}
	}
}

// js evaluates a script whose promise gives JSON text, and decodes it.
func js(t *testing.T, ctx context.Context, script string, into any) {
	t.Helper()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.80s: %v", script, err)
	}
	if err := json.Unmarshal([]byte(out), into); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}

// registrationID is the id Chromium gives the service worker registered
// for origin, as the ServiceWorker domain reports it when enabled.
func registrationID(t *testing.T, ctx context.Context, origin string) serviceworker.RegistrationID {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	events := chromedp.Events(ctx, serviceworker.WorkerRegistrationUpdated)
	if _, err := chromedp.Call(ctx, serviceworker.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	for ev, err := range events {
		if err != nil {
			t.Fatalf("waiting for the worker's registration: %v", err)
		}
		for _, r := range ev.Registrations {
			if !r.IsDeleted && strings.HasPrefix(r.ScopeURL, origin) {
				return r.RegistrationID
			}
		}
	}
	t.Fatal("no registration reported")
	return ""
}

// workerCtx attaches to the page's service worker, to run script in its
// scope.
func workerCtx(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range infos {
		if i.Type == "service_worker" {
			sw, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(i.TargetID))
			t.Cleanup(cancel)
			return sw
		}
	}
	t.Fatalf("no service worker among the targets: %v", infos)
	return nil
}

// offline takes the network away from the page and its worker (or gives
// it back): the worker's own fetches are its target's. Chromium 148
// refuses Network.emulateNetworkConditionsByRule's global rule as cdproto
// sends it, so this is the older command, which it still takes.
func offline(t *testing.T, ctx, sw context.Context, off bool) {
	t.Helper()
	for _, c := range []context.Context{ctx, sw} {
		if err := chromedp.Do(c, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			return tg.Call(ctx, "Network.emulateNetworkConditions", map[string]any{"offline": off, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}, nil)
		})); err != nil {
			t.Fatalf("network offline=%v: %v", off, err)
		}
	}
}
