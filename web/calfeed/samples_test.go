package calfeed_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"tend/app/recur"
	"tend/store/storetest"
	"tend/web/webtest"
)

// TestCalendarSamples builds one feed of each shape a calendar app must
// read, checks each with go-ical's reader, and when TEND_ICAL_SAMPLES
// names a directory writes them there for .ci/run's independent validator
// (web/calfeed/testdata/icalcheck.py, Debian's python3-icalendar).
func TestCalendarSamples(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ny, _ := time.LoadLocation("America/New_York")
	for _, k := range []string{"allday", "timed", "dst", "repeat", "escape", "long", "empty"} {
		e.OK(http.StatusCreated, http.MethodPost, "/v1/projects", e.Admin, map[string]any{"key": k, "title": k})
	}
	task := func(project string, body map[string]any) map[string]any {
		body["project"] = project
		return e.OK(http.StatusCreated, http.MethodPost, "/v1/tasks", e.Admin, body)
	}
	day := func(n int) string {
		return time.Date(2026, time.March, 2+n, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	}
	task("allday", map[string]any{"title": "All day", "due_at": day(1), "due_is_all_day": true})
	task("timed", map[string]any{"title": "Timed", "due_at": storetest.Epoch.Add(26 * time.Hour).Format(time.RFC3339)})
	escape := "Every escape: back\\slash; semi, comma\nnew line \"quotes\" colon: tab\there ünï ✓"
	task("escape", map[string]any{"title": strings.ReplaceAll(escape, "\n", " "), "description": escape, "due_at": day(2), "due_is_all_day": true})
	long := strings.Repeat("Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich. ", 80)[:5000]
	task("long", map[string]any{"title": "Long", "description": long, "due_at": day(3), "due_is_all_day": true})

	// A weekly 9am in New York from 2 March: the US changes to summer time on 8 March.
	dst := task("dst", map[string]any{"title": "Weekly sync", "due_at": time.Date(2026, 3, 2, 9, 0, 0, 0, ny).UTC().Format(time.RFC3339), "timezone": "America/New_York"})
	e.storeRule(dst["id"].(string), "DTSTART;TZID=America/New_York:20260302T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", ny)

	// A daily series: 3 March done, 4 March skipped, 5 March pending.
	done := task("repeat", map[string]any{"title": "Water plants", "due_at": day(1), "due_is_all_day": true})
	e.OK(http.StatusOK, http.MethodPost, "/v1/tasks/"+done["id"].(string)+"/complete", e.Admin, nil)
	skipped := task("repeat", map[string]any{"title": "Water plants", "due_at": day(2), "due_is_all_day": true})
	e.OK(http.StatusOK, http.MethodPatch, "/v1/tasks/"+skipped["id"].(string), e.Admin, map[string]any{"status": "cancelled"})
	pending := task("repeat", map[string]any{"title": "Water plants", "due_at": day(3), "due_is_all_day": true, "timezone": "UTC"})
	e.storeRule(pending["id"].(string), "DTSTART;VALUE=DATE:20260303\nRRULE:FREQ=DAILY;COUNT=10", time.UTC)

	feeds := map[string]webtest.FeedResponse{}
	for _, k := range []string{"allday", "timed", "dst", "repeat", "escape", "long", "empty"} {
		url, _ := e.Calendar(e.Admin, map[string]any{"title": "sample " + k, "audience": "workspace", "project": k})
		f := e.FetchFeed(url, nil)
		if f.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", k, f.Status, f.Body)
		}
		feeds[k] = f
		if dir := os.Getenv("TEND_ICAL_SAMPLES"); dir != "" {
			if err := os.WriteFile(filepath.Join(dir, k+".ics"), f.Body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	if n := len(feeds["empty"].Cal.Children); n != 0 || feeds["empty"].Cal.Props.Get(ical.PropProductID) == nil {
		t.Errorf("empty feed: %d components\n%s", n, feeds["empty"].Body)
	}
	for _, k := range []string{"allday", "timed", "escape", "long"} {
		if n := len(feeds[k].Cal.Events()); n != 1 {
			t.Errorf("%s: %d events", k, n)
		}
	}
	ev := feeds["escape"].Cal.Events()[0]
	if got := text(t, ev, ical.PropSummary); got != strings.ReplaceAll(escape, "\n", " ") {
		t.Errorf("escaped title read back as %q", got)
	}
	if got := text(t, ev, ical.PropDescription); !strings.HasSuffix(got, "\n\n"+escape) {
		t.Errorf("escaped description read back as %q", got)
	}
	if got := text(t, feeds["long"].Cal.Events()[0], ical.PropDescription); !strings.HasSuffix(got, long) {
		t.Errorf("a 5,000-character description does not survive folding")
	}

	// DST: the event keeps 9am New York time with a TZID, and the feed
	// describes the zone, summer time from 8 March included.
	cal := feeds["dst"].Cal
	sync := cal.Events()[0]
	start := sync.Props.Get(ical.PropDateTimeStart)
	if start.Params.Get(ical.PropTimezoneID) != "America/New_York" || start.Value != "20260302T090000" {
		t.Errorf("repeating timed DTSTART %v %v", start.Params, start.Value)
	}
	if rr := sync.Props.Get(ical.PropRecurrenceRule); rr == nil || !strings.HasPrefix(rr.Value, "FREQ=WEEKLY") {
		t.Errorf("RRULE %v", rr)
	}
	var tz *ical.Component
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone {
			tz = c
		}
	}
	if tz == nil || tz.Props.Get(ical.PropTimezoneID).Value != "America/New_York" {
		t.Fatalf("no VTIMEZONE for America/New_York:\n%s", feeds["dst"].Body)
	}
	found := false
	for _, o := range tz.Children {
		if o.Name == ical.CompTimezoneDaylight && o.Props.Get(ical.PropDateTimeStart).Value == "20260308T020000" &&
			o.Props.Get(ical.PropTimezoneOffsetFrom).Value == "-0500" && o.Props.Get(ical.PropTimezoneOffsetTo).Value == "-0400" {
			found = true
		}
	}
	if !found {
		t.Errorf("VTIMEZONE lacks the 8 March 2026 change:\n%s", feeds["dst"].Body)
	}

	// The series: done and skipped occurrences are events of their own; the
	// pending one carries the rule from itself on (COUNT written as UNTIL).
	evs := events(t, feeds["repeat"].Cal)
	if len(evs) != 3 {
		t.Fatalf("repeat: %d events, want 3", len(evs))
	}
	d := evs[done["id"].(string)+"@tend"]
	if text(t, d, ical.PropSummary) != "✓ Water plants" || d.Props.Get(ical.PropRecurrenceRule) != nil {
		t.Errorf("done occurrence: %q", text(t, d, ical.PropSummary))
	}
	sk := evs[skipped["id"].(string)+"@tend"]
	if st, _ := sk.Status(); st != ical.EventCancelled {
		t.Errorf("skipped occurrence STATUS %v, want CANCELLED", st)
	}
	p := evs[pending["id"].(string)+"@tend"]
	if rr := p.Props.Get(ical.PropRecurrenceRule); rr == nil || rr.Value != "FREQ=DAILY;UNTIL=20260312" {
		t.Errorf("pending RRULE %v", rr)
	}
	if v := p.Props.Get(ical.PropDateTimeStart).Value; v != "20260305" {
		t.Errorf("pending DTSTART %s", v)
	}
}

// storeRule stores a repeat rule the way issue 11 does (Rule.String() in
// repeat_rule, with the task's timezone).
func (e *env) storeRule(id, text string, loc *time.Location) {
	e.T.Helper()
	r, err := recur.Parse(text, storetest.Epoch, loc)
	if err != nil {
		e.T.Fatal(err)
	}
	e.rawSQL("UPDATE tasks SET repeat_rule = ?, timezone = ? WHERE id = ?", r.String(), loc.String(), id)
}
