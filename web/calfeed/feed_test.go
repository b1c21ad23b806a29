package calfeed_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"tend/store/storetest"
	"tend/web/webtest"
	"tend/web/wire"
)

func TestCalendarFeedEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	day := storetest.Epoch.AddDate(0, 0, 3)
	allDay := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Pay rent; call, bank\\now",
		"description": "line one\nline two", "due_at": time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC).Format(time.RFC3339),
		"due_is_all_day": true, "tags": []string{"home", "money"}, "assignee": "admin"})
	timed := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "Standup",
		"due_at": day.Add(5 * time.Hour).Format(time.RFC3339), "starts_at": day.Add(4 * time.Hour).Format(time.RFC3339), "assignee": "admin"})
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "undated", "assignee": "admin"})
	url, _ := e.Calendar(e.Admin, map[string]any{"title": "Mine", "audience": "me"})

	f := e.FetchFeed(url, nil)
	if f.Status != http.StatusOK {
		t.Fatalf("status %d\n%s", f.Status, f.Body)
	}
	for prop, want := range map[string]string{ical.PropVersion: "2.0", ical.PropCalendarScale: "GREGORIAN", ical.PropMethod: "PUBLISH",
		"X-WR-CALNAME": "Mine", ical.PropName: "Mine", "X-PUBLISHED-TTL": "PT1H", ical.PropRefreshInterval: "PT1H"} {
		if p := f.Cal.Props.Get(prop); p == nil || p.Value != want {
			t.Errorf("calendar %s = %v, want %q", prop, p, want)
		}
	}
	if p := f.Cal.Props.Get(ical.PropRefreshInterval); p.Params.Get(ical.ParamValue) != "DURATION" {
		t.Errorf("REFRESH-INTERVAL needs VALUE=DURATION: %v", p.Params)
	}
	evs := events(t, f.Cal)
	if len(evs) != 2 {
		t.Fatalf("%d events, want 2 (undated work is not in a feed)\n%s", len(evs), f.Body)
	}
	a := evs[allDay["id"].(string)+"@tend"]
	if got := text(t, a, ical.PropSummary); got != "Pay rent; call, bank\\now" {
		t.Errorf("SUMMARY %q", got)
	}
	if got := text(t, a, ical.PropDescription); got != "#"+strconv.Itoa(int(allDay["ref"].(float64)))+" in inbox · To do\n\nline one\nline two" {
		t.Errorf("DESCRIPTION %q", got)
	}
	if p := a.Props.Get(ical.PropDateTimeStart); p.Value != day.Format("20060102") || p.Params.Get(ical.ParamValue) != "DATE" {
		t.Errorf("all-day DTSTART %v %v", p.Value, p.Params)
	}
	if p := a.Props.Get(ical.PropDateTimeEnd); p.Value != day.AddDate(0, 0, 1).Format("20060102") {
		t.Errorf("all-day DTEND %v", p.Value)
	}
	if cats, _ := a.Props.Get(ical.PropCategories).TextList(); strings.Join(cats, "|") != "home|money" {
		t.Errorf("CATEGORIES %v", cats)
	}
	if st, _ := a.Status(); st != ical.EventConfirmed {
		t.Errorf("STATUS %v", st)
	}
	if got := a.Props.Get(ical.PropSequence).Value; got != "1" {
		t.Errorf("SEQUENCE %s", got)
	}
	if got, _ := a.Props.DateTime(ical.PropLastModified, nil); !got.Equal(storetest.Epoch) {
		t.Errorf("LAST-MODIFIED %v", got)
	}
	if a.Props.Get(ical.PropURL) != nil {
		t.Errorf("no URL without public_url")
	}
	m := evs[timed["id"].(string)+"@tend"]
	if got, _ := m.DateTimeStart(nil); !got.Equal(day.Add(4*time.Hour)) || !strings.HasSuffix(m.Props.Get(ical.PropDateTimeStart).Value, "Z") {
		t.Errorf("timed DTSTART %v, want the UTC instant of starts_at", m.Props.Get(ical.PropDateTimeStart).Value)
	}
	if got, _ := m.DateTimeEnd(nil); !got.Equal(day.Add(5 * time.Hour)) {
		t.Errorf("timed DTEND %v, want the due instant", got)
	}

	// A change grows SEQUENCE and LAST-MODIFIED and moves the ETag.
	etag := f.Header.Get("ETag")
	if etag == "" || f.Header.Get("Last-Modified") == "" {
		t.Fatalf("a feed carries ETag and Last-Modified: %v", f.Header)
	}
	e.Clock.Advance(time.Hour)
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+allDay["id"].(string), e.Admin, map[string]any{"title": "Pay rent"})
	g := e.FetchFeed(url, map[string]string{"If-None-Match": etag})
	if g.Status != http.StatusOK || g.Header.Get("ETag") == etag {
		t.Fatalf("a changed task must change the feed: %d %s", g.Status, g.Header.Get("ETag"))
	}
	a2 := events(t, g.Cal)[allDay["id"].(string)+"@tend"]
	if a2.Props.Get(ical.PropSequence).Value != "2" {
		t.Errorf("SEQUENCE after a change %s, want 2", a2.Props.Get(ical.PropSequence).Value)
	}
	if got, _ := a2.Props.DateTime(ical.PropLastModified, nil); !got.Equal(storetest.Epoch.Add(time.Hour)) {
		t.Errorf("LAST-MODIFIED after a change %v", got)
	}
}

