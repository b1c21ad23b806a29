package dav_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// fix is one test's instance served over loopback (the real router and
// store), the administrator's token and username.
type fix struct {
	t     *testing.T
	srv   *httptest.Server
	clock *storetest.Clock
	admin string
	user  string
}

// newFix serves a first start without the OpenAPI check New applies: the
// DAV tree is not part of the JSON API's document.
func newFix(t *testing.T) *fix {
	t.Helper()
	db, clock, admin := webtest.OpenBootstrapped(t)
	svc := app.New(db, storetest.Options(app.Options{Version: "test", PublicURL: "https://tend.example"}))
	f := &fix{t: t, srv: webtest.Serve(t, svc), clock: clock, admin: admin}
	f.user = f.api(http.MethodGet, "/v1/me", admin, nil, http.StatusOK)["user"].(map[string]any)["username"].(string)
	return f
}

// api sends a JSON API request and checks its status.
func (f *fix) api(method, path, token string, body any, want int) map[string]any {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, f.srv.URL+path, rd)
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res := f.send(req)
	if res.status != want {
		f.t.Fatalf("%s %s: %d, want %d\n%s", method, path, res.status, want, res.body)
	}
	m := map[string]any{}
	_ = json.Unmarshal([]byte(res.body), &m)
	return m
}

type answer struct {
	status int
	header http.Header
	body   string
}

func (f *fix) send(req *http.Request) answer {
	f.t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, string(b)}
}

// dav sends a DAV request with Basic credentials (user and token; none
// when token is "") and headers given as name, value pairs.
func (f *fix) dav(method, path, user, token, body string, headers ...string) answer {
	f.t.Helper()
	req, _ := http.NewRequest(method, f.srv.URL+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+token)))
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return f.send(req)
}

func (f *fix) want(a answer, status int, contains ...string) {
	f.t.Helper()
	if a.status != status {
		f.t.Fatalf("status %d, want %d\n%s", a.status, status, a.body)
	}
	for _, s := range contains {
		if !strings.Contains(a.body, s) {
			f.t.Fatalf("answer lacks %q:\n%s", s, a.body)
		}
	}
}

func vtodo(uid string, lines ...string) string {
	return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:" + uid + "\r\nDTSTAMP:20261201T100000Z\r\n" +
		strings.Join(lines, "\r\n") + "\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
}

const propfindAll = `<?xml version="1.0"?><d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>`

func TestDavDiscovery(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)

	wk := f.dav(http.MethodGet, "/.well-known/caldav", "", "", "")
	if wk.status != http.StatusMovedPermanently || wk.header.Get("Location") != "/dav/" {
		t.Fatalf("well-known: %d %q", wk.status, wk.header.Get("Location"))
	}
	opt := f.dav(http.MethodOptions, "/dav/", "", "", "")
	if opt.status != http.StatusOK || opt.header.Get("DAV") != "1, 3, calendar-access" || !strings.Contains(opt.header.Get("Allow"), "PROPFIND") {
		t.Fatalf("OPTIONS: %d %v", opt.status, opt.header)
	}
	principal := "/dav/principals/" + f.user + "/"
	f.want(f.dav("PROPFIND", "/dav/", f.user, f.admin, `<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>`, "Depth", "0"),
		http.StatusMultiStatus, "<d:current-user-principal><d:href>"+principal+"</d:href>")
	f.want(f.dav("PROPFIND", principal, f.user, f.admin, `<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/><d:unknown-thing/></d:prop></d:propfind>`, "Depth", "0"),
		http.StatusMultiStatus, "<c:calendar-home-set><d:href>/dav/calendars/</d:href>", "<d:unknown-thing/></d:prop><d:status>HTTP/1.1 404 Not Found")
	home := f.dav("PROPFIND", "/dav/calendars/", f.user, f.admin, propfindAll, "Depth", "1")
	f.want(home, http.StatusMultiStatus, "<d:href>/dav/calendars/default.home/</d:href>", "<d:displayname>Home</d:displayname>",
		`<c:comp name="VTODO"/>`, "<cs:getctag>", "<d:sync-token>", "<d:write-content/>", "<c:calendar/>", "<c:calendar-query/>")
	f.want(f.dav("PROPFIND", "/dav/calendars/default.home/", f.user, f.admin, `<d:propfind xmlns:d="DAV:"><d:propname/></d:propfind>`, "Depth", "0"),
		http.StatusMultiStatus, "<d:current-user-privilege-set/>")
}

