package webtest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-ical"
)

// FeedResponse is a fetched feed: the answer and, for a 200, the calendar
// decoded with go-ical's reader (not the writer's code path).
type FeedResponse struct {
	Response
	Cal *ical.Calendar
}

// FetchFeed GETs a feed URL with no credential and the given headers.
func (e *Env) FetchFeed(url string, headers map[string]string) FeedResponse {
	e.T.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		e.T.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	out := FeedResponse{Response: e.Send(req)}
	if b := out.Body; out.Status == http.StatusOK {
		if ct := out.Header.Get("Content-Type"); ct != "text/calendar; charset=utf-8" {
			e.T.Fatalf("Content-Type %q", ct)
		}
		checkFolded(e.T, b)
		cal, err := ical.NewDecoder(bytes.NewReader(b)).Decode()
		if err != nil {
			e.T.Fatalf("go-ical cannot read the feed: %v\n%s", err, b)
		}
		out.Cal = cal
	}
	return out
}

// Calendar creates a feed with body through the API and returns its URL and record.
func (e *Env) Calendar(token string, body map[string]any) (string, map[string]any) {
	e.T.Helper()
	c := e.OK(http.StatusCreated, http.MethodPost, "/v1/calendars", token, body)
	url, _ := c["url"].(string)
	if !strings.HasPrefix(url, e.Srv.URL+"/v1/calendars/"+c["prefix"].(string)+"/"+c["prefix"].(string)+"_") || !strings.HasSuffix(url, ".ics") {
		e.T.Fatalf("feed url %q does not have the documented shape", url)
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