func TestCalendarConditionalAndPolled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, map[string]any{"title": "x", "due_at": storetest.Epoch.Add(48 * time.Hour).Format(time.RFC3339), "assignee": "admin"})
	url, c := e.Calendar(e.Admin, map[string]any{"audience": "me"})
	f := e.FetchFeed(url, nil)
	etag, lm := f.Header.Get("ETag"), f.Header.Get("Last-Modified")
	for name, h := range map[string]map[string]string{"etag": {"If-None-Match": etag}, "weak list": {"If-None-Match": `"x", W/` + etag},
		"date": {"If-Modified-Since": lm}} {
		r := e.FetchFeed(url, h)
		if r.Status != http.StatusNotModified || len(r.Body) != 0 || r.Header.Get("ETag") != etag {
			t.Errorf("%s: status %d, want 304 with the ETag and no body", name, r.Status)
		}
	}
	if r := e.FetchFeed(url, map[string]string{"If-Modified-Since": storetest.Epoch.Add(-time.Hour).Format(http.TimeFormat)}); r.Status != http.StatusOK {
		t.Errorf("an older If-Modified-Since gets the feed, got %d", r.Status)
	}
	list := e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", e.Admin, nil)["items"].([]any)
	got := list[0].(map[string]any)
	if got["last_polled_at"] != wire.Stamp(storetest.Epoch) || got["id"] != c["id"] {
		t.Errorf("last_polled_at %v", got["last_polled_at"])
	}
	if _, has := got["url"]; has || strings.Contains(string(e.Do(http.MethodGet, "/v1/calendars", e.Admin, nil).Body), strings.TrimSuffix(url[strings.LastIndex(url, "/")+1:], ".ics")) {
		t.Errorf("a listing never carries the URL or the secret: %v", got)
	}
	e.Clock.Advance(30 * time.Second)
	e.FetchFeed(url, nil)
	if p := e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", e.Admin, nil)["items"].([]any)[0].(map[string]any)["last_polled_at"]; p != wire.Stamp(storetest.Epoch) {
		t.Errorf("last_polled_at moved within a minute: %v", p)
	}
	e.Clock.Advance(31 * time.Second)
	e.FetchFeed(url, nil)
	if p := e.OK(http.StatusOK, http.MethodGet, "/v1/calendars", e.Admin, nil)["items"].([]any)[0].(map[string]any)["last_polled_at"]; p != wire.Stamp(storetest.Epoch.Add(61*time.Second)) {
		t.Errorf("last_polled_at after a minute: %v", p)
	}
	if strings.Contains(e.LogText(), url[strings.LastIndex(url, "/")+1:]) {
		t.Errorf("the access log holds the feed secret:\n%s", e.LogText())
	}
}

