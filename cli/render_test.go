package cli_test

import (
	"bytes"
	"testing"
	"time"

	"tend/cli"
)

// TestWhen: dues as a person reads them, relative to a fixed clock in the
// reader's zone; an all-day due is its date in the zone it was written in.
func TestWhen(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// Monday 2 March 2026, 23:30 in Paris (22:30 UTC): midnight is half an hour away.
	p := cli.Printer{Now: time.Date(2026, 3, 2, 22, 30, 0, 0, time.UTC), Zone: paris}
	for _, c := range []struct {
		stamp   string
		allDay  bool
		zone    string
		want    string
		overdue bool
	}{
		{"2026-03-02T23:00:00Z", false, "", "tomorrow 00:00", false}, // after midnight in Paris
		{"2026-03-02T22:00:00Z", false, "", "today 23:00", true},
		{"2026-03-03T08:00:00Z", false, "", "tomorrow 09:00", false},
		{"2026-03-05T16:00:00Z", false, "", "thursday 17:00", false},
		{"2026-03-20T08:00:00Z", false, "", "2026-03-20 09:00", false},
		{"2026-03-01T08:00:00Z", false, "", "yesterday 09:00", true},
		{"2026-03-01T23:00:00Z", true, "Europe/Paris", "today", false}, // Paris midnight of the 2nd
		{"2026-03-03T00:00:00Z", true, "UTC", "tomorrow", false},
		{"2026-03-05T00:00:00Z", true, "UTC", "in 3 days", false},
		{"2026-02-27T00:00:00Z", true, "UTC", "3 days ago", true},
		{"2026-04-01T00:00:00Z", true, "UTC", "2026-04-01", false},
		{"not a time", false, "", "not a time", false},
	} {
		got, overdue := p.When(c.stamp, c.allDay, c.zone)
		if got != c.want || overdue != c.overdue {
			t.Errorf("When(%s, %v, %q) = %q, %v; want %q, %v", c.stamp, c.allDay, c.zone, got, overdue, c.want, c.overdue)
		}
	}
}

// TestPrinterTasksEmpty: an empty listing says so in every form a person
// or an agent reads, and is an empty array in JSON.
func TestPrinterTasksEmpty(t *testing.T) {
	for format, want := range map[string]string{cli.FormatHuman: "no tasks\n", cli.FormatCompact: "no tasks\n",
		cli.FormatJSON: `{"items":[],"page":{"has_more":false,"held_back":null,"limit":null,"next_cursor":null,"total":null,"unread":null}}` + "\n"} {
		var b bytes.Buffer
		p := cli.Printer{W: &b, Format: format, Now: time.Now(), Zone: time.UTC}
		if err := p.Tasks(t.Context(), cli.TaskPage{}); err != nil || b.String() != want {
			t.Errorf("format %q: %q, %v; want %q", format, b.String(), err, want)
		}
	}
}
