package dav_test

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestDavLargeReportStreams: a calendar-query whose answer is several
// times what a streaming multistatus holds before sending a piece is one
// well-formed 207 with every object, its data whole, and the closing tag.
func TestDavLargeReportStreams(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	long := strings.Repeat("A line of notes & <marks> to keep. ", 60) // about 2 KB, escaped in the XML
	const tasks = 300
	for i := range tasks {
		f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": fmt.Sprintf("task %d", i), "project": "home", "description": long}, http.StatusCreated)
	}
	query := `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>` +
		`<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter></c:calendar-query>`
	a := f.dav("REPORT", "/dav/calendars/default.home/", f.user, f.admin, query, "Depth", "1")
	f.want(a, http.StatusMultiStatus)
	if len(a.body) < 3*256<<10 {
		t.Fatalf("the answer is %d bytes: too small to be sent in pieces", len(a.body))
	}
	var ms struct {
		Responses []struct {
			Href string `xml:"DAV: href"`
			Data string `xml:"propstat>prop>calendar-data"`
		} `xml:"DAV: response"`
	}
	if err := xml.Unmarshal([]byte(a.body), &ms); err != nil {
		t.Fatalf("the answer is not one XML document: %v", err)
	}
	if len(ms.Responses) != tasks || !strings.HasSuffix(a.body, "</d:multistatus>\n") {
		t.Fatalf("%d responses, want %d, and the closing tag", len(ms.Responses), tasks)
	}
	for _, r := range ms.Responses {
		if !strings.Contains(strings.ReplaceAll(r.Data, "\r\n ", ""), "DESCRIPTION:"+strings.TrimSpace(long)) {
			t.Fatalf("%s: the data lacks its whole description:\n%.300s", r.Href, r.Data)
		}
	}
}
