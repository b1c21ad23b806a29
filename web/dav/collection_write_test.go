package dav_test

import (
	"net/http"
	"strings"
	"testing"
)

func propertyUpdate(set ...string) string {
	return `<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop>` +
		strings.Join(set, "") + `</d:prop></d:set></d:propertyupdate>`
}

// TestDavProppatch: displayname and calendar-color rename and recolour a
// collection's project as the API's PATCH does; any other property is
// refused (403) and makes the rest fail (424) with nothing changed; a
// reader may change nothing; other resources refuse every property.
func TestDavProppatch(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"

	f.want(f.dav("PROPPATCH", col, f.user, f.admin, propertyUpdate(`<d:displayname>House &amp; garden</d:displayname>`, `<ic:calendar-color>#FF2968FF</ic:calendar-color>`)),
		http.StatusMultiStatus, "<d:displayname/><ic:calendar-color/></d:prop><d:status>HTTP/1.1 200 OK</d:status>")
	p := f.api(http.MethodGet, "/v1/projects/home", f.admin, nil, http.StatusOK)
	if p["title"] != "House & garden" || !strings.EqualFold(p["colour"].(string), "#ff2968") {
		t.Fatalf("after PROPPATCH: %v %v", p["title"], p["colour"])
	}
	f.want(f.dav("PROPFIND", col, f.user, f.admin, "", "Depth", "0"), http.StatusMultiStatus, "<d:displayname>House &amp; garden</d:displayname>")

	mixed := f.dav("PROPPATCH", col, f.user, f.admin, propertyUpdate(`<d:displayname>Other</d:displayname>`, `<c:calendar-timezone>x</c:calendar-timezone>`))
	f.want(mixed, http.StatusMultiStatus, "<c:calendar-timezone/></d:prop><d:status>HTTP/1.1 403 Forbidden</d:status><d:error><d:cannot-modify-protected-property/></d:error>",
		"<d:displayname/></d:prop><d:status>HTTP/1.1 424 Failed Dependency</d:status>")
	if f.api(http.MethodGet, "/v1/projects/home", f.admin, nil, http.StatusOK)["title"] != "House & garden" {
		t.Fatal("a refused PROPPATCH changed the title")
	}
	f.want(f.dav("PROPPATCH", col, f.user, f.admin, propertyUpdate(`<ic:calendar-color>red</ic:calendar-color>`)),
		http.StatusMultiStatus, "<d:status>HTTP/1.1 409 Conflict</d:status><d:responsedescription>validation: ")
	remove := `<d:propertyupdate xmlns:d="DAV:" xmlns:ic="http://apple.com/ns/ical/"><d:remove><d:prop><ic:calendar-color/></d:prop></d:remove></d:propertyupdate>`
	f.want(f.dav("PROPPATCH", col, f.user, f.admin, remove), http.StatusMultiStatus, "HTTP/1.1 200 OK")
	if c := f.api(http.MethodGet, "/v1/projects/home", f.admin, nil, http.StatusOK)["colour"]; c != nil && c != "" {
		t.Fatalf("colour after remove: %v", c)
	}

	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)
	vera := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "vera", "role": "viewer"}, http.StatusCreated)
	f.want(f.dav("PROPPATCH", col, "vera", vera, propertyUpdate(`<d:displayname>Mine</d:displayname>`)), http.StatusForbidden, "<t:message>forbidden: ")

	f.want(f.dav(http.MethodPut, col+"a.ics", f.user, f.admin, vtodo("a", "SUMMARY:a")), http.StatusCreated)
	for _, path := range []string{"/dav/", "/dav/principals/" + f.user + "/", "/dav/calendars/", col + "a.ics"} {
		f.want(f.dav("PROPPATCH", path, f.user, f.admin, propertyUpdate(`<d:displayname>x</d:displayname>`)), http.StatusMultiStatus,
			"<d:displayname/></d:prop><d:status>HTTP/1.1 403 Forbidden</d:status>")
	}
	f.want(f.dav("PROPPATCH", col+"nothing.ics", f.user, f.admin, propertyUpdate(`<d:displayname>x</d:displayname>`)), http.StatusNotFound)
	f.want(f.dav("PROPPATCH", "/dav/calendars/default.nosuch/", f.user, f.admin, propertyUpdate(`<d:displayname>x</d:displayname>`)), http.StatusNotFound)
	f.want(f.dav("PROPPATCH", col, f.user, f.admin, `<d:propfind xmlns:d="DAV:"/>`), http.StatusBadRequest)
}