func TestDavAuth(t *testing.T) {
	f := newFix(t)
	for name, a := range map[string]answer{
		"none":          f.dav("PROPFIND", "/dav/", "", "", ""),
		"wrong token":   f.dav("PROPFIND", "/dav/", f.user, "tend_nothing_like_a_token", ""),
		"wrong account": f.dav("PROPFIND", "/dav/", "somebody", f.admin, ""),
	} {
		if a.status != http.StatusUnauthorized || a.header.Get("WWW-Authenticate") != `Basic realm="tend", charset="UTF-8"` {
			t.Errorf("%s: %d %q", name, a.status, a.header.Get("WWW-Authenticate"))
		}
		if !strings.Contains(a.body, "<t:message>unauthorized: ") {
			t.Errorf("%s: body %s", name, a.body)
		}
	}
	req, _ := http.NewRequest("PROPFIND", f.srv.URL+"/dav/", nil)
	req.Header.Set("Authorization", "Bearer "+f.admin)
	if a := f.send(req); a.status != http.StatusMultiStatus {
		t.Errorf("bearer: %d", a.status)
	}
	f.want(f.dav("PROPFIND", "/dav/principals/somebody/", f.user, f.admin, ""), http.StatusNotFound, "<t:message>not_found: ")
}

// TestDavDisclosure: a private project the account cannot see answers as an
// unknown one, byte for byte; a viewer's collection is read-only.
func TestDavDisclosure(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "open", "title": "Open"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)
	vera := f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": "vera"}, http.StatusCreated)["token"].(string)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": "vera", "role": "viewer"}, http.StatusCreated)

	hidden := f.dav("PROPFIND", "/dav/calendars/default.secret/", "vera", vera, "", "Depth", "1")
	unknown := f.dav("PROPFIND", "/dav/calendars/default.nosuch/", "vera", vera, "", "Depth", "1")
	if hidden.status != http.StatusNotFound || hidden.body != unknown.body {
		t.Fatalf("hidden %d %s\nunknown %d %s", hidden.status, hidden.body, unknown.status, unknown.body)
	}
	home := f.dav("PROPFIND", "/dav/calendars/", "vera", vera, propfindAll, "Depth", "1")
	f.want(home, http.StatusMultiStatus, "default.open/")
	if strings.Contains(home.body, "secret") || strings.Contains(home.body, "<d:write") {
		t.Fatalf("a viewer's home shows the private project or a write privilege:\n%s", home.body)
	}
	put := f.dav(http.MethodPut, "/dav/calendars/default.open/x.ics", "vera", vera, vtodo("x", "SUMMARY:nope"))
	f.want(put, http.StatusForbidden, "<t:message>forbidden: ")
	f.want(f.dav(http.MethodPut, "/dav/calendars/default.secret/x.ics", "vera", vera, vtodo("x", "SUMMARY:nope")), http.StatusNotFound)
}

func TestDavUnknown(t *testing.T) {
	f := newFix(t)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"MKCALENDAR", "/dav/calendars/", http.StatusMethodNotAllowed},
		{"PROPPATCH", "/dav/calendars/default.nosuch/", http.StatusBadRequest},
		{"LOCK", "/dav/", http.StatusMethodNotAllowed},
		{"PROPFIND", "/dav/elsewhere/", http.StatusNotFound},
		{http.MethodGet, "/dav/calendars/", http.StatusMethodNotAllowed},
		{"REPORT", "/dav/calendars/", http.StatusForbidden},
	} {
		a := f.dav(c.method, c.path, f.user, f.admin, "")
		if a.status != c.status || !strings.HasPrefix(a.header.Get("Content-Type"), "application/xml") || !strings.Contains(a.body, "<d:error") {
			t.Errorf("%s %s: %d %s\n%s", c.method, c.path, a.status, a.header.Get("Content-Type"), a.body)
		}
	}
	f.want(f.dav("PROPFIND", "/dav/", f.user, f.admin, "<d:propfind xmlns:d=\"DAV:\"><d:prop>"), http.StatusBadRequest, "invalid: ")
	bomb := `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&b;</d:displayname></d:prop></d:propfind>`
	f.want(f.dav("PROPFIND", "/dav/", f.user, f.admin, bomb), http.StatusBadRequest, "invalid: ")
}

