package dav

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
)

// The namespaces tend answers in, by the prefix its responses give them.
const (
	nsDAV    = "DAV:"
	nsCalDAV = "urn:ietf:params:xml:ns:caldav"
	nsCS     = "http://calendarserver.org/ns/"
	nsApple  = "http://apple.com/ns/ical/"
	nsTend   = "tag:tend,2026:dav"
)

var prefixes = map[string]string{nsDAV: "d", nsCalDAV: "c", nsCS: "cs", nsApple: "ic", nsTend: "t"}

const xmlns = `xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/" xmlns:t="tag:tend,2026:dav"`

// esc is s escaped for XML text.
func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// writeError writes a DAV:error body: the precondition broken, if any
// (written with its prefix, such as "c:no-uid-conflict"), and a message.
func writeError(w http.ResponseWriter, status int, cond, msg string) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n<d:error " + xmlns + ">")
	if cond != "" {
		b.WriteString("<" + cond + "/>")
	}
	b.WriteString("<t:message>" + esc(msg) + "</t:message></d:error>\n")
	_, _ = w.Write([]byte(b.String()))
}

// prop is one property of a resource: its name and its value as XML.
type prop struct {
	name  xml.Name
	value string
}

// tag is the element a property name is written as, with a namespace
// declaration when tend gives its namespace no prefix.
func tag(n xml.Name) (open, close string) {
	if p, ok := prefixes[n.Space]; ok {
		return "<" + p + ":" + n.Local, "</" + p + ":" + n.Local + ">"
	}
	if n.Space == "" {
		return "<" + n.Local, "</" + n.Local + ">"
	}
	return "<x:" + n.Local + ` xmlns:x="` + esc(n.Space) + `"`, "</x:" + n.Local + ">"
}

// multistatus builds a 207 body. A streaming one (streamMultistatus)
// sends it in pieces as it grows, so that a report of 10,000 objects is
// never held whole nor copied as it grows.
type multistatus struct {
	b    bytes.Buffer        // a bytes.Buffer keeps its array when a piece is sent
	w    http.ResponseWriter // where a streaming one sends; nil otherwise
	sent bool                // whether a piece has gone: the status is sent
}

// streamChunk is how much of a streaming multistatus is held before it is
// sent: the first piece goes only once there is this much, so a report
// that fails early still answers with its problem.
const streamChunk = 256 << 10

func streamMultistatus(w http.ResponseWriter) *multistatus {
	m := newMultistatus()
	m.w = w
	return m
}

// abort is what a streaming report does with an error: before the first
// piece went, it is answered as any error is; after, the status and part
// of the body are on their way, so the connection is cut rather than
// ended as if the body were whole.
func (m *multistatus) abort(err error) error {
	if m.sent {
		panic(http.ErrAbortHandler)
	}
	return err
}

func (m *multistatus) send(w http.ResponseWriter) {
	if !m.sent {
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.WriteHeader(http.StatusMultiStatus)
		m.sent = true
	}
	_, _ = w.Write(m.b.Bytes())
	m.b.Reset()
}

func newMultistatus() *multistatus {
	m := &multistatus{}
	m.b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n<d:multistatus " + xmlns + ">")
	return m
}

// response adds a resource's properties: those found with 200, the names
// asked for and missing with 404.
func (m *multistatus) response(href string, found []prop, missing []xml.Name) {
	m.b.WriteString("<d:response><d:href>" + esc(href) + "</d:href>")
	if len(found) > 0 || len(missing) == 0 {
		m.b.WriteString("<d:propstat><d:prop>")
		for _, p := range found {
			open, end := tag(p.name)
			if p.value == "" {
				m.b.WriteString(open + "/>")
				continue
			}
			// Written in parts: calendar-data is a whole object, not to
			// be copied once more into a joined string.
			m.b.WriteString(open)
			m.b.WriteByte('>')
			m.b.WriteString(p.value)
			m.b.WriteString(end)
		}
		m.b.WriteString("</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>")
	}
	if len(missing) > 0 {
		m.b.WriteString("<d:propstat><d:prop>")
		for _, n := range missing {
			open, _ := tag(n)
			m.b.WriteString(open + "/>")
		}
		m.b.WriteString("</d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>")
	}
	m.b.WriteString("</d:response>")
	if m.w != nil && m.b.Len() >= streamChunk {
		m.send(m.w)
	}
}

