package dav_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// alarm is a VALARM's lines.
func alarm(lines ...string) []string {
	return append(append([]string{"BEGIN:VALARM"}, lines...), "END:VALARM")
}

// reminders is the task's reminders as the API answers them, as JSON.
func (f *fix) reminders(ref string) (string, float64) {
	f.t.Helper()
	task := f.api(http.MethodGet, "/v1/tasks/"+ref, f.admin, nil, http.StatusOK)
	b, _ := json.Marshal(task["reminders"])
	return string(b), task["version"].(float64)
}

// TestDavValarm: the VALARMs a task app writes that tend models are the
// task's reminders, the rest are kept as written, each written back once,
// and a PUT of what a GET answered changes nothing.
func TestDavValarm(t *testing.T) {
	f := newFix(t)
	f.home()
	obj := homeURL + "alarms.ics"
	lines := []string{"SUMMARY:Call the plumber", "DUE:20260310T170000Z"}
	lines = append(lines, alarm("ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;RELATED=END:-PT30M")...)
	lines = append(lines, alarm("ACTION:AUDIO", "TRIGGER:-P1D")...)
	lines = append(lines, alarm("ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER;VALUE=DATE-TIME:20260309T080000Z")...)
	lines = append(lines, alarm("ACTION:EMAIL", "SUMMARY:s", "DESCRIPTION:d", "ATTENDEE:mailto:a@example.org", "TRIGGER:-PT5M")...)
	lines = append(lines, alarm("ACTION:DISPLAY", "DESCRIPTION:after", "TRIGGER;RELATED=END:PT10M")...)
	lines = append(lines, alarm("ACTION:DISPLAY", "DESCRIPTION:again", "TRIGGER:-PT2H", "REPEAT:2", "DURATION:PT5M")...)
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, vtodo("alarms@phone", lines...)), http.StatusCreated)

	ref := fmt.Sprint(f.open("Call the plumber")["ref"])
	want := `[{"before":"30m","fire_at":"2026-03-10T16:30:00Z"},{"before":"1d","fire_at":"2026-03-09T17:00:00Z"},` +
		`{"at":"2026-03-09T08:00:00Z","fire_at":"2026-03-09T08:00:00Z"}]`
	got, version := f.reminders(ref)
	if got != want {
		t.Fatalf("reminders %s\nwant %s", got, want)
	}

	get := f.dav(http.MethodGet, obj, f.user, f.admin, "")
	f.want(get, http.StatusOK, "TRIGGER;RELATED=END:-PT30M", "ACTION:AUDIO\r\nTRIGGER:-P1D", "TRIGGER;VALUE=DATE-TIME:20260309T080000Z",
		"ACTION:EMAIL", "TRIGGER;RELATED=END:PT10M", "REPEAT:2")
	if strings.Contains(get.body, "DESCRIPTION:Call the plumber") || strings.Contains(get.body, "X-TEND") {
		t.Fatalf("the app's alarms are not served as written:\n%s", get.body)
	}
	if n := strings.Count(get.body, "BEGIN:VALARM"); n != 6 {
		t.Fatalf("%d VALARMs, want 6\n%s", n, get.body)
	}

	again := f.dav(http.MethodPut, obj, f.user, f.admin, get.body, "If-Match", get.header.Get("ETag"))
	f.want(again, http.StatusNoContent)
	if got, v := f.reminders(ref); got != want || v != version {
		t.Fatalf("after a PUT of the GET: version %v (was %v), reminders %s", v, version, got)
	}
	if back := f.dav(http.MethodGet, obj, f.user, f.admin, ""); back.body != get.body {
		t.Fatalf("the object changed on a PUT of itself:\n%s\nwas\n%s", back.body, get.body)
	}

	// Reminders set in tend reach the app, in the unit tend holds them.
	tok := syncToken(t, f.sync(homeURL, "").body)
	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"reminders": []map[string]any{{"before": "60m"}}}, http.StatusOK)
	synced := f.dav("REPORT", homeURL, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">`+
		`<d:sync-token>`+tok+`</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/><c:calendar-data/></d:prop></d:sync-collection>`)
	f.want(synced, http.StatusMultiStatus, "alarms.ics", "TRIGGER;RELATED=END:-PT60M", "ACTION:EMAIL")
	if strings.Contains(synced.body, "-PT30M") {
		t.Fatalf("a removed reminder is still served:\n%s", synced.body)
	}
	get = f.dav(http.MethodGet, obj, f.user, f.admin, "")
	_, version = f.reminders(ref)
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, get.body), http.StatusNoContent)
	if got, v := f.reminders(ref); got != `[{"before":"60m","fire_at":"2026-03-10T16:00:00Z"}]` || v != version {
		t.Fatalf("60m read back: version %v (was %v), reminders %s", v, version, got)
	}

	// The object is the whole truth of what a VALARM can say.
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, vtodo("alarms@phone", "SUMMARY:Call the plumber", "DUE:20260310T170000Z")),
		http.StatusNoContent)
	if got, _ := f.reminders(ref); got != `[]` {
		t.Fatalf("a PUT without VALARMs left %s", got)
	}
	if get := f.dav(http.MethodGet, obj, f.user, f.admin, ""); strings.Contains(get.body, "VALARM") {
		t.Fatalf("VALARMs after a PUT without any:\n%s", get.body)
	}
}