func TestDavObjects(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	obj := col + "client-chosen-name.ics"

	body := vtodo("uid-1@phone", "SUMMARY:Buy milk", "DESCRIPTION:two litres", "PRIORITY:1", "DUE;VALUE=DATE:20261210",
		"CATEGORIES:errand,shop", "X-APPLE-SORT-ORDER:42", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM")
	put := f.dav(http.MethodPut, obj, f.user, f.admin, body, "If-None-Match", "*", "Content-Type", "text/calendar")
	if put.status != http.StatusCreated || put.header.Get("ETag") == "" {
		t.Fatalf("create: %d %v %s", put.status, put.header, put.body)
	}
	etag := put.header.Get("ETag")
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, body, "If-None-Match", "*"), http.StatusPreconditionFailed)

	tasks := f.api(http.MethodGet, "/v1/tasks?project=home", f.admin, nil, http.StatusOK)["items"].([]any)
	if len(tasks) != 1 {
		t.Fatalf("tasks: %v", tasks)
	}
	task := tasks[0].(map[string]any)
	if task["title"] != "Buy milk" || task["description"] != "two litres" || fmt.Sprint(task["importance"]) != "5" ||
		fmt.Sprint(task["tags"]) != "[errand shop]" || task["due_is_all_day"] != true {
		t.Fatalf("task as the API reads it: %v", task)
	}
	ref := fmt.Sprint(task["ref"])
	events := f.api(http.MethodGet, "/v1/tasks/"+ref+"/events", f.admin, nil, http.StatusOK)["items"].([]any)
	if iface := events[len(events)-1].(map[string]any)["actor_interface"]; iface != "caldav" {
		t.Fatalf("event interface %v", iface)
	}

	get := f.dav(http.MethodGet, obj, f.user, f.admin, "")
	f.want(get, http.StatusOK, "UID:uid-1@phone", "SUMMARY:Buy milk", "PRIORITY:1", "DUE;VALUE=DATE:20261210", "X-APPLE-SORT-ORDER:42",
		"BEGIN:VALARM", "TRIGGER:-PT15M", "STATUS:NEEDS-ACTION", "URL:https://tend.example/v1/tasks/")
	if get.header.Get("ETag") != etag || strings.Contains(get.body, "METHOD") {
		t.Fatalf("GET: etag %q (put %q)\n%s", get.header.Get("ETag"), etag, get.body)
	}

	done := vtodo("uid-1@phone", "SUMMARY:Buy oat milk", "STATUS:COMPLETED", "COMPLETED:20261202T090000Z", "X-APPLE-SORT-ORDER:7")
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, done, "If-Match", `"1-0"`), http.StatusPreconditionFailed)
	upd := f.dav(http.MethodPut, obj, f.user, f.admin, done, "If-Match", etag)
	if upd.status != http.StatusNoContent || upd.header.Get("ETag") == etag {
		t.Fatalf("update: %d %q %s", upd.status, upd.header.Get("ETag"), upd.body)
	}
	got := f.api(http.MethodGet, "/v1/tasks/"+ref, f.admin, nil, http.StatusOK)
	if got["title"] != "Buy oat milk" || got["is_complete"] != true || got["importance"] != nil || got["due_at"] != nil {
		t.Fatalf("after the update: %v", got)
	}
	f.want(f.dav(http.MethodGet, obj, f.user, f.admin, ""), http.StatusOK, "X-APPLE-SORT-ORDER:7", "STATUS:COMPLETED", "PERCENT-COMPLETE:100")

	f.want(f.dav(http.MethodDelete, obj, f.user, f.admin, "", "If-Match", etag), http.StatusPreconditionFailed)
	f.want(f.dav(http.MethodDelete, obj, f.user, f.admin, "", "If-Match", upd.header.Get("ETag")), http.StatusNoContent)
	f.want(f.dav(http.MethodGet, obj, f.user, f.admin, ""), http.StatusNotFound)
	f.api(http.MethodGet, "/v1/tasks/"+ref, f.admin, nil, http.StatusNotFound)
	f.api(http.MethodPost, "/v1/tasks/"+ref+"/restore", f.admin, nil, http.StatusOK)
	f.want(f.dav(http.MethodGet, obj, f.user, f.admin, ""), http.StatusOK, "UID:uid-1@phone")
}

