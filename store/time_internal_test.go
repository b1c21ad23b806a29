package store

import (
	"testing"
	"time"
)

// TestParseStoredMatchesTimeParse: the hand-written reader of stored
// instants gives what time.Parse gives, and leaves to it whatever it does
// not accept (out-of-range fields, other layouts).
func TestParseStoredMatchesTimeParse(t *testing.T) {
	t.Parallel()
	in := []string{
		"2026-03-02T09:00:00.000Z", "2026-12-31T23:59:59.999Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.123Z",
		"2024-02-29T12:00:00.000Z", "2000-02-29T12:00:00.000Z", "1900-02-29T12:00:00.000Z", "2026-02-29T12:00:00.000Z",
		"2026-04-31T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-00-01T00:00:00.000Z", "2026-01-00T00:00:00.000Z",
		"2026-01-01T24:00:00.000Z", "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-01-01T00:00:00.00Z",
		"2026-01-01T00:00:00.000+", "2026-01-01 00:00:00.000Z", "2026-01-01T00:00:00.0a0Z", "+026-01-01T00:00:00.000Z",
		"2026-01-01T00:00:00Z", "2026-01-01T00:00:00.123456Z", "2026-01-01T01:00:00+01:00", "", "garbage",
	}
	for d := time.Date(2023, 12, 25, 0, 0, 0, 0, time.UTC); d.Year() < 2026; d = d.Add(7*time.Hour + 13*time.Minute + 17*time.Second + 389*time.Millisecond) {
		in = append(in, fmtTime(d))
	}
	for _, s := range in {
		want, err := time.Parse(timeLayout, s)
		got, ok := parseStored(s)
		if ok != (err == nil) || ok && !got.Equal(want) || ok && got.Location() != time.UTC {
			t.Errorf("parseStored(%q) = %v, %v; time.Parse: %v, %v", s, got, ok, want, err)
		}
	}
}