// TestDavValarmUnsaid: a reminder a VALARM cannot say (before an all-day
// due, which fires at the person's reminder time) is not served, a PUT
// leaves it, and a relative VALARM on such a task is kept as written.
func TestDavValarmUnsaid(t *testing.T) {
	f := newFix(t)
	f.home()
	obj := homeURL + "day.ics"
	body := vtodo("day@phone", append([]string{"SUMMARY:Pay rent", "DUE;VALUE=DATE:20260310"},
		alarm("ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-PT15M")...)...)
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, body), http.StatusCreated)
	ref := fmt.Sprint(f.open("Pay rent")["ref"])
	if got, _ := f.reminders(ref); got != `[]` {
		t.Fatalf("a VALARM before an all-day due became %s", got)
	}
	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"reminders": []map[string]any{{"before": "1d"}}}, http.StatusOK)
	get := f.dav(http.MethodGet, obj, f.user, f.admin, "")
	if n := strings.Count(get.body, "BEGIN:VALARM"); n != 1 || !strings.Contains(get.body, "TRIGGER:-PT15M") {
		t.Fatalf("%d VALARMs, want the kept one only\n%s", n, get.body)
	}
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, body), http.StatusNoContent)
	if got, _ := f.reminders(ref); got != `[{"before":"1d","fire_at":"2026-03-09T09:00:00Z"}]` {
		t.Fatalf("a PUT removed a reminder it could not say: %s", got)
	}
}

// TestDavValarmRefused: VALARMs tend models are checked as the API checks
// reminders, and refused with its code.
func TestDavValarmRefused(t *testing.T) {
	f := newFix(t)
	f.home()
	lines := []string{"SUMMARY:Too many", "DUE:20260310T170000Z"}
	for i := range 11 {
		lines = append(lines, alarm("ACTION:DISPLAY", "DESCRIPTION:x", fmt.Sprintf("TRIGGER:-PT%dM", i+1))...)
	}
	f.want(f.dav(http.MethodPut, homeURL+"many.ics", f.user, f.admin, vtodo("many@phone", lines...)), http.StatusForbidden,
		"over_limit: ", "at most 10 reminders")
	far := vtodo("far@phone", append([]string{"SUMMARY:Far", "DUE:20260310T170000Z"}, alarm("ACTION:DISPLAY", "DESCRIPTION:x", "TRIGGER:-P61D")...)...)
	f.want(f.dav(http.MethodPut, homeURL+"far.ics", f.user, f.admin, far), http.StatusForbidden, "validation: ", "60 days")
	if tasks := f.homeTasks(); len(tasks) != 0 {
		t.Fatalf("a refused PUT made %v", tasks)
	}
}