func TestDavObjectRefusals(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	f.want(f.dav(http.MethodPut, col+"a.ics", f.user, f.admin, vtodo("same", "SUMMARY:a")), http.StatusCreated)
	for name, c := range map[string]struct {
		path, body, cond string
		status           int
	}{
		"uid taken":      {col + "b.ics", vtodo("same", "SUMMARY:b"), "<c:no-uid-conflict/>", http.StatusForbidden},
		"uid changed":    {col + "a.ics", vtodo("other", "SUMMARY:a"), "<c:no-uid-conflict/>", http.StatusForbidden},
		"an event":       {col + "e.ics", strings.ReplaceAll(vtodo("e", "SUMMARY:e"), "VTODO", "VEVENT"), "<c:supported-calendar-component/>", http.StatusForbidden},
		"no calendar":    {col + "n.ics", "hello", "<c:valid-calendar-data/>", http.StatusForbidden},
		"no title":       {col + "t.ics", vtodo("t", "DESCRIPTION:x"), "validation: ", http.StatusForbidden},
		"bad priority":   {col + "p.ics", vtodo("p", "SUMMARY:p", "PRIORITY:12"), "<c:valid-calendar-data/>", http.StatusForbidden},
		"stale if-match": {col + "z.ics", vtodo("z", "SUMMARY:z"), "version_conflict: ", http.StatusPreconditionFailed},
	} {
		a := f.dav(http.MethodPut, c.path, f.user, f.admin, c.body, "If-Match", map[bool]string{true: `"9-9"`}[name == "stale if-match"])
		if a.status != c.status || !strings.Contains(a.body, c.cond) {
			t.Errorf("%s: %d\n%s", name, a.status, a.body)
		}
	}
	made := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "made in tend", "project": "home"}, http.StatusCreated)["id"].(string)
	f.want(f.dav(http.MethodGet, col+made+".ics", f.user, f.admin, ""), http.StatusOK, "UID:"+made)
	f.want(f.dav(http.MethodPut, col+"copy.ics", f.user, f.admin, vtodo(made, "SUMMARY:copy")), http.StatusForbidden, "<c:no-uid-conflict/>")
	f.want(f.dav(http.MethodPut, col+made+".ics", f.user, f.admin, vtodo(made, "SUMMARY:renamed in the app")), http.StatusNoContent)
	f.want(f.dav(http.MethodPut, col+"big.ics", f.user, f.admin, vtodo("big", "SUMMARY:"+strings.Repeat("x", 11<<20))), http.StatusRequestEntityTooLarge, "<c:max-resource-size/>")
	many := make([]string, 10000)
	for i := range many {
		many[i] = fmt.Sprintf("X-PROP-%d:v", i)
	}
	f.want(f.dav(http.MethodPut, col+"many.ics", f.user, f.admin, vtodo("many", append([]string{"SUMMARY:many"}, many...)...)),
		http.StatusForbidden, "<c:max-resource-size/>")
}

func TestDavReports(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	f.want(f.dav(http.MethodPut, col+"open.ics", f.user, f.admin, vtodo("open", "SUMMARY:open one", "DUE:20261210T120000Z")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, col+"done.ics", f.user, f.admin, vtodo("done", "SUMMARY:done one", "STATUS:COMPLETED")), http.StatusCreated)
	made := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "made in tend", "project": "home"}, http.StatusCreated)

	open := `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>
<c:prop-filter name="STATUS"><c:text-match negate-condition="yes">CANCELLED</c:text-match></c:prop-filter></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`
	a := f.dav("REPORT", col, f.user, f.admin, open, "Depth", "1")
	f.want(a, http.StatusMultiStatus, "open.ics", "SUMMARY:open one", made["id"].(string)+".ics", "<d:getetag>")
	if strings.Contains(a.body, "done one") {
		t.Fatalf("the query for open tasks answers a done one:\n%s", a.body)
	}
	ranged := `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="20261211T000000Z" end="20261220T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`
	if a := f.dav("REPORT", col, f.user, f.admin, ranged); strings.Contains(a.body, "open.ics") || !strings.Contains(a.body, "done.ics") {
		t.Fatalf("time-range: %s", a.body)
	}
	multi := `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
<d:href>` + col + `done.ics</d:href><d:href>` + col + `gone.ics</d:href></c:calendar-multiget>`
	f.want(f.dav("REPORT", col, f.user, f.admin, multi), http.StatusMultiStatus, "SUMMARY:done one",
		"<d:href>"+col+"gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>")
}