func TestCalendarRevokeResetDeactivate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pat := e.Member("pat", "member")
	task := e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", pat, map[string]any{"title": "x", "due_at": storetest.Epoch.Add(48 * time.Hour).Format(time.RFC3339), "assignee": "pat"})
	url, c := e.Calendar(pat, map[string]any{"audience": "me"})
	uid := task["id"].(string) + "@tend"
	wrong := e.FetchFeed(url[:len(url)-6]+"xx.ics", nil)
	unknown := e.FetchFeed(e.Srv.URL+"/v1/calendars/tend_aaaaaaaaaa/tend_aaaaaaaaaa_"+strings.Repeat("a", 40)+".ics", nil)
	webtest.AssertProblem(t, wrong.Response, http.StatusNotFound, "not_found")
	if string(wrong.Body) != strings.Replace(string(unknown.Body), "tend_aaaaaaaaaa", c["prefix"].(string), -1) {
		t.Errorf("a wrong secret and an unknown prefix must answer alike:\n%s\n%s", wrong.Body, unknown.Body)
	}

	// Reset: a new URL, the old one 404 at once, the same UIDs.
	reset := e.OK(http.StatusOK, http.MethodPost, "/v1/calendars/"+c["prefix"].(string)+"/reset", pat, nil)
	newURL := reset["url"].(string)
	if newURL == url || reset["id"] != c["id"] {
		t.Fatalf("reset must issue a new URL for the same feed")
	}
	webtest.AssertProblem(t, e.FetchFeed(url, nil).Response, http.StatusNotFound, "not_found")
	f := e.FetchFeed(newURL, nil)
	if _, ok := events(t, f.Cal)[uid]; !ok {
		t.Fatalf("the event's UID must survive a reset")
	}

	// Deactivating the owner stops the feed; reactivating brings it back.
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/pat", e.Admin, map[string]any{"active": false})
	webtest.AssertProblem(t, e.FetchFeed(newURL, nil).Response, http.StatusNotFound, "not_found")
	e.OK(http.StatusOK, http.MethodPatch, "/v1/users/pat", e.Admin, map[string]any{"active": true})
	if r := e.FetchFeed(newURL, nil); r.Status != http.StatusOK {
		t.Fatalf("reactivated owner's feed: %d", r.Status)
	}

	// Revocation: immediate, idempotent, the first time kept.
	first := e.OK(http.StatusOK, http.MethodDelete, "/v1/calendars/"+c["id"].(string), pat, nil)
	if first["usable"] != false || first["revoked_at"] == nil {
		t.Fatalf("revoked feed: %v", first)
	}
	e.Clock.Advance(time.Minute)
	again := e.OK(http.StatusOK, http.MethodDelete, "/v1/calendars/"+c["prefix"].(string), pat, nil)
	if again["revoked_at"] != first["revoked_at"] {
		t.Errorf("second revocation moved revoked_at: %v -> %v", first["revoked_at"], again["revoked_at"])
	}
	webtest.AssertProblem(t, e.FetchFeed(newURL, nil).Response, http.StatusNotFound, "not_found")
	e.Problem(http.StatusConflict, "calendar_unusable", http.MethodPost, "/v1/calendars/"+c["id"].(string)+"/reset", pat, nil)

	// Expiry.
	exp := storetest.Epoch.Add(2 * time.Hour)
	url2, _ := e.Calendar(pat, map[string]any{"expires_at": exp.Format(time.RFC3339)})
	if r := e.FetchFeed(url2, nil); r.Status != http.StatusOK {
		t.Fatalf("feed before expiry: %d", r.Status)
	}
	e.Clock.Set(exp)
	webtest.AssertProblem(t, e.FetchFeed(url2, nil).Response, http.StatusNotFound, "not_found")
}
