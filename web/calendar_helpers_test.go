package web_test

import (
	"bytes"
	"database/sql"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
)

// feedRes is a fetched feed: the answer and, for a 200, the calendar
// decoded with go-ical's reader (not the writer's code path).
type feedRes struct {
	response
	Cal *ical.Calendar
}

// fetchFeed GETs a feed URL with no credential and the given headers.
func (e *env) fetchFeed(url string, headers map[string]string) feedRes {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := feedRes{response: response{Status: res.StatusCode, Header: res.Header, Body: b}}
	if res.StatusCode == http.StatusOK {
		if ct := res.Header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
			e.t.Fatalf("Content-Type %q", ct)
		}
		checkFolded(e.t, b)
		cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
		if err != nil {
			e.t.Fatalf("go-ical cannot read the feed: %v\n%s", err, b)
		}
		out.Cal = cal
	}
	return out
}

// calendar creates a feed with body through the API and returns its URL and record.
func (e *env) calendar(token string, body map[string]any) (string, map[string]any) {
	e.t.Helper()
	c := e.ok(http.StatusCreated, http.MethodPost, "/v1/calendars", token, body)
	url, _ := c["url"].(string)
	if !strings.HasPrefix(url, e.srv.URL+"/v1/calendars/"+c["prefix"].(string)+"/"+c["prefix"].(string)+"_") || !strings.HasSuffix(url, ".ics") {
		e.t.Fatalf("feed url %q does not have the documented shape", url)
	}
	return url, c
}

// checkFolded asserts every content line is CRLF-terminated and at most 75 octets.
func checkFolded(t *testing.T, b []byte) {
	t.Helper()
	if !bytes.HasSuffix(b, []byte("\r\n")) {
		t.Fatalf("feed does not end in CRLF")
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\r\n"), "\r\n") {
		if len(line) > 75 {
			t.Fatalf("line of %d octets (RFC 5545 folds at 75): %q", len(line), line)
		}
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("bare CR or LF in %q", line)
		}
	}
}

// events maps the feed's VEVENTs by UID.
func events(t *testing.T, cal *ical.Calendar) map[string]ical.Event {
	t.Helper()
	out := map[string]ical.Event{}
	for _, ev := range cal.Events() {
		uid, err := ev.Props.Text(ical.PropUID)
		if err != nil || uid == "" {
			t.Fatalf("event without UID: %v", err)
		}
		if _, dup := out[uid]; dup {
			t.Fatalf("UID %s twice", uid)
		}
		out[uid] = ev
	}
	return out
}

// text reads a text property of an event, failing when absent.
func text(t *testing.T, ev ical.Event, name string) string {
	t.Helper()
	p := ev.Props.Get(name)
	if p == nil {
		t.Fatalf("event has no %s", name)
	}
	v, err := p.Text()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// rawSQL runs a statement on the test's database file, for what no API
// writes yet (issue 11's stored repeat rules).
func (e *env) rawSQL(q string, args ...any) {
	e.t.Helper()
	db, err := sql.Open("sqlite", e.db.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, args...); err != nil {
		e.t.Fatal(err)
	}
}