// sync sends the administrator's sync-collection of col from token ("" for
// all).
func (f *fix) sync(col, token string) answer {
	f.t.Helper()
	return f.dav("REPORT", col, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token>`+token+
		`</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`)
}

// syncToken is the sync-token a sync-collection answer ends with.
func syncToken(t *testing.T, body string) string {
	t.Helper()
	_, rest, ok := strings.Cut(body, "<d:sync-token>")
	tok, _, ok2 := strings.Cut(rest, "</d:sync-token>")
	if !ok || !ok2 {
		t.Fatalf("no sync-token in\n%s", body)
	}
	return tok
}

func TestDavSync(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	sync := func(token string) answer { return f.sync(col, token) }
	f.want(f.dav(http.MethodPut, col+"a.ics", f.user, f.admin, vtodo("a", "SUMMARY:a")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, col+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b")), http.StatusCreated)
	first := sync("")
	f.want(first, http.StatusMultiStatus, col+"a.ics", col+"b.ics")
	tok := syncToken(t, first.body)

	empty := sync(tok)
	f.want(empty, http.StatusMultiStatus)
	if strings.Contains(empty.body, "<d:response>") || syncToken(t, empty.body) != tok {
		t.Fatalf("an empty delta:\n%s", empty.body)
	}
	f.want(f.dav(http.MethodPut, col+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b changed")), http.StatusNoContent)
	f.want(f.dav(http.MethodDelete, col+"a.ics", f.user, f.admin, ""), http.StatusNoContent)
	delta := sync(tok)
	f.want(delta, http.StatusMultiStatus, "<d:href>"+col+"b.ics</d:href><d:propstat>", "<d:href>"+col+"a.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>")
	if syncToken(t, delta.body) == tok {
		t.Fatal("the token did not move on")
	}
	for _, bad := range []string{"nonsense", "tag:tend,2026:sync/99999"} {
		f.want(sync(bad), http.StatusForbidden, "<d:valid-sync-token/>")
	}
}

// TestDavSubtasks: RELATED-TO;RELTYPE=PARENT files a task under its parent,
// whichever of the two arrives first (tasks.org sends them in any order),
// and no placeholder task is made for a parent not seen yet.
func TestDavSubtasks(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	f.want(f.dav(http.MethodPut, col+"child.ics", f.user, f.admin, vtodo("child", "SUMMARY:child", "RELATED-TO;RELTYPE=PARENT:parent")), http.StatusCreated)
	if n := len(f.api(http.MethodGet, "/v1/tasks?project=home", f.admin, nil, http.StatusOK)["items"].([]any)); n != 1 {
		t.Fatalf("%d tasks before the parent arrives, want the child alone", n)
	}
	f.want(f.dav(http.MethodPut, col+"parent.ics", f.user, f.admin, vtodo("parent", "SUMMARY:parent")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, col+"late.ics", f.user, f.admin, vtodo("late", "SUMMARY:late", "RELATED-TO:parent")), http.StatusCreated)
	for _, item := range f.api(http.MethodGet, "/v1/tasks?project=home", f.admin, nil, http.StatusOK)["items"].([]any) {
		task := item.(map[string]any)
		if wantParent := task["title"] != "parent"; (task["parent"] != nil) != wantParent {
			t.Errorf("%v has parent %v", task["title"], task["parent"])
		}
	}
	f.want(f.dav(http.MethodGet, col+"child.ics", f.user, f.admin, ""), http.StatusOK, "RELATED-TO;RELTYPE=PARENT:parent")
}

// TestDavCompleted: a client's COMPLETED on the PUT that completes a task
// is when it was completed, read back by the API and the client; one in
// the future, or sent again for a task done already, changes nothing.
func TestDavCompleted(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	completedAt := func(title string) string {
		t.Helper()
		for _, item := range f.api(http.MethodGet, "/v1/tasks?project=home&include_completed=true", f.admin, nil, http.StatusOK)["items"].([]any) {
			if task := item.(map[string]any); task["title"] == title {
				return fmt.Sprint(task["completed_at"])
			}
		}
		return "no task " + title
	}
	f.want(f.dav(http.MethodPut, col+"a.ics", f.user, f.admin, vtodo("a", "SUMMARY:a", "STATUS:COMPLETED", "COMPLETED:20200102T080000Z")), http.StatusCreated)
	if got := completedAt("a"); !strings.HasPrefix(got, "2020-01-02T08:00:00") {
		t.Fatalf("created done: completed_at %s", got)
	}
	f.want(f.dav(http.MethodGet, col+"a.ics", f.user, f.admin, ""), http.StatusOK, "COMPLETED:20200102T080000Z")

	f.want(f.dav(http.MethodPut, col+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, col+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b", "COMPLETED:20210305T170000Z")), http.StatusNoContent)
	if got := completedAt("b"); !strings.HasPrefix(got, "2021-03-05T17:00:00") {
		t.Fatalf("completed by a change: completed_at %s", got)
	}
	f.want(f.dav(http.MethodPut, col+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b", "COMPLETED:20190101T000000Z")), http.StatusNoContent)
	if got := completedAt("b"); !strings.HasPrefix(got, "2021-03-05T17:00:00") {
		t.Fatalf("a done task's completion moved: %s", got)
	}
	f.want(f.dav(http.MethodPut, col+"c.ics", f.user, f.admin, vtodo("c", "SUMMARY:c", "COMPLETED:29990101T000000Z")), http.StatusCreated)
	if got := completedAt("c"); strings.HasPrefix(got, "2999") || got == "<nil>" {
		t.Fatalf("a completion in the future: %s", got)
	}
	f.want(f.dav(http.MethodPut, col+"d.ics", f.user, f.admin, vtodo("d", "SUMMARY:d", "COMPLETED:yesterday")), http.StatusForbidden, "<c:valid-calendar-data/>")
}

// TestDavXMLBomb: a body declaring nested entities (a billion laughs, some
// 3 GB expanded) is refused as XML that does not parse, with 400, and the
// request allocates nowhere near what expanding it would.
func TestDavXMLBomb(t *testing.T) {
	f := newFix(t)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">`)
	prev := "lol"
	for i := 1; i <= 9; i++ {
		b.WriteString(fmt.Sprintf(`<!ENTITY lol%d "%s">`, i, strings.Repeat("&"+prev+";", 10)))
		prev = fmt.Sprintf("lol%d", i)
	}
	b.WriteString(`]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol9;</d:displayname></d:prop></d:propfind>`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f.want(f.dav("PROPFIND", "/dav/", f.user, f.admin, b.String()), http.StatusBadRequest, "invalid: the XML body does not parse")
	f.want(f.dav("REPORT", "/dav/calendars/default.inbox/", f.user, f.admin, b.String()), http.StatusBadRequest, "invalid: the XML body does not parse")
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Fatalf("two refused bombs allocated %d MB", grew>>20)
	}
}

