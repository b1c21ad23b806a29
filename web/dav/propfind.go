package dav

import (
	"net/http"
	"net/url"
	"strconv"

	"tend/app"
)

// propfind answers PROPFIND (RFC 4918 §9.1) with Depth 0 or 1; infinity
// is read as 1, which is all a calendar home holds that a client syncs.
func (h *Handler) propfind(w http.ResponseWriter, r *http.Request, a app.Actor, t target) error {
	var q propRequest
	if err := h.readXML(w, r, &q); err != nil {
		return err
	}
	deep := r.Header.Get("Depth") != "0"
	m := newMultistatus()
	principal := principals + a.User.Username + "/"
	switch t.kind {
	case "root":
		found, missing := q.pick(h.rootProps(principal))
		m.response(r.URL.Path, found, missing)
	case "principal":
		found, missing := q.pick(h.principalProps(a, principal))
		m.response(principal, found, missing)
	case "home":
		found, missing := q.pick(homeProps(principal))
		m.response(home, found, missing)
		if deep {
			cs, err := h.svc.DavCollections(r.Context(), a)
			if err != nil {
				return err
			}
			for _, c := range cs {
				found, missing := q.pick(collectionProps(c, principal))
				m.response(collectionHref(c), found, missing)
			}
		}
	case "collection":
		var names []string
		if !deep {
			names = []string{}
		}
		c, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, names)
		if err != nil {
			return err
		}
		found, missing := q.pick(collectionProps(c, principal))
		m.response(collectionHref(c), found, missing)
		for _, o := range objs {
			if err := h.objectResponse(m, q, c, o); err != nil {
				return err
			}
		}
	case "object":
		c, objs, err := h.svc.DavObjects(r.Context(), a, t.workspace, t.key, []string{t.name})
		if err != nil {
			return err
		}
		if len(objs) == 0 {
			return app.NotFound("task")
		}
		if err := h.objectResponse(m, q, c, objs[0]); err != nil {
			return err
		}
	}
	m.write(w)
	return nil
}

// objectResponse adds an object's properties, its calendar data only when
// asked for by name.
func (h *Handler) objectResponse(m *multistatus, q propRequest, c app.DavCollection, o app.DavObject) error {
	props := objectProps(o)
	if q.wants(calendarData) {
		body, err := encodeObject(o, h.svc.PublicURL(), h.svc.Version())
		if err != nil {
			return err
		}
		props = append(props, prop{name: calendarData, value: esc(string(body))})
	}
	found, missing := q.pick(props)
	m.response(collectionHref(c)+o.Name, found, missing)
	return nil
}

// collectionHref is where a collection is for the account: at the name its
// task app chose for it, else at WORKSPACE.KEY. A request at the other
// address is answered too, with this one in the hrefs, so that the account
// sees one URL per collection. The name is kept as the app sent it,
// decoded, so it is escaped again here.
func collectionHref(c app.DavCollection) string {
	if c.Name != "" {
		return home + url.PathEscape(c.Name) + "/"
	}
	return home + c.Workspace + "." + c.Key + "/"
}

func (h *Handler) rootProps(principal string) []prop {
	return []prop{
		{name(nsDAV, "resourcetype"), "<d:collection/>"},
		{name(nsDAV, "displayname"), "tend"},
		{name(nsDAV, "current-user-principal"), href(principal)},
	}
}

func (h *Handler) principalProps(a app.Actor, principal string) []prop {
	display := a.User.DisplayName
	if display == "" {
		display = a.User.Username
	}
	return []prop{
		{name(nsDAV, "resourcetype"), "<d:principal/>"},
		{name(nsDAV, "displayname"), esc(display)},
		{name(nsDAV, "current-user-principal"), href(principal)},
		{name(nsDAV, "principal-URL"), href(principal)},
		{name(nsCalDAV, "calendar-home-set"), href(home)},
	}
}

func homeProps(principal string) []prop {
	return []prop{
		{name(nsDAV, "resourcetype"), "<d:collection/>"},
		{name(nsDAV, "displayname"), "Tasks"},
		{name(nsDAV, "current-user-principal"), href(principal)},
		{name(nsDAV, "owner"), href(principal)},
		{name(nsDAV, "current-user-privilege-set"), privileges(false)},
	}
}

func collectionProps(c app.DavCollection, principal string) []prop {
	tag := strconv.FormatInt(c.Tag, 10)
	props := []prop{
		{name(nsDAV, "resourcetype"), "<d:collection/><c:calendar/>"},
		{name(nsDAV, "displayname"), esc(c.Title)},
		{name(nsCalDAV, "supported-calendar-component-set"), `<c:comp name="VTODO"/>`},
		{name(nsDAV, "supported-report-set"), "<d:supported-report><d:report><c:calendar-query/></d:report></d:supported-report>" +
			"<d:supported-report><d:report><c:calendar-multiget/></d:report></d:supported-report>" +
			"<d:supported-report><d:report><d:sync-collection/></d:report></d:supported-report>"},
		{name(nsCS, "getctag"), esc(`"` + tag + `"`)},
		{name(nsDAV, "sync-token"), esc(fmtSyncToken(c.Tag))},
		{name(nsDAV, "current-user-privilege-set"), privileges(c.Writable)},
		{name(nsDAV, "current-user-principal"), href(principal)},
		{name(nsDAV, "owner"), href(principal)},
	}
	if c.Colour != "" {
		props = append(props, prop{name(nsApple, "calendar-color"), esc(c.Colour)})
	}
	return props
}

func objectProps(o app.DavObject) []prop {
	return []prop{
		{name(nsDAV, "resourcetype"), ""},
		{getETag, esc(o.ETag())},
		{name(nsDAV, "getcontenttype"), "text/calendar; charset=utf-8; component=VTODO"},
		{name(nsDAV, "getlastmodified"), o.Task.UpdatedAt.UTC().Format(http.TimeFormat)},
	}
}

// privileges is a current-user-privilege-set: read, and write where the
// account may change tasks.
func privileges(writable bool) string {
	out := "<d:privilege><d:read/></d:privilege><d:privilege><d:read-current-user-privilege-set/></d:privilege>"
	if writable {
		out += "<d:privilege><d:write/></d:privilege><d:privilege><d:write-content/></d:privilege>" +
			"<d:privilege><d:bind/></d:privilege><d:privilege><d:unbind/></d:privilege>"
	}
	return out
}
