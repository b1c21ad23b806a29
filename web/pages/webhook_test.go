package pages_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"tend/app"
	"tend/store/storetest"
	"tend/web/hook"
	"tend/web/webtest"
)

// hookPageEnv is a page env whose webhooks may call loopback, with a
// worker to send what is queued and a receiver on loopback.
type hookPageEnv struct {
	*pageEnv
	worker   *hook.Worker
	receiver *httptest.Server
}

func newHookPageEnv(t *testing.T) *hookPageEnv {
	t.Helper()
	allow := storetest.Loopback(t)
	e := &env{webtest.NewWith(t, app.Options{Version: "test", Outbound: allow})}
	p := signedIn(e)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "thanks from the receiver")
	}))
	t.Cleanup(rcv.Close)
	return &hookPageEnv{pageEnv: p, worker: hook.New(e.Svc, hook.Options{Outbound: allow}), receiver: rcv}
}

// send runs the worker once and wants n deliveries sent.
func (p *hookPageEnv) send(t *testing.T, n int) {
	t.Helper()
	got, err := p.worker.RunOnce(context.Background())
	if err != nil || got != n {
		t.Fatalf("the worker sent %d (%v), want %d", got, err, n)
	}
}

// secretRE finds a webhook's secret in a page, which writes its '+' as
// &#43;.
var secretRE = regexp.MustCompile(`whsec_(?:[A-Za-z0-9+/=]|&#43;)+`)

