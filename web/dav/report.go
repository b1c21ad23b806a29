package dav

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-ical"

	"tend/app"
)

// reportRequest is a calendar-multiget or calendar-query (RFC 4791 §7.8,
// §7.9): the properties asked for, the hrefs or the filter.
type reportRequest struct {
	XMLName xml.Name
	propRequest
	Hrefs     []string `xml:"DAV: href"`
	SyncToken *string  `xml:"DAV: sync-token"`
	SyncLevel string   `xml:"DAV: sync-level"`
	Limit     *struct {
		NResults string `xml:"DAV: nresults"`
	} `xml:"DAV: limit"`
	Filter *compFilter `xml:"urn:ietf:params:xml:ns:caldav filter>comp-filter"`
}

// compFilter is a comp-filter: a component by name, with what its
// properties and subcomponents must be.
type compFilter struct {
	Name         string       `xml:"name,attr"`
	IsNotDefined *struct{}    `xml:"urn:ietf:params:xml:ns:caldav is-not-defined"`
	TimeRange    *timeRange   `xml:"urn:ietf:params:xml:ns:caldav time-range"`
	Props        []propFilter `xml:"urn:ietf:params:xml:ns:caldav prop-filter"`
	Comps        []compFilter `xml:"urn:ietf:params:xml:ns:caldav comp-filter"`
}

type propFilter struct {
	Name         string     `xml:"name,attr"`
	IsNotDefined *struct{}  `xml:"urn:ietf:params:xml:ns:caldav is-not-defined"`
	TimeRange    *timeRange `xml:"urn:ietf:params:xml:ns:caldav time-range"`
	TextMatch    *struct {
		Text   string `xml:",chardata"`
		Negate string `xml:"negate-condition,attr"`
	} `xml:"urn:ietf:params:xml:ns:caldav text-match"`
}

type timeRange struct {
	Start string `xml:"start,attr"`
	End   string `xml:"end,attr"`
}

// report answers REPORT calendar-multiget and calendar-query on a
// collection; any other report is refused with DAV:supported-report.
func (h *Handler) report(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	var q reportRequest
	if err := h.readXML(w, r, &q); err != nil {
		return err
	}
	if t.kind == "collection" && q.XMLName == name(nsDAV, "sync-collection") {
		return h.syncCollection(w, r, a, t, q)
	}
	if t.kind != "collection" || q.XMLName.Space != nsCalDAV || (q.XMLName.Local != "calendar-multiget" && q.XMLName.Local != "calendar-query") {
		return refuse("d:supported-report", "a collection answers calendar-query, calendar-multiget and sync-collection reports")
	}
	var names []string
	wanted := map[string]bool{}
	if q.XMLName.Local == "calendar-multiget" {
		names = []string{}
		for _, hr := range q.Hrefs {
			if u, err := url.Parse(strings.TrimSpace(hr)); err == nil {
				names = append(names, path.Base(u.Path))
				wanted[path.Base(u.Path)] = true
			}
		}
	}
	c, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, names)
	if err != nil {
		return err
	}
	m := streamMultistatus(w)
	for _, o := range objs {
		delete(wanted, o.Name)
		if q.Filter != nil && !namesOnly(*q.Filter) {
			ok, err := h.matches(o, *q.Filter)
			if err != nil {
				return m.abort(err)
			}
			if !ok {
				continue
			}
		}
		if err := h.objectResponse(m, q.propRequest, c, o); err != nil {
			return m.abort(err)
		}
	}
	for _, hr := range q.Hrefs {
		if u, err := url.Parse(strings.TrimSpace(hr)); err == nil && wanted[path.Base(u.Path)] {
			m.gone(strings.TrimSpace(hr))
		}
	}
	m.write(w)
	return nil
}

// matches tests an object against a query's filter, on the VTODO a GET
// answers, so that a filter reads what the client reads.
func (h *Handler) matches(o app.DavObject, f compFilter) (bool, error) {
	body, err := encodeObject(o, h.svc.PublicURL(), h.svc.Version())
	if err != nil {
		return false, err
	}
	cal, err := parseCalendar(body)
	if err != nil {
		return false, err
	}
	return compMatches(cal.Component, f), nil
}

// namesOnly reports whether a filter only names components (VCALENDAR, and
// VTODO in it), as a client asking for every task sends: each object of a
// task collection matches it, without being read back.
func namesOnly(f compFilter) bool {
	if f.IsNotDefined != nil || f.TimeRange != nil || len(f.Props) > 0 {
		return false
	}
	for _, c := range f.Comps {
		if !strings.EqualFold(c.Name, "VTODO") || !namesOnly(c) {
			return false
		}
	}
	return strings.EqualFold(f.Name, "VCALENDAR") || strings.EqualFold(f.Name, "VTODO")
}

