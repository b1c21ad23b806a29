package dav_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// member makes a person, adds them to the default workspace as a member
// and answers a token for them.
func (f *fix) member(username string) string {
	f.t.Helper()
	f.api(http.MethodPost, "/v1/users", f.admin, map[string]any{"username": username}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/workspaces/default/members", f.admin, map[string]any{"username": username, "role": "member"}, http.StatusCreated)
	return f.api(http.MethodPost, "/v1/tokens", f.admin, map[string]any{"username": username}, http.StatusCreated)["token"].(string)
}

// ref is the ref of the one task of project key titled title.
func (f *fix) ref(key, title string) string {
	f.t.Helper()
	for _, item := range f.api(http.MethodGet, "/v1/tasks?project="+key, f.admin, nil, http.StatusOK)["items"].([]any) {
		if task := item.(map[string]any); task["title"] == title {
			return fmt.Sprint(task["ref"])
		}
	}
	f.t.Fatalf("no task %q in %s", title, key)
	return ""
}

// TestDavNamesPerCollection: a resource name and a UID name one task of a
// collection. A task in a project the writer cannot see holds neither for
// them (it answers as if it did not exist); a task the writer sees in the
// same collection does. A refile that brings two holders into one
// collection reads the one created first, and a task a client named is not
// also found under its id.
func TestDavNamesPerCollection(t *testing.T) {
	f := newFix(t)
	carol := f.member("carol")
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "secret", "title": "Secret", "visibility": "private"}, http.StatusCreated)
	home, secret := "/dav/calendars/default.home/", "/dav/calendars/default.secret/"

	f.want(f.dav(http.MethodPut, secret+"x.ics", f.user, f.admin, vtodo("x", "SUMMARY:hidden")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, home+"x.ics", "carol", carol, vtodo("x", "SUMMARY:carol's")), http.StatusCreated)
	f.want(f.dav(http.MethodGet, secret+"x.ics", "carol", carol, ""), http.StatusNotFound)

	f.want(f.dav(http.MethodPut, secret+"y.ics", f.user, f.admin, vtodo("x", "SUMMARY:again")), http.StatusForbidden, "<c:no-uid-conflict/>")
	f.want(f.dav(http.MethodPut, home+"x.ics", "carol", carol, vtodo("z", "SUMMARY:z"), "If-None-Match", "*"), http.StatusPreconditionFailed)
	f.want(f.dav(http.MethodPut, home+"x.ics", "carol", carol, vtodo("z", "SUMMARY:z")), http.StatusForbidden, "<c:no-uid-conflict/>")

	byID := f.api(http.MethodGet, "/v1/tasks/"+f.ref("home", "carol's"), f.admin, nil, http.StatusOK)["id"].(string) + ".ics"
	f.want(f.dav(http.MethodGet, home+byID, "carol", carol, ""), http.StatusNotFound)
	multi := `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop><d:href>` + home + byID + `</d:href></c:calendar-multiget>`
	f.want(f.dav("REPORT", home, "carol", carol, multi), http.StatusMultiStatus, "<d:href>"+home+byID+"</d:href><d:status>HTTP/1.1 404 Not Found</d:status>")

	f.api(http.MethodPost, "/v1/tasks/"+f.ref("home", "carol's")+"/move", f.admin, map[string]any{"project": "secret"}, http.StatusOK)
	for range 2 {
		f.want(f.dav(http.MethodGet, secret+"x.ics", f.user, f.admin, ""), http.StatusOK, "SUMMARY:hidden")
	}
	list := f.dav("PROPFIND", secret, f.user, f.admin, `<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/></d:prop></d:propfind>`, "Depth", "1")
	f.want(list, http.StatusMultiStatus)
	if n := strings.Count(list.body, "<d:href>"+secret+"x.ics</d:href>"); n != 2 {
		t.Fatalf("the collection lists x.ics %d times, want both tasks:\n%s", n, list.body)
	}
}

// TestDavSyncMovedOut: a task refiled into another project leaves its old
// collection: the old collection's token moves on and its delta answers
// the task's name as gone; the new collection's delta has it.
func TestDavSyncMovedOut(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "work", "title": "Work"}, http.StatusCreated)
	sync := f.sync
	home, work := "/dav/calendars/default.home/", "/dav/calendars/default.work/"
	f.want(f.dav(http.MethodPut, home+"a.ics", f.user, f.admin, vtodo("a", "SUMMARY:a")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, home+"b.ics", f.user, f.admin, vtodo("b", "SUMMARY:b", "RELATED-TO;RELTYPE=PARENT:a")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, work+"w.ics", f.user, f.admin, vtodo("w", "SUMMARY:w")), http.StatusCreated)
	homeTok, workTok := syncToken(t, sync(home, "").body), syncToken(t, sync(work, "").body)

	f.api(http.MethodPost, "/v1/tasks/"+f.ref("home", "a")+"/move", f.admin, map[string]any{"project": "work"}, http.StatusOK)
	delta := sync(home, homeTok)
	f.want(delta, http.StatusMultiStatus, "<d:href>"+home+"a.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>",
		"<d:href>"+home+"b.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>")
	if syncToken(t, delta.body) == homeTok || syncToken(t, sync(home, "").body) == homeTok {
		t.Fatal("the old collection's token did not move on")
	}
	f.want(sync(work, workTok), http.StatusMultiStatus, "<d:href>"+work+"a.ics</d:href><d:propstat>", "<d:href>"+work+"b.ics</d:href><d:propstat>")
	if a := sync(home, syncToken(t, delta.body)); strings.Contains(a.body, "<d:response>") {
		t.Fatalf("a delta after the move's:\n%s", a.body)
	}
}
