package line_test

import (
	"testing"
	"time"

	"tend/app/line"
)

// TestRemind checks the reminders a line says and that words which say
// none stay in the title.
func TestRemind(t *testing.T) {
	loc, now := berlin(t)
	at := func(d, hm string) string {
		v, err := time.ParseInLocation("2006-01-02 15:04", d+" "+hm, loc)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC().Format(time.RFC3339)
	}
	cases := []struct {
		line, title string
		want        []string // "before:30m" or "at:<UTC instant>"
	}{
		{"Call remind 30m before", "Call", []string{"before:30m"}},
		{"Call remind 1h before", "Call", []string{"before:1h"}},
		{"Call remind me 2 hours before", "Call", []string{"before:2h"}},
		{"Call remind 1 day before", "Call", []string{"before:1d"}},
		{"Call remind 10m", "Call", []string{"before:10m"}},
		{"Call friday remind at 8:00", "Call", []string{"at:" + at("2026-11-27", "08:00")}},
		{"Call remind at 8:00", "Call", []string{"at:" + at("2026-11-26", "08:00")}},
		{"Call remind at 18:00", "Call", []string{"at:" + at("2026-11-25", "18:00")}},
		{"Call remind tomorrow 7pm", "Call", []string{"at:" + at("2026-11-26", "19:00")}},
		{"Call remind 5m before remind 1h before", "Call", []string{"before:5m", "before:1h"}},
		{"Fix the remind button", "Fix the remind button", nil},
		{"Call remind tomorrow", "Call remind", nil},
		{"remind", "remind", nil},
	}
	for _, c := range cases {
		res, err := line.Parse(c.line, now, loc)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		var got []string
		for _, r := range res.Reminders {
			if r.Before != "" {
				got = append(got, "before:"+r.Before)
			} else {
				got = append(got, "at:"+r.At.UTC().Format(time.RFC3339))
			}
		}
		if res.Title != c.title || len(got) != len(c.want) {
			t.Errorf("%q: title %q, reminders %v; want %q, %v", c.line, res.Title, got, c.title, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: reminders %v, want %v", c.line, got, c.want)
			}
		}
	}
}
