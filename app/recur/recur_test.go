package recur_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tend/app/recur"
	"tend/internal/testzone"
)

func mustParse(t testing.TB, s string, start time.Time, loc *time.Location) recur.Rule {
	t.Helper()
	r, err := recur.Parse(s, start, loc)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return r
}

func TestParseRefusals(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin)
	for _, tc := range []struct{ in, msg string }{
		{"", "empty"},
		{"every", "does not start a repeat"},
		{"every banana", "does not start a repeat"},
		{"every day please", `"please" does not belong`},
		{"every year on feb 30", `"on" does not belong`},
		{"every day until yesterday", "ends before its first occurrence"},
		{"every! monday", "plain interval"},
		{"every 1000 days", "does not start a repeat"},
		{"the 1st of the month", "does not start a repeat"}, // a day, not a repeat
		{"on the 1st of every 1000 months", "does not start a repeat"},
		{"every 15th workday", "does not start a repeat"},
		{"every day for 2 weeks 3 times", `"3" does not belong`},
		{"FREQ=HOURLY", "daily, weekly, monthly or yearly"},
		{"FREQ=DAILY;BYSETPOS=1", "not one tend reads"},
		{"FREQ=DAILY;COUNT=2;UNTIL=20270101", "cannot both"},
		{"RRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY", "one RRULE"},
		{"DTSTART:20261121T090000Z", "no RRULE"},
		{"FREQ=MONTHLY;BYDAY=MO", "combination"},
		{"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "combination"},
		{"DTSTART;TZID=Mars/Olympus:20261121T090000\nRRULE:FREQ=DAILY", "known zone"},
	} {
		_, err := recur.Parse(tc.in, start, berlin)
		var se *recur.SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q) = %v, want a *SyntaxError", tc.in, err)
			continue
		}
		if !strings.Contains(se.Msg, tc.msg) || se.Input != tc.in {
			t.Errorf("Parse(%q): %q, want it to say %q", tc.in, se.Msg, tc.msg)
		}
	}
}

func TestParseRFCNormalised(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin) // a Saturday
	want := mustParse(t, "every other friday at 9am", start, berlin)
	for _, in := range []string{
		"FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0",
		"rrule:freq=weekly;interval=2;byday=fr;byhour=9;",
		"RRULE:FREQ=WEEKLY;BYDAY=FR;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0;WKST=MO",
		"DTSTART;TZID=Europe/Berlin:20261127T090000\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR",
		// a DTSTART the rule does not produce is moved to the first day it does
		"DTSTART;TZID=Europe/Berlin:20261121T090000\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9",
		want.String(),
	} {
		got := mustParse(t, in, start, berlin)
		if !got.Equal(want) {
			t.Errorf("Parse(%q) = %s, want %s", in, got, want)
		}
	}
	if a := want.Anchor(); !a.Equal(time.Date(2026, 11, 27, 9, 0, 0, 0, berlin)) {
		t.Errorf("anchor %s, want the coming Friday 9:00, not 13 days later", a)
	}
}

func TestRRuleUntil(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin)
	for _, tc := range []struct{ in, rrule, text string }{
		{"every day until dec 31", "FREQ=DAILY;UNTIL=20261231", "DTSTART;VALUE=DATE:20261121\nRRULE:FREQ=DAILY;UNTIL=20261231"},
		{"every day at 9am until dec 31", "FREQ=DAILY;UNTIL=20261231T225959Z;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
			"DTSTART;TZID=Europe/Berlin:20261122T090000\nRRULE:FREQ=DAILY;UNTIL=20261231T225959Z;BYHOUR=9;BYMINUTE=0;BYSECOND=0"},
		{"3 days after done", "FREQ=DAILY;INTERVAL=3", "DTSTART;VALUE=DATE:20261121\nRRULE:FREQ=DAILY;INTERVAL=3\nX-TEND-FROM-COMPLETION:TRUE"},
		{"every 2nd tuesday", "FREQ=MONTHLY;BYDAY=2TU", "DTSTART;VALUE=DATE:20261208\nRRULE:FREQ=MONTHLY;BYDAY=2TU"},
	} {
		r := mustParse(t, tc.in, start, berlin)
		if got := r.RRule(); got != tc.rrule {
			t.Errorf("%q: RRule() = %q, want %q", tc.in, got, tc.rrule)
		}
		if got := r.String(); got != tc.text {
			t.Errorf("%q: String() = %q, want %q", tc.in, got, tc.text)
		}
		if again := mustParse(t, r.String(), time.Time{}, berlin); !again.Equal(r) {
			t.Errorf("%q: String() reads back as %s", tc.in, again)
		}
	}
}

