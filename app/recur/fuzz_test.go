package recur_test

import (
	"testing"
	"time"

	"tend/app/recur"
	"tend/internal/testzone"
)

// FuzzRepeat checks that no input panics or runs away, and that every
// rule read writes a canonical text and a description that read back to
// the same rule.
func FuzzRepeat(f *testing.F) {
	for _, s := range []string{"every day", "every other friday at 9am", "every 3 months on the last day", "every 2nd tuesday",
		"every year on feb 29", "every! 3 days", "2 weeks after done at 8:15", "every weekday until dec 31", "every week for 3 times",
		"FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "DTSTART;VALUE=DATE:20261124\nRRULE:FREQ=DAILY;UNTIL=20270101",
		"DTSTART;TZID=Pacific/Auckland:20260927T023000\nRRULE:FREQ=DAILY", "every workday", "every jan 27th", "every morning at 7",
		"every 14 days at 7am starting dec 1", "every day ending dec 31", "every second week", "every sunday evening", "every april 4"} {
		f.Add(s)
	}
	berlin := testzone.Load(f, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := recur.Parse(s, start, berlin)
		if err != nil {
			return
		}
		again, err := recur.Parse(r.String(), start, berlin)
		if err != nil || !again.Equal(r) {
			t.Fatalf("%q: String() %q reads back as %s (%v)", s, r.String(), again, err)
		}
		described, err := recur.Parse(r.Description(), r.Anchor(), r.Location())
		if err != nil || !described.Equal(r) {
			t.Fatalf("%q: description %q reads back as %s (%v), want %s", s, r.Description(), described, err, r)
		}
		occ, _ := r.Occurrences(time.Time{}, time.Time{}, 20)
		if len(occ) == 0 || !occ[0].Equal(r.Anchor()) {
			t.Fatalf("%q: first occurrence %v is not the anchor %s", s, occ, r.Anchor())
		}
	})
}

func BenchmarkOccurrences100(b *testing.B) {
	berlin := testzone.Load(b, "Europe/Berlin")
	r, err := recur.Parse("every other friday at 9am", time.Date(2026, 11, 21, 14, 0, 0, 0, berlin), berlin)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if occ, _ := r.Occurrences(time.Time{}, time.Time{}, 100); len(occ) != 100 {
			b.Fatal(len(occ))
		}
	}
}

func BenchmarkParseRepeat(b *testing.B) {
	berlin := testzone.Load(b, "Europe/Berlin")
	start := time.Date(2026, 11, 21, 14, 0, 0, 0, berlin)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := recur.Parse("every month on the last friday at 16:00 until 2027-06-30", start, berlin); err != nil {
			b.Fatal(err)
		}
	}
}
