package line_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/app/line"
	"tend/internal/golden"
)

// goldenLine is what a line says, as the golden files pin it.
type goldenLine struct {
	Line        string       `json:"line"`
	Error       string       `json:"error,omitempty"`
	Title       string       `json:"title,omitempty"`
	Tags        []string     `json:"tags,omitempty"`
	Project     string       `json:"project,omitempty"`
	Importance  int          `json:"importance,omitempty"`
	Urgency     int          `json:"urgency,omitempty"`
	Estimate    *int         `json:"estimate_minutes,omitempty"`
	Due         string       `json:"due,omitempty"`
	DueAllDay   bool         `json:"due_is_all_day,omitempty"`
	Repeat      string       `json:"repeat,omitempty"`
	Description string       `json:"description,omitempty"`
	Spans       []goldenSpan `json:"spans,omitempty"`
}

// goldenSpan is a span as the golden files pin it.
type goldenSpan struct {
	Kind  line.Kind `json:"kind"`
	Start int       `json:"start"`
	End   int       `json:"end"`
	Text  string    `json:"text"`
	Value string    `json:"value"`
}

func goldenSpans(spans []line.Span) []goldenSpan {
	var out []goldenSpan
	for _, s := range spans {
		out = append(out, goldenSpan(s))
	}
	return out
}

// TestGolden reads each line of testdata/*.txt (at Wednesday 2026-11-25
// 14:00 in Berlin) and compares what it says with the .golden beside it;
// -update rewrites the goldens.
func TestGolden(t *testing.T) {
	loc, now := berlin(t)
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := readings(t, strings.Split(strings.TrimRight(string(raw), "\n"), "\n"), now, loc)
			golden.Check(t, strings.TrimSuffix(f, ".txt")+".golden", got)
		})
	}
}

// readings is what each line says, read at now in loc, as the golden
// files pin it: JSON, indented, one record a line.
func readings(t *testing.T, lines []string, now time.Time, loc *time.Location) []byte {
	t.Helper()
	var out []goldenLine
	for _, in := range lines {
		g := goldenLine{Line: in}
		r, err := line.Parse(in, now, loc)
		if err != nil {
			g.Error = err.Error()
		} else {
			g.Title, g.Tags, g.Project, g.Importance, g.Urgency, g.Estimate = r.Title, r.Tags, r.Project, r.Importance, r.Urgency, r.EstimateMinutes
			if !r.Due.IsZero() {
				g.Due, g.DueAllDay = r.Due.Format("2006-01-02T15:04:05Z07:00"), r.DueAllDay
			}
			g.Repeat, g.Description, g.Spans = r.Repeat.String(), r.Repeat.Description(), goldenSpans(r.Spans)
		}
		out = append(out, g)
	}
	got, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(got, '\n')
}