func TestWallClockAcrossDST(t *testing.T) {
	for _, name := range []string{"Europe/Berlin", "Pacific/Auckland", "America/New_York"} {
		loc := testzone.Load(t, name)
		r := mustParse(t, "every day at 9am", time.Date(2026, 1, 1, 0, 0, 0, 0, loc), loc)
		occ, more := r.Occurrences(time.Time{}, time.Date(2026, 12, 31, 23, 0, 0, 0, loc), 0)
		if len(occ) != 365 || more {
			t.Fatalf("%s: %d occurrences (more %v), want 365", name, len(occ), more)
		}
		for _, o := range occ {
			if h, m, _ := o.Clock(); h != 9 || m != 0 || o.Location() != loc {
				t.Fatalf("%s: occurrence %s is not 09:00 local", name, o)
			}
		}
	}
}

func TestOccurrencesWindow(t *testing.T) {
	utc := time.UTC
	r := mustParse(t, "every day", time.Date(2026, 1, 1, 0, 0, 0, 0, utc), utc)
	occ, more := r.Occurrences(time.Date(2026, 1, 10, 0, 0, 0, 0, utc), time.Date(2026, 1, 12, 0, 0, 0, 0, utc), 0)
	if len(occ) != 3 || more || occ[0].Day() != 10 {
		t.Errorf("window: %v more %v, want Jan 10, 11, 12", occ, more)
	}
	occ, more = r.Occurrences(time.Time{}, time.Time{}, 100)
	if len(occ) != 100 || !more {
		t.Errorf("limit 100: %d, more %v", len(occ), more)
	}
	occ, more = r.Occurrences(time.Time{}, time.Time{}, 5000)
	if len(occ) != recur.MaxOccurrences || !more {
		t.Errorf("limit past the cap: %d, more %v", len(occ), more)
	}
	bounded := mustParse(t, "every day for 3 times", time.Date(2026, 1, 1, 0, 0, 0, 0, utc), utc)
	occ, more = bounded.Occurrences(time.Time{}, time.Time{}, 3)
	if len(occ) != 3 || more {
		t.Errorf("a series of 3 asked for 3: %d, more %v", len(occ), more)
	}
	if _, ok := bounded.Next(occ[2]); ok {
		t.Error("Next after the last of a bounded series found one")
	}
	if n, ok := bounded.Next(occ[0]); !ok || !n.Equal(occ[1]) {
		t.Errorf("Next(first) = %s %v, want %s", n, ok, occ[1])
	}
}

func TestNextAfterCompletion(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin)
	done := time.Date(2026, 11, 26, 22, 30, 0, 0, berlin) // late on Thursday
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"every! 3 days", time.Date(2026, 11, 29, 0, 0, 0, 0, berlin)},
		{"3 days after done at 9am", time.Date(2026, 11, 29, 9, 0, 0, 0, berlin)},
		{"every! month", time.Date(2026, 12, 26, 0, 0, 0, 0, berlin)},
		{"2 weeks after completion", time.Date(2026, 12, 10, 0, 0, 0, 0, berlin)},
		// a scheduled rule goes on from the schedule: the first occurrence after the moment of completion
		{"every monday", time.Date(2026, 11, 30, 0, 0, 0, 0, berlin)},
	} {
		r := mustParse(t, tc.in, start, berlin)
		got, ok := r.NextAfterCompletion(done)
		if !ok || !got.Equal(tc.want) {
			t.Errorf("%q: NextAfterCompletion = %s %v, want %s", tc.in, got, ok, tc.want)
		}
	}
	ended := mustParse(t, "every! 3 days until nov 28", start, berlin)
	if _, ok := ended.NextAfterCompletion(done); ok {
		t.Error("a repeat from completion past its UNTIL brought another")
	}
	// the anchor of a month from completion is the start's day; the next keeps the month's end
	jan := mustParse(t, "every! month", time.Date(2027, 1, 31, 9, 0, 0, 0, berlin), berlin)
	if got, _ := jan.NextAfterCompletion(time.Date(2027, 1, 31, 18, 0, 0, 0, berlin)); got.Day() != 28 || got.Month() != 2 {
		t.Errorf("a month after Jan 31 is %s, want Feb 28", got)
	}
}

func TestRestart(t *testing.T) {
	utc := time.UTC
	r := mustParse(t, "every other friday for 4 times", time.Date(2026, 11, 21, 0, 0, 0, 0, utc), utc)
	moved, err := r.Restart(time.Date(2027, 3, 1, 0, 0, 0, 0, utc))
	if err != nil {
		t.Fatal(err)
	}
	if a := moved.Anchor(); !a.Equal(time.Date(2027, 3, 5, 0, 0, 0, 0, utc)) || moved.Count() != 4 {
		t.Errorf("restart: anchor %s count %d", a, moved.Count())
	}
	if _, err := (recur.Rule{}).Restart(time.Date(2027, 3, 1, 0, 0, 0, 0, utc)); err == nil {
		t.Error("restarting the zero rule worked")
	}
}