// TestWebhookPage walks the page as a workspace admin: the link from the
// account page, adding an endpoint (its secret on that answer only), the
// delivery a new task makes in the log, sending it again, a replay, an
// edit, a rotation, turning it off and on, and deleting it.
func TestWebhookPage(t *testing.T) {
	t.Parallel()
	p := newHookPageEnv(t)
	contains(t, "Account", p.get(t, "/account", http.StatusOK), `href="/webhooks" id="webhooks-link"`)
	contains(t, "Webhooks, none yet", p.get(t, "/webhooks", http.StatusOK), `id="webhooks-none"`, `id="webhook-add"`, `aria-current="page">Account`)

	added := p.post(t, "/webhooks", url.Values{"url": {p.receiver.URL + "/in"}, "events": {"task.*, comment.created"},
		"description": {"CI bot"}})
	body := string(added.Body)
	if added.Status != http.StatusOK {
		t.Fatalf("add: %d\n%s", added.Status, body)
	}
	secret := secretRE.FindString(body)
	contains(t, "the answer of the add", body, `id="new-secret">`+secret, "Copy it now: it is shown once and never again", "CI bot")
	if secret == "" || strings.Contains(body, "/webhooks?") {
		t.Fatalf("no secret shown, or a redirect:\n%s", body)
	}
	id := regexp.MustCompile(`href="/webhooks/([^"]+)">Open the webhook`).FindStringSubmatch(body)[1]
	list := p.get(t, "/webhooks", http.StatusOK)
	contains(t, "Webhooks after the add", list, `id="hook-`+id+`"`, p.receiver.URL+"/in", "<code>comment.created</code>", "<code>task.*</code>",
		"the whole workspace", "none yet")
	if strings.Contains(list, "whsec_") {
		t.Fatal("the list shows a secret again")
	}

	p.CreateTask(p.Admin, map[string]any{"title": "Ship it"})
	p.send(t, 1)
	page := p.get(t, "/webhooks/"+id, http.StatusOK)
	contains(t, "the webhook's page", page, `id="webhook-log"`, "delivered", "202", "thanks from the receiver",
		`action="/webhooks/`+id+`/redeliver/`)
	if strings.Contains(page, "whsec_") {
		t.Fatal("the webhook's page shows its secret")
	}
	contains(t, "Webhooks after a delivery", p.get(t, "/webhooks", http.StatusOK), "delivered (202)")

	delivery := regexp.MustCompile(`/redeliver/(\d+)"`).FindStringSubmatch(page)[1]
	to := p.seeOther(t, "/webhooks/"+id+"/redeliver/"+delivery, url.Values{})
	contains(t, "after a redelivery", p.get(t, to, http.StatusOK), "Queued again")
	p.send(t, 1)
	if n := strings.Count(p.get(t, "/webhooks/"+id, http.StatusOK), `<tr id="attempt-`); n != 2 {
		t.Fatalf("the log holds %d attempts after the redelivery, want 2", n)
	}

	to = p.seeOther(t, "/webhooks/"+id+"/replay", url.Values{"since": {"0"}})
	contains(t, "after a replay", p.get(t, to, http.StatusOK), "Queued 1 event to send again")
	p.send(t, 1)

	to = p.seeOther(t, "/webhooks/"+id, url.Values{"url": {p.receiver.URL + "/v2"}, "events": {"*"}, "description": {"CI bot v2"}})
	contains(t, "after the edit", p.get(t, to, http.StatusOK), "Saved.", p.receiver.URL+"/v2", "<code>*</code>", `value="CI bot v2"`)

	rotated := p.post(t, "/webhooks/"+id+"/rotate", url.Values{})
	if rotated.Status != http.StatusOK {
		t.Fatalf("rotate: %d\n%s", rotated.Status, rotated.Body)
	}
	fresh := secretRE.FindString(string(rotated.Body))
	contains(t, "the answer of the rotation", string(rotated.Body), `id="new-secret">`+fresh, "The old one keeps signing beside it for 24 hours")
	if fresh == "" || fresh == secret {
		t.Fatalf("the rotation showed %q after %q", fresh, secret)
	}
	contains(t, "after the rotation", p.get(t, "/webhooks/"+id, http.StatusOK), `id="rotating"`)

	to = p.seeOther(t, "/webhooks/"+id+"/active", url.Values{"active": {"false"}})
	contains(t, "turned off", p.get(t, to, http.StatusOK), "Turned off", `id="webhook-off"`, `name="active" value="true"`)
	p.CreateTask(p.Admin, map[string]any{"title": "Not sent"})
	p.send(t, 0)
	to = p.seeOther(t, "/webhooks/"+id+"/active", url.Values{"active": {"true"}})
	contains(t, "turned on", p.get(t, to, http.StatusOK), "Turned on", `name="active" value="false"`)

	to = p.seeOther(t, "/webhooks/"+id+"/delete", url.Values{})
	contains(t, "after the delete", p.get(t, to, http.StatusOK), "Deleted the webhook", `id="webhooks-none"`)
	p.Problem(http.StatusNotFound, "not_found", http.MethodGet, "/v1/webhooks/"+id, p.Admin, nil)
}

