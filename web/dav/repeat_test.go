package dav_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// homeTasks lists the project home's tasks through the API, finished ones
// too, by title: each title's tasks in the order the API lists them.
func (f *fix) homeTasks() map[string][]map[string]any {
	f.t.Helper()
	out := map[string][]map[string]any{}
	for _, st := range []string{"", "&status=done"} {
		for _, item := range f.api(http.MethodGet, "/v1/tasks?project=home"+st, f.admin, nil, http.StatusOK)["items"].([]any) {
			task := item.(map[string]any)
			out[fmt.Sprint(task["title"])] = append(out[fmt.Sprint(task["title"])], task)
		}
	}
	return out
}

// open is the one open task titled title, failing the test otherwise.
func (f *fix) open(title string) map[string]any {
	f.t.Helper()
	var found []map[string]any
	for _, task := range f.homeTasks()[title] {
		if task["status"] != "done" {
			found = append(found, task)
		}
	}
	if len(found) != 1 {
		f.t.Fatalf("%d open tasks titled %q, want 1: %v", len(found), title, found)
	}
	return found[0]
}

func (f *fix) home() {
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
}

const homeURL = "/dav/calendars/default.home/"

// TestDavRepeatBothWays: an RRULE a client writes is the task's repeat, and
// a repeating task made in tend is served with its rule and a DTSTART.
func TestDavRepeatBothWays(t *testing.T) {
	f := newFix(t)
	f.home()
	f.want(f.dav(http.MethodPut, homeURL+"bins.ics", f.user, f.admin, vtodo("bins", "SUMMARY:Bins out", "DUE;VALUE=DATE:20260306",
		"DTSTART;VALUE=DATE:20260306", "RRULE:FREQ=WEEKLY;BYDAY=FR")), http.StatusCreated)
	bins := f.open("Bins out")
	if rule := fmt.Sprint(bins["repeat_rule"]); rule != "DTSTART;VALUE=DATE:20260306\nRRULE:FREQ=WEEKLY;BYDAY=FR" || bins["starts_at"] != nil {
		t.Fatalf("repeat %q, planned %v", rule, bins["starts_at"])
	}
	f.want(f.dav(http.MethodGet, homeURL+"bins.ics", f.user, f.admin, ""), http.StatusOK,
		"RRULE:FREQ=WEEKLY;BYDAY=FR\r\n", "DTSTART;VALUE=DATE:20260306\r\n", "DUE;VALUE=DATE:20260306\r\n")

	made := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Water plants", "project": "home",
		"repeat": "every 3 days at 18:00", "due_at": "2026-03-03T18:00:00Z"}, http.StatusCreated)
	got := f.dav(http.MethodGet, homeURL+made["id"].(string)+".ics", f.user, f.admin, "")
	f.want(got, http.StatusOK, "RRULE:FREQ=DAILY;INTERVAL=3\r\n", "DTSTART:20260303T180000Z\r\n",
		"DUE:20260303T180000Z\r\n")

	counted := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Pills", "project": "home",
		"repeat": "DTSTART;VALUE=DATE:20260302\nRRULE:FREQ=DAILY;COUNT=3"}, http.StatusCreated)
	f.want(f.dav(http.MethodGet, homeURL+counted["id"].(string)+".ics", f.user, f.admin, ""), http.StatusOK,
		"RRULE:FREQ=DAILY;UNTIL=20260304\r\n")

	// A rule tend does not repeat by is refused as the repeat field refuses it.
	for name, rule := range map[string]string{"hourly": "RRULE:FREQ=HOURLY", "two rules": "RRULE:FREQ=DAILY\r\nRRULE:FREQ=WEEKLY"} {
		a := f.dav(http.MethodPut, homeURL+"odd.ics", f.user, f.admin, vtodo("odd", "SUMMARY:Odd", "DUE;VALUE=DATE:20260306", rule))
		if a.status != http.StatusForbidden || !strings.Contains(a.body, "<t:message>recurrence: ") {
			t.Errorf("%s: %d %s", name, a.status, a.body)
		}
	}

	// A client's rule change is the repeat from now on; a rule dropped stops it.
	f.want(f.dav(http.MethodPut, homeURL+"bins.ics", f.user, f.admin, vtodo("bins", "SUMMARY:Bins out", "DUE;VALUE=DATE:20260306",
		"RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR")), http.StatusNoContent)
	if rule := fmt.Sprint(f.open("Bins out")["repeat_rule"]); !strings.Contains(rule, "INTERVAL=2") {
		t.Fatalf("repeat after the change %q", rule)
	}
	f.want(f.dav(http.MethodPut, homeURL+"bins.ics", f.user, f.admin, vtodo("bins", "SUMMARY:Bins out", "DUE;VALUE=DATE:20260306")),
		http.StatusNoContent)
	if rule := f.open("Bins out")["repeat_rule"]; rule != nil {
		t.Fatalf("repeat after the rule was dropped %v", rule)
	}
	if a := f.dav(http.MethodGet, homeURL+"bins.ics", f.user, f.admin, ""); strings.Contains(a.body, "RRULE") {
		t.Fatalf("a task that stopped repeating is served with a rule:\n%s", a.body)
	}
}