// TestDavMkcalendar: MKCALENDAR (and MKCOL with a calendar resourcetype)
// at WORKSPACE.KEY under the home makes that project, titled and coloured
// from the body; an existing resource answers 405, a place outside the
// home 409, a credential that may not make projects 403. A name of the
// app's own is TestDavMkcalendarNamed's.
func TestDavMkcalendar(t *testing.T) {
	f := newFix(t)
	mk := `<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop>
<d:displayname>Errands</d:displayname><ic:calendar-color>#00AA11FF</ic:calendar-color><c:calendar-timezone>BEGIN:VCALENDAR</c:calendar-timezone>
<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`
	a := f.dav("MKCALENDAR", "/dav/calendars/default.errands/", f.user, f.admin, mk)
	if a.status != http.StatusCreated || a.header.Get("Location") != "/dav/calendars/default.errands/" {
		t.Fatalf("MKCALENDAR: %d %q\n%s", a.status, a.header.Get("Location"), a.body)
	}
	if p := f.api(http.MethodGet, "/v1/projects/errands", f.admin, nil, http.StatusOK); p["title"] != "Errands" || !strings.EqualFold(p["colour"].(string), "#00aa11") {
		t.Fatalf("made: %v", p)
	}
	f.want(f.dav(http.MethodPut, "/dav/calendars/default.errands/milk.ics", f.user, f.admin, vtodo("milk", "SUMMARY:milk")), http.StatusCreated)
	f.want(f.dav("MKCALENDAR", "/dav/calendars/default.bare/", f.user, f.admin, ""), http.StatusCreated)
	if p := f.api(http.MethodGet, "/v1/projects/bare", f.admin, nil, http.StatusOK); p["title"] != "bare" {
		t.Fatalf("a MKCALENDAR without body titles the project by its key: %v", p["title"])
	}
	mkcol := `<d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype>
<d:displayname>Shopping</d:displayname></d:prop></d:set></d:mkcol>`
	f.want(f.dav("MKCOL", "/dav/calendars/default.shop/", f.user, f.admin, mkcol), http.StatusCreated)
	f.want(f.dav("PROPFIND", "/dav/calendars/default.shop/", f.user, f.admin, "", "Depth", "0"), http.StatusMultiStatus, "<d:displayname>Shopping</d:displayname>")

	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)
	vera := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "vera", "role": "viewer"}, http.StatusCreated)
	phone := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"title": "phone", "scopes": []string{"project:read", "item:read", "item:write"}}, http.StatusCreated)["token"].(string)

	for name, c := range map[string]struct {
		method, path, user, token, body, want string
		status                                int
	}{
		"exists":          {"MKCALENDAR", "/dav/calendars/default.errands/", f.user, f.admin, mk, "<d:resource-must-be-null/>", http.StatusMethodNotAllowed},
		"mkcol exists":    {"MKCOL", "/dav/calendars/default.errands/", f.user, f.admin, mkcol, "<d:resource-must-be-null/>", http.StatusMethodNotAllowed},
		"the home":        {"MKCALENDAR", "/dav/calendars/", f.user, f.admin, "", "<d:resource-must-be-null/>", http.StatusMethodNotAllowed},
		"the root":        {"MKCALENDAR", "/dav/", f.user, f.admin, "", "<d:resource-must-be-null/>", http.StatusMethodNotAllowed},
		"an object":       {"MKCALENDAR", "/dav/calendars/default.errands/milk.ics", f.user, f.admin, "", "<d:resource-must-be-null/>", http.StatusMethodNotAllowed},
		"in a list":       {"MKCALENDAR", "/dav/calendars/default.errands/sub/", f.user, f.admin, "", "WORKSPACE.KEY", http.StatusConflict},
		"new name in one": {"MKCALENDAR", "/dav/calendars/default.errands/new.ics", f.user, f.admin, "", "WORKSPACE.KEY", http.StatusConflict},
		"elsewhere":       {"MKCALENDAR", "/dav/elsewhere/x/", f.user, f.admin, "", "WORKSPACE.KEY", http.StatusConflict},
		"a bad key":       {"MKCALENDAR", "/dav/calendars/default.Bad Key/", f.user, f.admin, mk, "validation: ", http.StatusForbidden},
		"a viewer":        {"MKCALENDAR", "/dav/calendars/default.veras/", "vera", vera, mk, "forbidden: ", http.StatusForbidden},
		"a narrow token":  {"MKCALENDAR", "/dav/calendars/default.phones/", f.user, phone, mk, "<t:message>", http.StatusForbidden},
		"events only": {"MKCALENDAR", "/dav/calendars/default.events/", f.user, f.admin, strings.ReplaceAll(mk, "VTODO", "VEVENT"),
			"<c:supported-calendar-component/>", http.StatusForbidden},
		"plain mkcol": {"MKCOL", "/dav/calendars/default.plain/", f.user, f.admin, "", "<d:valid-resourcetype/>", http.StatusForbidden},
		"no xml":      {"MKCALENDAR", "/dav/calendars/default.broken/", f.user, f.admin, "<c:mkcalendar", "invalid: ", http.StatusBadRequest},
	} {
		a := f.dav(c.method, c.path, c.user, c.token, c.body)
		if a.status != c.status || !strings.Contains(a.body, c.want) || !strings.Contains(a.body, "<d:error") {
			t.Errorf("%s: %d\n%s", name, a.status, a.body)
		}
	}
	for _, key := range []string{"veras", "phones", "events", "plain", "broken"} {
		f.api(http.MethodGet, "/v1/projects/"+key, f.admin, nil, http.StatusNotFound)
	}
}
