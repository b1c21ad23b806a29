package dav_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestDavMkcalendarNamed: MKCALENDAR at a name of the app's own (Apple's
// apps send a UUID) makes a project in the account's workspace, keyed from
// its title as an import keys one, and serves the list at that name for
// that account only: listed there in the home, written, read and synced
// there. Another account's same name is its own list; a name in use
// answers 405; an account that may not make projects 403; a trashed
// project, or a workspace left, makes the name answer 404.
func TestDavMkcalendarNamed(t *testing.T) {
	f := newFix(t)
	const uuid = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
	list := "/dav/calendars/" + uuid + "/"
	mk := `<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:ic="http://apple.com/ns/ical/"><d:set><d:prop>
<d:displayname>Groceries</d:displayname><ic:calendar-color>#00AA11FF</ic:calendar-color>
<c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`

	a := f.dav("MKCALENDAR", list, f.user, f.admin, mk)
	if a.status != http.StatusCreated || a.header.Get("Location") != list {
		t.Fatalf("MKCALENDAR at a UUID: %d %q\n%s", a.status, a.header.Get("Location"), a.body)
	}
	p := f.api(http.MethodGet, "/v1/projects/groceries", f.admin, nil, http.StatusOK)
	if p["title"] != "Groceries" || !strings.EqualFold(p["colour"].(string), "#00aa11") {
		t.Fatalf("the project made: %v", p)
	}
	home := f.dav("PROPFIND", "/dav/calendars/", f.user, f.admin, "", "Depth", "1")
	f.want(home, http.StatusMultiStatus, "<d:href>"+list+"</d:href>", "<d:displayname>Groceries</d:displayname>")
	if strings.Contains(home.body, "default.groceries") {
		t.Fatalf("the home lists the list twice:\n%s", home.body)
	}

	f.want(f.dav(http.MethodPut, list+"milk.ics", f.user, f.admin, vtodo("milk", "SUMMARY:Milk")), http.StatusCreated)
	f.want(f.dav(http.MethodGet, list+"milk.ics", f.user, f.admin, ""), http.StatusOK, "SUMMARY:Milk")
	tasks := f.api(http.MethodGet, "/v1/tasks?project=groceries", f.admin, nil, http.StatusOK)["items"].([]any)
	if len(tasks) != 1 || tasks[0].(map[string]any)["title"] != "Milk" {
		t.Fatalf("the API's tasks of the list: %v", tasks)
	}
	f.want(f.dav("PROPFIND", list, f.user, f.admin, "", "Depth", "1"), http.StatusMultiStatus, "<d:href>"+list+"milk.ics</d:href>")
	f.want(f.dav("REPORT", list, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`),
		http.StatusMultiStatus, "<d:href>"+list+"milk.ics</d:href>", "<d:sync-token>")
	f.want(f.dav("PROPPATCH", list, f.user, f.admin, propertyUpdate(`<d:displayname>Food</d:displayname>`)),
		http.StatusMultiStatus, "<d:href>"+list+"</d:href>", "HTTP/1.1 200 OK")
	if p := f.api(http.MethodGet, "/v1/projects/groceries", f.admin, nil, http.StatusOK); p["title"] != "Food" {
		t.Fatalf("after PROPPATCH at the name: %v", p["title"])
	}
	// The WORKSPACE.KEY address still answers, naming the list by the
	// account's one URL.
	f.want(f.dav("PROPFIND", "/dav/calendars/default.groceries/", f.user, f.admin, "", "Depth", "0"), http.StatusMultiStatus, "<d:href>"+list+"</d:href>")
	f.want(f.dav("MKCALENDAR", list, f.user, f.admin, mk), http.StatusMethodNotAllowed, "<d:resource-must-be-null/>")
	f.want(f.dav("MKCALENDAR", "/dav/calendars/default.groceries/", f.user, f.admin, mk), http.StatusMethodNotAllowed, "<d:resource-must-be-null/>")

	// Another account: the admin's list is at WORKSPACE.KEY, the name is
	// nothing, and the same name makes a list of its own.
	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)
	vera := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "vera", "role": "member"}, http.StatusCreated)
	hers := f.dav("PROPFIND", "/dav/calendars/", "vera", vera, "", "Depth", "1")
	f.want(hers, http.StatusMultiStatus, "<d:href>/dav/calendars/default.groceries/</d:href>")
	if strings.Contains(hers.body, uuid) {
		t.Fatalf("another account's home shows the admin's name:\n%s", hers.body)
	}
	f.want(f.dav(http.MethodGet, list+"milk.ics", "vera", vera, ""), http.StatusNotFound)
	f.want(f.dav("MKCALENDAR", list, "vera", vera, ""), http.StatusCreated)
	if p := f.api(http.MethodGet, "/v1/projects/tasks", vera, nil, http.StatusOK); p["title"] != "Tasks" {
		t.Fatalf("a list named by a UUID without a displayname: %v", p["title"])
	}
	f.want(f.dav("PROPFIND", list, "vera", vera, "", "Depth", "1"), http.StatusMultiStatus, "<d:displayname>Tasks</d:displayname>")
	if b := f.dav("PROPFIND", list, "vera", vera, "", "Depth", "1").body; strings.Contains(b, "milk") {
		t.Fatalf("vera's list holds the admin's task:\n%s", b)
	}
	f.want(f.dav(http.MethodGet, list+"milk.ics", f.user, f.admin, ""), http.StatusOK, "SUMMARY:Milk")

	// A short name titles the list itself.
	f.want(f.dav("MKCALENDAR", "/dav/calendars/Work/", f.user, f.admin, ""), http.StatusCreated)
	if p := f.api(http.MethodGet, "/v1/projects/work", f.admin, nil, http.StatusOK); p["title"] != "Work" {
		t.Fatalf("a short name's list: %v", p["title"])
	}

	// A name is kept as sent and named escaped, as it came.
	f.want(f.dav("MKCALENDAR", "/dav/calendars/my%20list/", f.user, f.admin, ""), http.StatusCreated)
	f.want(f.dav("PROPFIND", "/dav/calendars/my%20list/", f.user, f.admin, "", "Depth", "0"), http.StatusMultiStatus,
		"<d:href>/dav/calendars/my%20list/</d:href>", "<d:displayname>my list</d:displayname>")

	// Accounts that may not make projects.
	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "rita"}, http.StatusCreated)
	rita := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "rita"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "rita", "role": "viewer"}, http.StatusCreated)
	f.want(f.dav("MKCALENDAR", "/dav/calendars/rita-list/", "rita", rita, mk), http.StatusForbidden, "forbidden: ")
	f.want(f.dav("PROPFIND", "/dav/calendars/rita-list/", "rita", rita, "", "Depth", "0"), http.StatusNotFound)
	phone := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"title": "phone", "scopes": []string{"project:read", "item:read", "item:write"}}, http.StatusCreated)["token"].(string)
	f.want(f.dav("MKCALENDAR", "/dav/calendars/phone-list/", f.user, phone, mk), http.StatusForbidden, "<t:message>")
	f.want(f.dav("MKCALENDAR", "/dav/calendars/"+strings.Repeat("x", 256)+"/", f.user, f.admin, mk), http.StatusForbidden, "at most 255 bytes")

	// A trashed project's name answers as nothing; the name can be used again.
	f.api(http.MethodDelete, "/v1/projects/groceries", f.admin, nil, http.StatusOK)
	f.want(f.dav("PROPFIND", list, f.user, f.admin, "", "Depth", "0"), http.StatusNotFound)
	f.want(f.dav(http.MethodGet, list+"milk.ics", f.user, f.admin, ""), http.StatusNotFound)
	f.want(f.dav("MKCALENDAR", list, f.user, f.admin, mk), http.StatusCreated)
	f.want(f.dav("PROPFIND", list, f.user, f.admin, "", "Depth", "1"), http.StatusMultiStatus, "<d:displayname>Groceries</d:displayname>")

	// An account that leaves the workspace loses the list at its name.
	f.api(http.MethodDelete, "/v1/workspaces/default/members/vera", f.admin, nil, http.StatusNoContent)
	f.want(f.dav("PROPFIND", list, "vera", vera, "", "Depth", "0"), http.StatusNotFound)
}