// TestDavValarmRepeat: a repeating task's VALARM relative to its start,
// which tend serves as its due, is a reminder, and a change of it in the
// app changes the task's.
func TestDavValarmRepeat(t *testing.T) {
	f := newFix(t)
	f.home()
	obj := homeURL + "swim.ics"
	put := func(trigger string) string {
		return vtodo("swim", append([]string{"SUMMARY:Swim", "DUE:20260310T070000Z", "DTSTART:20260310T070000Z", "RRULE:FREQ=WEEKLY"},
			alarm("ACTION:DISPLAY", "DESCRIPTION:x", trigger)...)...)
	}
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, put("TRIGGER:-PT10M")), http.StatusCreated)
	ref := fmt.Sprint(f.open("Swim")["ref"])
	if got, _ := f.reminders(ref); got != `[{"before":"10m","fire_at":"2026-03-10T06:50:00Z"}]` {
		t.Fatalf("reminders %s", got)
	}
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, put("TRIGGER:-PT1H")), http.StatusNoContent)
	if got, _ := f.reminders(ref); got != `[{"before":"1h","fire_at":"2026-03-10T06:00:00Z"}]` {
		t.Fatalf("reminders after the change %s", got)
	}
	f.want(f.dav(http.MethodGet, obj, f.user, f.admin, ""), http.StatusOK, "TRIGGER:-PT1H")
}

// TestDavValarmIdentity: an app's alarm for a reminder is served as written
// while the task has that reminder, its start-relative TRIGGER rewritten
// once tend serves a start that is not the due, and not served once the
// reminder is gone; an acknowledgement an app sends before tend's firing
// withdraws it.
func TestDavValarmIdentity(t *testing.T) {
	f := newFix(t)
	f.home()
	obj := homeURL + "identity.ics"
	body := vtodo("identity@phone", append([]string{"SUMMARY:Water the tomatoes", "DUE:20260303T180000Z"},
		alarm("UID:a1", "X-WR-ALARMUID:a1", "ACTION:AUDIO", "ATTACH;VALUE=URI:Chord", "TRIGGER:-PT10M")...)...)
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, body), http.StatusCreated)
	ref := fmt.Sprint(f.open("Water the tomatoes")["ref"])

	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"starts_at": "2026-03-03T08:00:00Z"}, http.StatusOK)
	get := f.dav(http.MethodGet, obj, f.user, f.admin, "")
	f.want(get, http.StatusOK, "UID:a1", "ATTACH;VALUE=URI:Chord", "TRIGGER;RELATED=END:-PT10M")
	if strings.Contains(get.body, "TRIGGER:-PT10M") {
		t.Fatalf("a TRIGGER relative to a start that is not the due is served:\n%s", get.body)
	}

	// The phone rings a minute before tend would and is dismissed at once.
	f.clock.Set(time.Date(2026, 3, 3, 17, 49, 0, 0, time.UTC))
	acked := vtodo("identity@phone", append([]string{"SUMMARY:Water the tomatoes", "DUE:20260303T180000Z"},
		alarm("UID:a1", "ACTION:AUDIO", "TRIGGER:-PT10M", "ACKNOWLEDGED:20260303T175000Z")...)...)
	f.want(f.dav(http.MethodPut, obj, f.user, f.admin, acked), http.StatusNoContent)
	if got, _ := f.reminders(ref); got != `[{"before":"10m","fire_at":null}]` {
		t.Fatalf("an acknowledged reminder: %s", got)
	}
	// A later due is another occurrence, which fires.
	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"due_at": "2026-03-04T18:00:00Z"}, http.StatusOK)
	if got, _ := f.reminders(ref); got != `[{"before":"10m","fire_at":"2026-03-04T17:50:00Z"}]` {
		t.Fatalf("after the due moved on: %s", got)
	}

	f.api(http.MethodPatch, "/v1/tasks/"+ref, f.admin, map[string]any{"reminders": []map[string]any{{"before": "1h"}}}, http.StatusOK)
	get = f.dav(http.MethodGet, obj, f.user, f.admin, "")
	f.want(get, http.StatusOK, "TRIGGER;RELATED=END:-PT1H", "DESCRIPTION:Water the tomatoes")
	if strings.Contains(get.body, "UID:a1") {
		t.Fatalf("the alarm of a removed reminder is served:\n%s", get.body)
	}
}