// weekly is a repeating task's resource at its occurrence on due (a DATE),
// with lines added.
func weekly(due string, lines ...string) string {
	return vtodo("gym", append([]string{"SUMMARY:Gym", "DUE;VALUE=DATE:" + due, "DTSTART;VALUE=DATE:" + due,
		"RRULE:FREQ=WEEKLY", "X-APPLE-SORT-ORDER:7"}, lines...)...)
}

// TestDavRepeatComplete: each way task apps complete a repeating task
// completes its current occurrence; afterwards every client reads the next
// one, open, without an override, under the same name.
func TestDavRepeatComplete(t *testing.T) {
	override := func(due string) string {
		body := weekly("20260302")
		return strings.Replace(body, "END:VCALENDAR", "BEGIN:VTODO\r\nUID:gym\r\nDTSTAMP:20261201T100000Z\r\nRECURRENCE-ID;VALUE=DATE:"+due+
			"\r\nSUMMARY:Gym\r\nSTATUS:COMPLETED\r\nCOMPLETED:20260302T120000Z\r\nEND:VTODO\r\nEND:VCALENDAR", 1)
	}
	for _, c := range []struct {
		name string
		body string
	}{
		{"override with RECURRENCE-ID (Thunderbird)", override("20260302")},
		{"DUE moved one step (tasks.org)", weekly("20260309")},
		{"STATUS:COMPLETED on the master (Apple Reminders)", weekly("20260302", "STATUS:COMPLETED")},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFix(t)
			f.home()
			put := f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, weekly("20260302"), "If-None-Match", "*")
			f.want(put, http.StatusCreated)
			f.want(f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, c.body, "If-Match", put.header.Get("ETag")), http.StatusNoContent)
			gym := f.homeTasks()["Gym"]
			if len(gym) != 2 {
				t.Fatalf("%d occurrences, want 2: %v", len(gym), gym)
			}
			next := f.open("Gym")
			if next["due_at"] != "2026-03-09T00:00:00Z" || next["occurrence"] != 2.0 {
				t.Fatalf("next occurrence: due %v, occurrence %v", next["due_at"], next["occurrence"])
			}
			got := f.dav(http.MethodGet, homeURL+"gym.ics", f.user, f.admin, "")
			f.want(got, http.StatusOK, "STATUS:NEEDS-ACTION", "DUE;VALUE=DATE:20260309", "UID:gym\r\n", "RRULE:FREQ=WEEKLY\r\n",
				"X-APPLE-SORT-ORDER:7")
			if strings.Contains(got.body, "RECURRENCE-ID") || strings.Count(got.body, "BEGIN:VTODO") != 1 {
				t.Fatalf("the override is kept:\n%s", got.body)
			}
			list := f.dav("PROPFIND", homeURL, f.user, f.admin, propfindAll, "Depth", "1")
			if n := strings.Count(list.body, "<d:href>"+homeURL); n != 2 {
				t.Fatalf("the collection lists %d members, want itself and gym.ics:\n%s", n, list.body)
			}
		})
	}
}

