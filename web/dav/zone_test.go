package dav

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"

	"tend/app"
	"tend/internal/golden"
)

// TestZoneGolden: a timed task with a zone is written with its TZID and a
// VTIMEZONE of that zone (a repeating one's reaching years ahead); a task
// in UTC stays in UTC with Z and no VTIMEZONE.
func TestZoneGolden(t *testing.T) {
	berlin, _ := time.LoadLocation("Europe/Berlin")
	due := time.Date(2026, time.December, 10, 9, 0, 0, 0, berlin).UTC()
	start := time.Date(2026, time.March, 2, 8, 30, 0, 0, berlin).UTC()
	made := time.Date(2026, time.December, 1, 10, 0, 0, 0, time.UTC)
	task := app.Task{ID: "t1", Title: "water the plants", Timezone: "Europe/Berlin", DueAt: &due, StartsAt: &start,
		Status: app.Status{VocabEntry: app.VocabEntry{Category: app.CategoryTodo}}, CreatedAt: made, UpdatedAt: made, Version: 1}
	o := app.DavObject{Task: task, DavRecord: app.DavRecord{TaskID: "t1", Name: "t1.ics", UID: "t1"}}
	got, err := encodeObject(o, "", "test")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "vtodo-zone.ics"), got)
	for _, line := range []string{"DUE;TZID=Europe/Berlin:20261210T090000", "DTSTART;TZID=Europe/Berlin:20260302T083000",
		"BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nTZNAME:CEST\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200",
		"BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nTZNAME:CET\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100"} {
		if !strings.Contains(string(got), line) {
			t.Errorf("lacks %q", line)
		}
	}
	cal, err := parseCalendar(got)
	if err != nil {
		t.Fatal(err)
	}
	at, err := cal.Children[1].Props.DateTime(ical.PropDue, time.UTC)
	if err != nil || !at.Equal(due) {
		t.Fatalf("DUE reads back as %v (%v), want %v", at, err, due)
	}

	task.RepeatRule = "FREQ=DAILY"
	if got, _ := encodeObject(app.DavObject{Task: task, DavRecord: o.DavRecord}, "", "test"); !strings.Contains(string(got), "DTSTART:20311026T030000") {
		t.Errorf("a repeating task's VTIMEZONE stops short:\n%s", got)
	}
	task.RepeatRule, task.Timezone = "", "UTC"
	got, _ = encodeObject(app.DavObject{Task: task, DavRecord: o.DavRecord}, "", "test")
	if !strings.Contains(string(got), "DUE:20261210T080000Z") || strings.Contains(string(got), "VTIMEZONE") {
		t.Errorf("a UTC task:\n%s", got)
	}
}

// TestTimezoneFor: a zone without changes of offset has one observance,
// and UTC none.
func TestTimezoneFor(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, tokyo)
	tz := timezoneFor(tokyo, at, at)
	if len(tz.Children) != 1 || tz.Children[0].Props.Get(ical.PropTimezoneOffsetTo).Value != "+0900" {
		t.Fatalf("Tokyo: %+v", tz.Children)
	}
	if timezoneFor(time.UTC, at, at) != nil {
		t.Fatal("a VTIMEZONE for UTC")
	}
}

func TestZoneNamed(t *testing.T) {
	for tzid, want := range map[string]string{
		"Europe/Berlin":                         "Europe/Berlin",
		"UTC":                                   "UTC",
		"/mozilla.org/20050126_1/Europe/Berlin": "Europe/Berlin",
		"/freeassociation.sourceforge.net/Europe/Berlin":                         "Europe/Berlin",
		"/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires": "America/Argentina/Buenos_Aires",
		"/softwarestudio.org/Olson_20011030_5/America/New_York":                  "America/New_York",
		"W. Europe Standard Time":                                                "", // Outlook's Windows names are not Go's
		"Local":                                                                  "",
		"":                                                                       "",
		"/":                                                                      "",
		"Europe/../../etc/passwd":                                                "",
		"Mars/Olympus_Mons":                                                      "",
		strings.Repeat("/x", 100000) + "/Europe/Berlin": "Europe/Berlin",
	} {
		if got := zoneNamed(tzid); got != want {
			t.Errorf("zoneNamed(%.60q) = %q, want %q", tzid, got, want)
		}
	}
}