// TestWebhookPageRefusals: what the API refuses, the forms refuse with the
// same code, on the form, with what was written kept; a delivery or an
// endpoint that is not there is the not-found page.
func TestWebhookPageRefusals(t *testing.T) {
	t.Parallel()
	p := newHookPageEnv(t)
	for _, c := range []struct {
		name        string
		form        url.Values
		code, field string
	}{
		{"not a URL", url.Values{"url": {"ftp://files.example/x"}, "events": {"*"}}, "validation", "wh-url-error"},
		{"a refused address", url.Values{"url": {"http://10.1.2.3/in"}, "events": {"*"}}, "validation", "wh-url-error"},
		{"an unknown event", url.Values{"url": {p.receiver.URL}, "events": {"task.exploded"}}, "validation", "wh-events-error"},
		{"no such project", url.Values{"url": {p.receiver.URL}, "events": {"*"}, "project": {"nope"}}, "validation", "wh-project-error"},
	} {
		r := p.post(t, "/webhooks", c.form)
		api := p.Problem(r.Status, c.code, http.MethodPost, "/v1/webhooks", p.Admin, map[string]any{"url": c.form.Get("url"),
			"events": strings.Fields(c.form.Get("events")), "project": c.form.Get("project")})
		if r.Status != http.StatusUnprocessableEntity || api["code"] != c.code {
			t.Fatalf("%s: the page answered %d, the API %v", c.name, r.Status, api)
		}
		contains(t, c.name, string(r.Body), `id="problem-code">`+c.code+`<`, `id="`+c.field+`"`, `aria-invalid="true"`,
			`value="`+c.form.Get("url")+`"`, `value="`+c.form.Get("events")+`"`)
	}
	h := p.OK(http.StatusCreated, http.MethodPost, "/v1/webhooks", p.Admin, map[string]any{"url": p.receiver.URL, "events": []string{"*"}})
	id := h["id"].(string)
	r := p.post(t, "/webhooks/"+id, url.Values{"url": {"http://192.168.1.1/x"}, "events": {"*"}, "description": {"kept"}})
	if r.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a refused edit: %d", r.Status)
	}
	contains(t, "the refused edit", string(r.Body), `id="wh-url-error"`, `value="http://192.168.1.1/x"`, `value="kept"`)
	if got := p.OK(http.StatusOK, http.MethodGet, "/v1/webhooks/"+id, p.Admin, nil)["url"]; got != p.receiver.URL {
		t.Fatalf("a refused edit saved %v", got)
	}
	r = p.post(t, "/webhooks/"+id+"/replay", url.Values{"since": {"-1"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `id="problem-code">validation<`) {
		t.Fatalf("a replay from seq -1: %d\n%s", r.Status, r.Body)
	}
	for _, path := range []string{"/webhooks/" + id + "/redeliver/99", "/webhooks/" + id + "/redeliver/x", "/webhooks/nope/rotate"} {
		r := p.post(t, path, url.Values{})
		if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), `id="problem-code">not_found<`) {
			t.Fatalf("POST %s: %d\n%s", path, r.Status, r.Body)
		}
	}
	contains(t, "an endpoint that is not there", p.get(t, "/webhooks/nope", http.StatusNotFound), `id="problem-code">not_found<`)

	// A form sent from another site changes nothing, as on every page.
	for _, path := range []string{"/webhooks", "/webhooks/" + id + "/delete", "/webhooks/" + id + "/rotate"} {
		r := p.Browser(http.MethodPost, path, p.session, "https://evil.example", url.Values{"url": {p.receiver.URL}, "events": {"*"}})
		if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), "cross_origin") {
			t.Fatalf("POST %s from another site: %d\n%s", path, r.Status, r.Body)
		}
	}
	if n := len(p.OK(http.StatusOK, http.MethodGet, "/v1/webhooks", p.Admin, nil)["items"].([]any)); n != 1 {
		t.Fatalf("%d webhooks after the posts from another site", n)
	}
}

