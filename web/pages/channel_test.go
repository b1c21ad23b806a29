package pages_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/notify"
	"tend/web/webtest"
)

// TestNotificationsSection walks the Account page's Notifications section:
// no channel yet, adding an ntfy topic, a test that fails at the receiver
// shown with its reason under "Not sent" and on the channel, and removing
// it. The place the browser's subscribe button goes is there.
func TestNotificationsSection(t *testing.T) {
	t.Parallel()
	allow := storetest.Loopback(t)
	e := &env{webtest.NewWith(t, app.Options{Version: "test", Outbound: allow})}
	p := signedIn(e)
	worker := notify.New(e.Svc, notify.Options{Outbound: allow})
	ntfy := webtest.NewNtfy(t, "")
	ntfy.Answer(http.StatusForbidden)

	contains(t, "Account, no channel", p.get(t, "/account", http.StatusOK), `id="notifications"`, `id="no-channels"`, `<div id="push-slot"></div>`)
	to := p.seeOther(t, "/account/channels", url.Values{"url": {ntfy.URL + "/phone"}, "name": {"phone"}, "token": {"tk_page"}})
	page := p.get(t, to, http.StatusOK)
	contains(t, "Account, a channel", page, ntfy.URL+"/phone", "nothing sent yet")
	id := regexp.MustCompile(`action="/account/channels/([^/]+)/test"`).FindStringSubmatch(page)[1]

	contains(t, "after a test", p.get(t, p.seeOther(t, "/account/channels/"+id+"/test", url.Values{}), http.StatusOK), "A test notification is on its way")
	for _, d := range append([]time.Duration{0}, app.NotifyRetries...) {
		e.Clock.Advance(d)
		if _, err := worker.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	contains(t, "after the test failed", p.get(t, "/account", http.StatusOK), "failing: the receiver answered HTTP 403", `id="failed-h"`,
		"tend: a test notification")

	contains(t, "after the removal", p.get(t, p.seeOther(t, "/account/channels/"+id+"/remove", url.Values{}), http.StatusOK), `id="no-channels"`)
	p.sameRefusal(t, "/account/channels/"+id+"/test", url.Values{}, e.Admin, http.MethodPost, "/v1/me/channels/"+id+"/test", nil)
}

// TestDigestForm: the Notifications section sets the daily digest time,
// shows it, and an empty time turns it off.
func TestDigestForm(t *testing.T) {
	t.Parallel()
	e := &env{webtest.New(t)}
	p := signedIn(e)
	contains(t, "digest off", p.get(t, "/account", http.StatusOK), `name="digest_time" type="time" value=""`)
	contains(t, "digest set", p.get(t, p.seeOther(t, "/account/digest", url.Values{"digest_time": {"07:30"}}), http.StatusOK),
		`name="digest_time" type="time" value="07:30"`)
	contains(t, "digest off again", p.get(t, p.seeOther(t, "/account/digest", url.Values{"digest_time": {""}}), http.StatusOK),
		`name="digest_time" type="time" value=""`)
}