// TestDavRepeatNotAStep: a DUE moved by anything but one step is a
// reschedule, and an override of another occurrence completes nothing.
func TestDavRepeatNotAStep(t *testing.T) {
	f := newFix(t)
	f.home()
	f.want(f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, weekly("20260302")), http.StatusCreated)
	f.want(f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, weekly("20260304")), http.StatusNoContent)
	if gym := f.homeTasks()["Gym"]; len(gym) != 1 || gym[0]["due_at"] != "2026-03-04T00:00:00Z" {
		t.Fatalf("after a move of two days: %v", gym)
	}
	later := strings.Replace(weekly("20260304"), "END:VCALENDAR", "BEGIN:VTODO\r\nUID:gym\r\nRECURRENCE-ID;VALUE=DATE:20260318"+
		"\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\nEND:VCALENDAR", 1)
	f.want(f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, later), http.StatusNoContent)
	if gym := f.homeTasks()["Gym"]; len(gym) != 1 || gym[0]["status"] == "done" {
		t.Fatalf("after an override of a later occurrence: %v", gym)
	}
}

// TestDavRepeatConcurrent: two clients complete the same occurrence with
// the ETag they read; one wins, the other answers 412, and one occurrence
// is completed.
func TestDavRepeatConcurrent(t *testing.T) {
	f := newFix(t)
	f.home()
	etag := f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, weekly("20260302")).header.Get("ETag")
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	for i, body := range []string{weekly("20260309"), weekly("20260302", "STATUS:COMPLETED")} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.dav(http.MethodPut, homeURL+"gym.ics", f.user, f.admin, body, "If-Match", etag).status
		}()
	}
	wg.Wait()
	if !(statuses[0] == http.StatusNoContent && statuses[1] == http.StatusPreconditionFailed ||
		statuses[1] == http.StatusNoContent && statuses[0] == http.StatusPreconditionFailed) {
		t.Fatalf("statuses %v, want one 204 and one 412", statuses)
	}
	if gym := f.homeTasks()["Gym"]; len(gym) != 2 {
		t.Fatalf("%d occurrences, want 2", len(gym))
	}
	if next := f.open("Gym"); next["due_at"] != "2026-03-09T00:00:00Z" {
		t.Fatalf("next due %v", next["due_at"])
	}
}

// TestDavRepeatCompletedInTend: an occurrence completed through the API
// hands its resource on too; the app reads the next occurrence under the
// name and UID it knows, and the done one is neither listed nor gone.
func TestDavRepeatCompletedInTend(t *testing.T) {
	f := newFix(t)
	f.home()
	made := f.api(http.MethodPost, "/v1/tasks", f.admin, map[string]any{"title": "Backup", "project": "home",
		"repeat": "every day", "due_at": "2026-03-02T00:00:00Z", "due_is_all_day": true}, http.StatusCreated)
	name := made["id"].(string) + ".ics"
	before := f.dav(http.MethodGet, homeURL+name, f.user, f.admin, "")
	f.want(before, http.StatusOK, "UID:"+made["id"].(string)+"\r\n")
	token := f.dav("REPORT", homeURL, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`)
	f.api(http.MethodPost, "/v1/tasks/"+fmt.Sprint(made["ref"])+"/complete", f.admin, nil, http.StatusOK)

	after := f.dav(http.MethodGet, homeURL+name, f.user, f.admin, "")
	f.want(after, http.StatusOK, "UID:"+made["id"].(string)+"\r\n", "DUE;VALUE=DATE:20260303\r\n", "STATUS:NEEDS-ACTION")
	if after.header.Get("ETag") == before.header.Get("ETag") {
		t.Fatalf("the next occurrence has the last one's ETag %s", after.header.Get("ETag"))
	}
	f.want(f.dav(http.MethodPut, homeURL+name, f.user, f.admin, vtodo(made["id"].(string), "SUMMARY:Backup"), "If-Match", before.header.Get("ETag")),
		http.StatusPreconditionFailed)
	tok := token.body[strings.Index(token.body, "<d:sync-token>")+len("<d:sync-token>"):]
	tok = tok[:strings.Index(tok, "<")]
	delta := f.dav("REPORT", homeURL, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token>`+tok+
		`</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`)
	if strings.Count(delta.body, "<d:response>") != 1 || !strings.Contains(delta.body, name) || strings.Contains(delta.body, "404") {
		t.Fatalf("the delta after the completion:\n%s", delta.body)
	}
}