// TestWebhookPageHidden: to a person who manages no webhook the link is
// not there and every webhook page answers as a page that does not exist;
// a project admin sees the page, their project's endpoints only, and may
// add one for their project only.
func TestWebhookPageHidden(t *testing.T) {
	t.Parallel()
	p := newHookPageEnv(t)
	h := p.OK(http.StatusCreated, http.MethodPost, "/v1/webhooks", p.Admin, map[string]any{"url": p.receiver.URL + "/all", "events": []string{"*"}})
	id := h["id"].(string)
	mia := p.Member("mia", "member")
	session := p.SignIn(p.MintLink(mia, map[string]any{})).Value
	browse := func(method, path string, form url.Values) webtest.Response {
		return p.Browser(method, path, session, p.Srv.URL, form)
	}
	if r := browse(http.MethodGet, "/account", nil); r.Status != http.StatusOK || strings.Contains(string(r.Body), "/webhooks") {
		t.Fatalf("a member's account page: %d, links the webhooks:\n%s", r.Status, r.Body)
	}
	nowhere := browse(http.MethodGet, "/no-such-page", nil)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/webhooks"}, {http.MethodPost, "/webhooks"}, {http.MethodGet, "/webhooks/" + id},
		{http.MethodPost, "/webhooks/" + id + "/rotate"}, {http.MethodPost, "/webhooks/" + id + "/delete"},
		{http.MethodPost, "/webhooks/" + id + "/replay"},
	} {
		r := browse(c.method, c.path, url.Values{"url": {p.receiver.URL}, "events": {"*"}, "since": {"0"}})
		want := strings.ReplaceAll(string(nowhere.Body), "/no-such-page", c.path)
		if r.Status != http.StatusNotFound || string(r.Body) != want {
			t.Fatalf("%s %s by a member: %d\n%s\nwant\n%s", c.method, c.path, r.Status, r.Body, want)
		}
	}
	if n := len(p.OK(http.StatusOK, http.MethodGet, "/v1/webhooks", p.Admin, nil)["items"].([]any)); n != 1 {
		t.Fatalf("%d webhooks after a member's attempts", n)
	}

	p.OK(http.StatusCreated, http.MethodPost, "/v1/projects", p.Admin, map[string]any{"key": "ops", "title": "Ops"})
	p.OK(http.StatusOK, http.MethodPut, "/v1/projects/ops/roles/mia", p.Admin, map[string]any{"role": "admin"})
	contains(t, "a project admin's account page", string(browse(http.MethodGet, "/account", nil).Body), `href="/webhooks"`)
	list := browse(http.MethodGet, "/webhooks", nil)
	if list.Status != http.StatusOK || strings.Contains(string(list.Body), id) {
		t.Fatalf("a project admin's list: %d, shows the workspace's endpoint:\n%s", list.Status, list.Body)
	}
	r := browse(http.MethodPost, "/webhooks", url.Values{"url": {p.receiver.URL + "/ws"}, "events": {"*"}})
	if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), `id="problem-code">forbidden<`) {
		t.Fatalf("a project admin adding for the workspace: %d\n%s", r.Status, r.Body)
	}
	r = browse(http.MethodPost, "/webhooks", url.Values{"url": {p.receiver.URL + "/ops"}, "events": {"task.*"}, "project": {"ops"}})
	if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `id="new-secret">whsec_`) {
		t.Fatalf("a project admin adding for their project: %d\n%s", r.Status, r.Body)
	}
	if r := browse(http.MethodGet, "/webhooks/"+id, nil); r.Status != http.StatusNotFound {
		t.Fatalf("a project admin opening the workspace's endpoint: %d", r.Status)
	}
}

// TestWebhookPageDisabled: an endpoint its receiver disabled with 410 Gone
// says so on its page and in the list, with the reason, when, and how to
// turn it on again; turning it on clears the notice.
func TestWebhookPageDisabled(t *testing.T) {
	t.Parallel()
	p := newHookPageEnv(t)
	gone := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) }))
	t.Cleanup(gone.Close)
	id := p.OK(http.StatusCreated, http.MethodPost, "/v1/webhooks", p.Admin, map[string]any{"url": gone.URL, "events": []string{"task.*"}})["id"].(string)
	p.CreateTask(p.Admin, map[string]any{"title": "Tell nobody"})
	p.send(t, 1)
	contains(t, "the disabled webhook's page", p.get(t, "/webhooks/"+id, http.StatusOK), `id="webhook-disabled"`,
		"Disabled 2 Mar 2026 09:00 UTC:</strong> the receiver answered 410 Gone", "press <strong>Turn on</strong>", "replay from the seq",
		`name="active" value="true"`, "<td>disabled</td>", "<td>410</td>")
	contains(t, "the list", p.get(t, "/webhooks", http.StatusOK), `<span class="blocked">disabled</span> <span class="muted">the receiver answered 410 Gone`)
	to := p.seeOther(t, "/webhooks/"+id+"/active", url.Values{"active": {"true"}})
	if page := p.get(t, to, http.StatusOK); strings.Contains(page, `id="webhook-disabled"`) {
		t.Fatalf("turned on, the page still says disabled:\n%s", page)
	}
}