func compMatches(c *ical.Component, f compFilter) bool {
	if c == nil || !strings.EqualFold(c.Name, f.Name) {
		return f.IsNotDefined != nil
	}
	if f.IsNotDefined != nil {
		return false
	}
	if f.TimeRange != nil && !inRange(c, *f.TimeRange) {
		return false
	}
	for _, pf := range f.Props {
		if !propMatches(c, pf) {
			return false
		}
	}
	for _, cf := range f.Comps {
		ok := cf.IsNotDefined != nil
		for _, child := range c.Children {
			if strings.EqualFold(child.Name, cf.Name) {
				ok = compMatches(child, cf)
				if ok {
					break
				}
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func propMatches(c *ical.Component, f propFilter) bool {
	p := c.Props.Get(strings.ToUpper(f.Name))
	switch {
	case f.IsNotDefined != nil:
		return p == nil
	case p == nil:
		return false
	case f.TextMatch != nil:
		has := strings.Contains(strings.ToLower(p.Value), strings.ToLower(strings.TrimSpace(f.TextMatch.Text)))
		return has != (f.TextMatch.Negate == "yes")
	case f.TimeRange != nil:
		at, err := p.DateTime(time.UTC)
		return err == nil && within(at, at, *f.TimeRange)
	}
	return true
}

// inRange is RFC 4791 §9.9's test of a VTODO against a time range, read
// from its DTSTART and DUE (a task with neither matches any range).
func inRange(c *ical.Component, r timeRange) bool {
	start, errS := c.Props.DateTime(ical.PropDateTimeStart, time.UTC)
	due, errD := c.Props.DateTime(ical.PropDue, time.UTC)
	hasStart, hasDue := errS == nil && c.Props.Get(ical.PropDateTimeStart) != nil, errD == nil && c.Props.Get(ical.PropDue) != nil
	switch {
	case hasStart && hasDue:
		return within(start, due, r)
	case hasStart:
		return within(start, start, r)
	case hasDue:
		return within(due, due, r)
	}
	return true
}

// within reports whether [from, to] overlaps the range; an open end is
// unbounded.
func within(from, to time.Time, r timeRange) bool {
	if s, err := time.Parse("20060102T150405Z", r.Start); err == nil && to.Before(s) {
		return false
	}
	if e, err := time.Parse("20060102T150405Z", r.End); err == nil && !from.Before(e) {
		return false
	}
	return true
}

// syncCollection answers RFC 6578's sync-collection at sync-level 1: what
// changed in the collection after the token (everything without one), the
// objects gone as 404 members, and the token to send next time.
func (h *Handler) syncCollection(w http.ResponseWriter, r *http.Request, a app.Actor, t target, q reportRequest) error {
	if q.SyncLevel != "" && strings.TrimSpace(q.SyncLevel) != "1" {
		return refuse("d:supported-report", "sync-level 1 only: a collection holds no collections")
	}
	var since int64
	if q.SyncToken != nil && strings.TrimSpace(*q.SyncToken) != "" {
		n, err := parseSyncToken(strings.TrimSpace(*q.SyncToken))
		if err != nil {
			return err
		}
		since = n
	}
	limit := maxSyncResults
	if q.Limit != nil {
		n, err := strconv.Atoi(strings.TrimSpace(q.Limit.NResults))
		if err != nil || n < 1 {
			return badRequest("DAV:limit holds DAV:nresults, a number of at least 1")
		}
		limit = min(n, maxSyncResults)
	}
	d, err := h.svc.DavChanges(r.Context(), a, t.workspace, t.key, since, limit)
	if app.CodeOf(err) == app.CodeInvalid {
		return refuse("d:valid-sync-token", "%s", app.AsError(err).Detail)
	}
	if err != nil {
		return err
	}
	m := newMultistatus()
	for _, o := range d.Changed {
		if err := h.objectResponse(m, q.propRequest, d.Collection, o); err != nil {
			return err
		}
	}
	for _, n := range d.Gone {
		m.gone(collectionHref(d.Collection) + n)
	}
	if d.Truncated {
		// RFC 6578 §3.6: the collection itself as a 507 member says there
		// is more after the token.
		m.b.WriteString("<d:response><d:href>" + esc(collectionHref(d.Collection)) + "</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status>" +
			"<d:error><d:number-of-matches-within-limits/></d:error></d:response>")
	}
	m.b.WriteString("<d:sync-token>" + esc(fmtSyncToken(d.Token)) + "</d:sync-token>")
	m.write(w)
	return nil
}

// maxSyncResults bounds the members of one sync-collection answer, asked
// for or not: a first sync of a large list comes in parts, each one's
// token going on from where the last stopped.
const maxSyncResults = 1000

// parseSyncToken reads a token fmtSyncToken wrote.
func parseSyncToken(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(s, syncTokenPrefix), 10, 64)
	if err != nil || !strings.HasPrefix(s, syncTokenPrefix) || n < 0 {
		return 0, refuse("d:valid-sync-token", "this sync-token was not issued here; sync again without one")
	}
	return n, nil
}