// TestDavPrefixedZone: a TZID with a prefix before the zone name (old
// Mozilla builds, libical) is read as that zone and written back under its
// name; a TZID that names no zone is refused, naming it, and stores nothing.
func TestDavPrefixedZone(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	f.want(f.dav(http.MethodPut, col+"moz.ics", f.user, f.admin, vtodo("moz", "SUMMARY:water the plants",
		"DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20261210T090000")), http.StatusCreated)
	f.want(f.dav(http.MethodGet, col+"moz.ics", f.user, f.admin, ""), http.StatusOK, "DUE;TZID=Europe/Berlin:20261210T090000")
	tasks := f.api(http.MethodGet, "/v1/tasks?workspace_id=default&project=home", f.admin, nil, http.StatusOK)["items"].([]any)
	if len(tasks) != 1 || tasks[0].(map[string]any)["due_at"] != "2026-12-10T08:00:00Z" || tasks[0].(map[string]any)["timezone"] != "Europe/Berlin" {
		t.Fatalf("the task read from a prefixed TZID: %v", tasks)
	}
	f.want(f.dav(http.MethodPut, col+"win.ics", f.user, f.admin, vtodo("win", "SUMMARY:w", "DUE;TZID=W. Europe Standard Time:20261210T090000")),
		http.StatusForbidden, "<c:valid-calendar-data/>", "W. Europe Standard Time")
	f.want(f.dav(http.MethodGet, col+"win.ics", f.user, f.admin, ""), http.StatusNotFound)
}