// gone adds a member that is not there (a multiget's unknown href).
func (m *multistatus) gone(href string) {
	m.b.WriteString("<d:response><d:href>" + esc(href) + "</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>")
}

// propStatus is the status of some properties in a PROPPATCH's answer,
// with the precondition broken and a sentence, if any.
type propStatus struct {
	names  []xml.Name
	status int
	cond   string
	msg    string
}

// patched adds a resource's PROPPATCH statuses.
func (m *multistatus) patched(href string, sts ...propStatus) {
	m.b.WriteString("<d:response><d:href>" + esc(href) + "</d:href>")
	for _, st := range sts {
		if len(st.names) == 0 {
			continue
		}
		m.b.WriteString("<d:propstat><d:prop>")
		for _, n := range st.names {
			open, _ := tag(n)
			m.b.WriteString(open + "/>")
		}
		m.b.WriteString(fmt.Sprintf("</d:prop><d:status>HTTP/1.1 %d %s</d:status>", st.status, http.StatusText(st.status)))
		if st.cond != "" {
			m.b.WriteString("<d:error><" + st.cond + "/></d:error>")
		}
		if st.msg != "" {
			m.b.WriteString("<d:responsedescription>" + esc(st.msg) + "</d:responsedescription>")
		}
		m.b.WriteString("</d:propstat>")
	}
	m.b.WriteString("</d:response>")
}

func (m *multistatus) write(w http.ResponseWriter) {
	m.b.WriteString("</d:multistatus>\n")
	m.send(w)
}

// anyElem is an element of any name, its content kept.
type anyElem struct {
	XMLName xml.Name
	Inner   []byte     `xml:",innerxml"`
	Attrs   []xml.Attr `xml:",any,attr"`
}

// propRequest is what a PROPFIND or REPORT asks of each resource: every
// property (allprop, or an empty body), their names (propname), or those
// named.
type propRequest struct {
	AllProp  *struct{} `xml:"DAV: allprop"`
	PropName *struct{} `xml:"DAV: propname"`
	Prop     *struct {
		Names []anyElem `xml:",any"`
	} `xml:"DAV: prop"`
}

// pick answers a request from the properties a resource has.
func (q propRequest) pick(all []prop) (found []prop, missing []xml.Name) {
	switch {
	case q.Prop == nil && q.PropName != nil:
		for _, p := range all {
			found = append(found, prop{name: p.name})
		}
		return found, nil
	case q.Prop == nil:
		for _, p := range all {
			if p.name != calendarData {
				found = append(found, p)
			}
		}
		return found, nil
	}
	for _, n := range q.Prop.Names {
		ok := false
		for _, p := range all {
			if p.name == n.XMLName {
				found, ok = append(found, p), true
				break
			}
		}
		if !ok {
			missing = append(missing, n.XMLName)
		}
	}
	return found, missing
}

// wants reports whether a request asks for the property named.
func (q propRequest) wants(n xml.Name) bool {
	if q.Prop == nil {
		return false
	}
	for _, e := range q.Prop.Names {
		if e.XMLName == n {
			return true
		}
	}
	return false
}

// decodeXML reads a request body into v; an empty body leaves v as it is.
// Entities and DTDs are refused by encoding/xml, so an XML bomb is not read.
func decodeXML(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if err := xml.Unmarshal(b, v); err != nil {
		return badRequest("the XML body does not parse: %s", strings.TrimPrefix(err.Error(), "xml: "))
	}
	return nil
}

func href(s string) string { return `<d:href>` + esc(s) + `</d:href>` }

func name(space, local string) xml.Name { return xml.Name{Space: space, Local: local} }

var (
	calendarData = name(nsCalDAV, "calendar-data")
	getETag      = name(nsDAV, "getetag")
)

// syncTokenPrefix begins every sync-token: an absolute URI (RFC 6578
// §6.2) ending in the seq of the collection's newest event.
const syncTokenPrefix = "tag:tend,2026:sync/"

func fmtSyncToken(seq int64) string { return fmt.Sprintf("%s%d", syncTokenPrefix, seq) }
