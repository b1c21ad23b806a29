package recur_test

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"tend/app/recur"
)

// goldenRow is one phrase of testdata/golden.json, which
// testdata/gen_golden.py writes with python-dateutil: the expected rule and
// occurrences come from a second engine, never from rrule-go.
type goldenRow struct {
	Phrase         string `json:"phrase"`
	Start          string `json:"start"`
	RRule          string `json:"rrule"`
	Description    string `json:"description"`
	FromCompletion bool   `json:"from_completion"`
	Zones          map[string]struct {
		Rule        string   `json:"rule"`
		Occurrences []string `json:"occurrences"`
	} `json:"zones"`
}

func TestGoldenAgainstDateutil(t *testing.T) {
	raw, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []goldenRow
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) < 40 {
		t.Fatalf("golden has %d phrases, want at least 40", len(rows))
	}
	for _, row := range rows {
		for zone, want := range row.Zones {
			t.Run(row.Phrase+"/"+zone, func(t *testing.T) {
				loc, err := time.LoadLocation(zone)
				if err != nil {
					t.Fatal(err)
				}
				start, err := time.ParseInLocation("2006-01-02T15:04", row.Start, loc)
				if err != nil {
					t.Fatal(err)
				}
				got, err := recur.Parse(row.Phrase, start, loc)
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				wantRule, err := recur.Parse(want.Rule, start, loc)
				if err != nil {
					t.Fatalf("Parse(golden rule %q): %v", want.Rule, err)
				}
				if !got.Equal(wantRule) {
					t.Errorf("rule\n got %s\nwant %s", got, wantRule)
				}
				if d := got.Description(); d != row.Description {
					t.Errorf("description %q, want %q", d, row.Description)
				}
				if got.FromCompletion() != row.FromCompletion {
					t.Errorf("from completion %v, want %v", got.FromCompletion(), row.FromCompletion)
				}
				occ, _ := got.Occurrences(time.Time{}, time.Time{}, 8)
				if len(occ) != len(want.Occurrences) {
					t.Fatalf("%d occurrences, want %d: %v", len(occ), len(want.Occurrences), occ)
				}
				for i, w := range want.Occurrences {
					wt, err := time.Parse(time.RFC3339, w)
					if err != nil {
						t.Fatal(err)
					}
					if !occ[i].Equal(wt) {
						t.Errorf("occurrence %d: %s, want %s", i, occ[i].Format(time.RFC3339), w)
					}
					if occ[i].Location() != loc {
						t.Errorf("occurrence %d in %s, want %s", i, occ[i].Location(), loc)
					}
				}
				again, err := recur.Parse(got.Description(), got.Anchor(), loc)
				if err != nil || !again.Equal(got) {
					t.Errorf("description %q reads back as %v (%v)", got.Description(), again, err)
				}
			})
		}
	}
}
