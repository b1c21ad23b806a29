package line_test

import (
	"os"
	"strings"
	"testing"

	"tend/app/line"
)

// TestTimeDocReadings checks the table "What lines read as" in
// docs/time.md against the parser, row by row, at the moment it names
// (Wednesday 2026-11-25 14:00 in Berlin): the title, the due (a day is
// all-day, "none" is no due) and the repeat's description.
func TestTimeDocReadings(t *testing.T) {
	loc, now := berlin(t)
	raw, err := os.ReadFile("../../docs/time.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n### What lines read as\n")
	if !ok {
		t.Fatal(`docs/time.md has no section "What lines read as"`)
	}
	section, _, _ = strings.Cut(section, "\n#")
	rows := 0
	for _, l := range strings.Split(section, "\n") {
		cells := strings.Split(l, "|")
		if len(cells) != 6 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		rows++
		in := strings.Trim(strings.TrimSpace(cells[1]), "`")
		title, due, repeat := strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3]), strings.TrimSpace(cells[4])
		r, err := line.Parse(in, now, loc)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		got := "none"
		switch {
		case r.Due.IsZero():
		case r.DueAllDay:
			got = r.Due.In(loc).Format("Mon 2 Jan 2006")
		default:
			got = r.Due.In(loc).Format("Mon 2 Jan 2006 15:04")
		}
		if r.Title != title || got != due || r.Repeat.Description() != repeat {
			t.Errorf("%q reads as %q, due %s, repeat %q; docs/time.md says %q, %s, %q", in, r.Title, got, r.Repeat.Description(), title, due, repeat)
		}
	}
	if rows < 20 {
		t.Errorf("the table has %d rows; it had 22", rows)
	}
}
