package recur_test

import (
	"testing"
	"time"

	"tend/app/recur"
	"tend/app/when"
	"tend/internal/testzone"
)

// TestParseCommonPhrases reads the repeats people bring from other apps
// (Todoist's "every workday", "every jan 27th", "every 14 days starting
// dec 1"; Google Calendar's "every April 4"), on Wednesday 2026-11-25
// 14:00 in Berlin.
func TestParseCommonPhrases(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 25, 14, 0, 0, 0, berlin)
	for _, tc := range []struct{ in, rrule, anchor string }{
		{"every workday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-11-25 00:00"},
		{"every workday at 8:30", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=8;BYMINUTE=30;BYSECOND=0", "2026-11-26 08:30"},
		{"every jan 27th", "FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=27", "2027-01-27 00:00"},
		{"every april 4", "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=4", "2027-04-04 00:00"},
		{"every 5 december", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=5", "2026-12-05 00:00"},
		{"every second week", "FREQ=WEEKLY;INTERVAL=2", "2026-11-25 00:00"},
		{"every third day", "FREQ=DAILY;INTERVAL=3", "2026-11-25 00:00"},
		{"every second tuesday", "FREQ=MONTHLY;BYDAY=2TU", "2026-12-08 00:00"},
		{"every morning", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "2026-11-26 09:00"},
		{"every evening", "FREQ=DAILY;BYHOUR=19;BYMINUTE=0;BYSECOND=0", "2026-11-25 19:00"},
		{"every evening at 8", "FREQ=DAILY;BYHOUR=20;BYMINUTE=0;BYSECOND=0", "2026-11-25 20:00"},
		{"every monday morning", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "2026-11-30 09:00"},
		{"every 14 days at 7am starting dec 1", "FREQ=DAILY;INTERVAL=14;BYHOUR=7;BYMINUTE=0;BYSECOND=0", "2026-12-01 07:00"},
		{"every other tuesday starting from dec 10", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-12-15 00:00"},
		{"every month from jan 15", "FREQ=MONTHLY", "2027-01-15 00:00"},
		{"every day starting tomorrow 9am", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "2026-11-26 09:00"},
		{"every week beginning on monday", "FREQ=WEEKLY", "2026-11-30 00:00"},
		{"every day ending dec 31", "FREQ=DAILY;UNTIL=20261231", "2026-11-25 00:00"},
		{"every friday till dec 18", "FREQ=WEEKLY;UNTIL=20261218;BYDAY=FR", "2026-11-27 00:00"},
		{"on the 1st of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-12-01 00:00"},
		{"the 15th of each month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-12-15 00:00"},
		{"by the 5th of every month", "FREQ=MONTHLY;BYMONTHDAY=5", "2026-12-05 00:00"},
		{"on the last day of every month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-11-30 00:00"},
		{"the 2nd tuesday of every other month", "FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU", "2026-12-08 00:00"},
		{"on the 1st of every 3 months at 9am", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "2026-12-01 09:00"},
		{"every day in the morning", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "2026-11-26 09:00"},
		{"every day at 10am starting friday for 8 weeks", "FREQ=DAILY;UNTIL=20270121T225959Z;BYHOUR=10;BYMINUTE=0;BYSECOND=0", "2026-11-27 10:00"},
		{"every monday for 3 months", "FREQ=WEEKLY;UNTIL=20270224;BYDAY=MO", "2026-11-30 00:00"},
	} {
		r := mustParse(t, tc.in, start, berlin)
		if got := r.RRule(); got != tc.rrule {
			t.Errorf("%q: RRule() = %q, want %q", tc.in, got, tc.rrule)
		}
		if got := r.Anchor().Format("2006-01-02 15:04"); got != tc.anchor {
			t.Errorf("%q: anchor %s, want %s", tc.in, got, tc.anchor)
		}
		if again := mustParse(t, r.Description(), r.Anchor(), berlin); !again.Equal(r) {
			t.Errorf("%q: description %q reads back as %s", tc.in, r.Description(), again)
		}
	}
}

func TestAt(t *testing.T) {
	berlin := testzone.Load(t, "Europe/Berlin")
	start := time.Date(2026, 11, 25, 14, 0, 0, 0, berlin)
	r := mustParse(t, "every month until 2027-03-26", start, berlin)
	timed, err := r.At(when.Clock{Hour: 9}, time.Date(2026, 11, 26, 9, 0, 0, 0, berlin))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := timed.Description(), "every month at 9:00 until 2027-03-26"; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	occ, _ := timed.Occurrences(time.Time{}, time.Time{}, 10)
	if len(occ) != 5 || !occ[4].Equal(time.Date(2027, 3, 26, 9, 0, 0, 0, berlin)) {
		t.Errorf("occurrences %v, want five, the last on the UNTIL day at 9:00", occ)
	}
	if _, err := (recur.Rule{}).At(when.Clock{}, start); err == nil {
		t.Error("the zero rule took a time")
	}
}
