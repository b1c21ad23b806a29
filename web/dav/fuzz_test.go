package dav

import (
	"testing"
	"time"

	"tend/app"
)

// FuzzDecodeObject: no body a client sends panics the VTODO reader, and
// what it keeps is written back by the writer without an error.
func FuzzDecodeObject(f *testing.F) {
	f.Add([]byte("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:a\r\nDTSTAMP:20261201T100000Z\r\nSUMMARY:a\r\n" +
		"DUE;TZID=Europe/Berlin:20261210T090000\r\nPRIORITY:3\r\nCATEGORIES:x,y\r\nRELATED-TO:b\r\nX-APPLE-SORT-ORDER:1\r\n" +
		"BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"))
	f.Add([]byte("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nRECURRENCE-ID:20261201\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"))
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, body []byte) {
		in, err := decodeObject(body)
		if err != nil {
			return
		}
		o := app.DavObject{Task: app.Task{Title: in.Title, Version: 1, UpdatedAt: time.Unix(0, 0), CreatedAt: time.Unix(0, 0)},
			DavRecord: app.DavRecord{UID: in.UID, ParentUID: in.ParentUID, Extra: in.Extra}}
		if _, err := encodeObject(o, "", "test"); err != nil && in.UID != "" {
			t.Fatalf("what the reader kept does not write back: %v\n%q", err, in.Extra)
		}
	})
}

// FuzzDecodeXML: no PROPFIND or REPORT body panics the XML reader.
func FuzzDecodeXML(f *testing.F) {
	f.Add([]byte(`<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>`))
	f.Add([]byte(`<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><c:filter><c:comp-filter name="VCALENDAR">` +
		`<c:comp-filter name="VTODO"><c:prop-filter name="STATUS"><c:text-match negate-condition="yes">CANCELLED</c:text-match>` +
		`</c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var q reportRequest
		if decodeXML(body, &q) == nil {
			q.propRequest.pick(nil)
		}
	})
}
