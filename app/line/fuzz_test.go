package line_test

import (
	"strings"
	"testing"
	"time"

	"tend/app/line"
	"tend/internal/testzone"
)

// FuzzLine checks that no line panics or hangs, and that the canonical
// line (Format) reads back to the same result.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"Call the bank tomorrow 9am !4/3 ~30m #finance +home", "Fix #42 crash", `Read "every day" chapter`,
		`Post \#weekly`, "Gym every monday and thursday at 7am until dec 31"} {
		f.Add(s)
	}
	for _, c := range corpus {
		f.Add(c.in)
	}
	for _, c := range lineCases {
		f.Add(c.in)
	}
	loc := testzone.Load(f, "Pacific/Auckland")
	now := time.Date(2026, 11, 25, 10, 45, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		r, err := line.Parse(s, now, loc)
		if err != nil {
			return
		}
		for _, sp := range r.Spans {
			if s[sp.Start:sp.End] != sp.Text {
				t.Fatalf("%q: span %+v does not point at its text", s, sp)
			}
		}
		text := r.Format(now, loc)
		again, err := line.Parse(text, now, loc)
		if err != nil || !again.Equal(r) {
			t.Fatalf("%q: Format %q reads back as %+v (%v), want %+v", s, text, again, err, r)
		}
	})
}

// TestLongLine reads 10 KB lines built to make a careless parser
// backtrack; the test's own timeout is the bound.
func TestLongLine(t *testing.T) {
	loc, now := berlin(t)
	for _, unit := range []string{"every ", "every monday and ", "daily ", "weekly review ", "by the ", "in ", "#a ", `"`, "at ", "1st and ", "next ", `\`, "word "} {
		in := "Task " + strings.Repeat(unit, 10240/len(unit)) + " tomorrow"
		if _, err := line.Parse(in, now, loc); err != nil && !strings.Contains(err.Error(), "title") {
			t.Logf("%q…: %v", unit, err)
		}
	}
}

func BenchmarkParseLine(b *testing.B) {
	benchParse(b, "Call the bank tomorrow 9am about the loan !4/3 ~30m #finance +home")
}

func BenchmarkParseLineRepeat(b *testing.B) {
	benchParse(b, "Water the plants every other friday at 9am #home")
}

func BenchmarkParseLine10KB(b *testing.B) {
	benchParse(b, "Task "+strings.Repeat("every monday and ", 600)+" tomorrow")
}

// benchParse reads in as a captured line, in Berlin, b.N times.
func benchParse(b *testing.B, in string) {
	loc, now := berlin(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := line.Parse(in, now, loc); err != nil {
			b.Fatal(err)
		}
	}
}
