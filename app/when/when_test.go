package when_test

import (
	"errors"
	"testing"
	"time"

	"tend/app/when"
	"tend/internal/testzone"
)

// now is Wednesday 2026-11-25 14:00 in Berlin.
func TestParseDate(t *testing.T) {
	loc := testzone.Load(t, "Europe/Berlin")
	now := time.Date(2026, 11, 25, 14, 0, 0, 0, loc)
	day := func(y int, m time.Month, d int) when.Moment {
		return when.Moment{Time: time.Date(y, m, d, 0, 0, 0, 0, loc), AllDay: true}
	}
	inst := func(y int, m time.Month, d, h, min int) when.Moment {
		return when.Moment{Time: time.Date(y, m, d, h, min, 0, 0, loc)}
	}
	for _, tc := range []struct {
		in   string
		want when.Moment
	}{
		{"today", day(2026, 11, 25)},
		{"Tomorrow", day(2026, 11, 26)},
		{"yesterday", day(2026, 11, 24)},
		{"tonight", inst(2026, 11, 25, 20, 0)},
		{"tonight at 10pm", inst(2026, 11, 25, 22, 0)},
		{"friday", day(2026, 11, 27)},
		{"wednesday", day(2026, 12, 2)}, // never today
		{"this wednesday", day(2026, 11, 25)},
		{"next friday", day(2026, 12, 4)},
		{"by fri", day(2026, 11, 27)},
		{"on monday", day(2026, 11, 30)},
		{"due thursday", day(2026, 11, 26)},
		{"in 3 days", day(2026, 11, 28)},
		{"in 2 weeks", day(2026, 12, 9)},
		{"in a month", day(2026, 12, 25)},
		{"in 2 hours", inst(2026, 11, 25, 16, 0)},
		{"next week", day(2026, 11, 30)},
		{"next month", day(2026, 12, 1)},
		{"next year", day(2027, 1, 1)},
		{"end of month", day(2026, 11, 30)},
		{"end of the week", day(2026, 11, 27)},
		{"end of year", day(2026, 12, 31)},
		{"2027-03-04", day(2027, 3, 4)},
		{"dec 5", day(2026, 12, 5)},
		{"5 dec", day(2026, 12, 5)},
		{"December 5th", day(2026, 12, 5)},
		{"5th of december 2027", day(2027, 12, 5)},
		{"nov 1", day(2027, 11, 1)}, // passed this year: next year's
		{"feb 29", day(2028, 2, 29)},
		{"friday 9am", inst(2026, 11, 27, 9, 0)},
		{"tomorrow at 17:30", inst(2026, 11, 26, 17, 30)},
		{"at 17:30", inst(2026, 11, 25, 17, 30)},
		{"at 9", inst(2026, 11, 25, 21, 0)},    // an hour alone: the next time the clock shows it
		{"at 3", inst(2026, 11, 25, 15, 0)},    // the afternoon's 3
		{"at 09", inst(2026, 11, 26, 9, 0)},    // a 24-hour clock: passed today, so tomorrow
		{"at 11am", inst(2026, 11, 26, 11, 0)}, // passed today: tomorrow
		{"next tuesday", day(2026, 12, 1)},     // the Tuesday of next week
		{"next wednesday", day(2026, 12, 2)},   // never today
		{"next thursday", day(2026, 12, 3)},
		{"next sunday", day(2026, 12, 6)},
		{"next mon", day(2026, 11, 30)},
		{"thursday next week", day(2026, 12, 3)},
		{"this weekend", day(2026, 11, 28)},
		{"next weekend", day(2026, 12, 5)},
		{"the day after tomorrow", day(2026, 11, 27)},
		{"day after tomorrow at 10am", inst(2026, 11, 27, 10, 0)},
		{"by the 15th", day(2026, 12, 15)},
		{"on the 25th", day(2026, 11, 25)},
		{"on the 1st at noon", inst(2026, 12, 1, 12, 0)},
		{"by the 5th of december", day(2026, 12, 5)},
		{"tomorrow morning", inst(2026, 11, 26, 9, 0)},
		{"friday afternoon", inst(2026, 11, 27, 14, 0)},
		{"next tuesday evening", inst(2026, 12, 1, 19, 0)},
		{"tomorrow evening at 7", inst(2026, 11, 26, 19, 0)},
		{"tomorrow morning at 8", inst(2026, 11, 26, 8, 0)},
		{"this evening", inst(2026, 11, 25, 19, 0)},
		{"this morning", inst(2026, 11, 25, 9, 0)},
		{"tonight at 8", inst(2026, 11, 25, 20, 0)},
		{"tonight at 8:30", inst(2026, 11, 25, 20, 30)},
		{"9:30 pm", inst(2026, 11, 25, 21, 30)},
		{"12am", inst(2026, 11, 26, 0, 0)},
		{"noon friday", inst(2026, 11, 27, 12, 0)},
		{"9am on friday", inst(2026, 11, 27, 9, 0)},
		{"2026-12-05T09:00:00Z", inst(2026, 12, 5, 10, 0)},
		{"tmrw", day(2026, 11, 26)},
		{"tmr at 9", inst(2026, 11, 26, 9, 0)},
		{"in the morning", inst(2026, 11, 26, 9, 0)}, // passed today: tomorrow's
		{"in the evening", inst(2026, 11, 25, 19, 0)},
		{"in the evening at 8", inst(2026, 11, 25, 20, 0)},
		{"at night", inst(2026, 11, 25, 20, 0)},
		{"tomorrow in the afternoon", inst(2026, 11, 26, 14, 0)},
		{"fri @ 7pm", inst(2026, 11, 27, 19, 0)},
		{"fri 7pm", inst(2026, 11, 27, 19, 0)},
		{"Mon next week", day(2026, 11, 30)},
		{"Tue in 2 weeks", day(2026, 12, 8)},
		{"friday in 1 week", day(2026, 12, 4)},
		{"due:eod", day(2026, 11, 25)},
		{"due:now", inst(2026, 11, 25, 14, 0)},
		{"due:20270415", day(2027, 4, 15)},
		{"due:jan", day(2027, 1, 1)},
		{"due:nov", day(2027, 11, 1)}, // this November has begun: the next one
		{"due:dec", day(2026, 12, 1)},
		{"due:2027-04-15", day(2027, 4, 15)},
		{"due:tomorrow", day(2026, 11, 26)},
		{"due:fri", day(2026, 11, 27)},
		{"due:eom", day(2026, 11, 30)},
		{"due:eoy", day(2026, 12, 31)},
		{"due:23rd", day(2026, 12, 23)},
		{"due:3wks", day(2026, 12, 16)},
		{"due:1day", day(2026, 11, 26)},
		{"due:9hrs", inst(2026, 11, 25, 23, 0)},
		{"due:2026-12-05T09:00:00Z", inst(2026, 12, 5, 10, 0)},
	} {
		got, err := when.ParseDate(tc.in, now, loc)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ParseDate(%q) = %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseDateRefusals(t *testing.T) {
	loc := testzone.Load(t, "Europe/Berlin")
	now := time.Date(2026, 11, 25, 14, 0, 0, 0, loc)
	for _, tc := range []struct {
		in     string
		offset int
	}{{"", 0}, {"someday", 0}, {"feb 30", 0}, {"tomorrow morrow", 9}, {"on the 3rd floor", 0}, {"in 3 fortnights", 0}, {"25:00", 0}, {"in 99999 years", 0},
		{"due:", 0}, {"due:eow", 0}, {"due:som", 0}, {"due:20271345", 0}, {"due:someday", 0}, {"due:23", 0}, {"due:9999y", 0}, {"morning", 0}, {"in the garden", 0}} {
		_, err := when.ParseDate(tc.in, now, loc)
		var se *when.SyntaxError
		if !errors.As(err, &se) || se.Offset != tc.offset || se.Input != tc.in {
			t.Errorf("ParseDate(%q) = %v, want a SyntaxError at %d", tc.in, err, tc.offset)
		}
	}
}

// TestSyntaxErrorText pins the words of a refusal, which reach clients in
// problem documents: the input quoted, or what Of names instead.
func TestSyntaxErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *when.SyntaxError
		want string
	}{
		{&when.SyntaxError{Input: "feb 30", Msg: "no such day"}, `no such day (at byte 0 of "feb 30")`},
		{&when.SyntaxError{Input: "a \"b\"", Offset: 2, Msg: "m"}, `m (at byte 2 of "a \"b\"")`},
		{&when.SyntaxError{Input: "long line", Offset: 5, Msg: "no title", Of: "the line"}, "no title (at byte 5 of the line)"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %s, want %s", got, tc.want)
		}
	}
	if got, want := when.SyntaxErrorf("x", 1, "bad %s", "y").Error(), `bad y (at byte 1 of "x")`; got != want {
		t.Errorf("SyntaxErrorf = %s, want %s", got, want)
	}
}

// A reader in Auckland just before midnight: "today" is their day, not
// the server's.
func TestParseTimeFarFromUTC(t *testing.T) {
	loc := testzone.Load(t, "Pacific/Auckland")
	now := time.Date(2026, 11, 25, 10, 45, 0, 0, time.UTC) // 23:45 on Nov 25 in Auckland
	for _, tc := range []struct {
		in   string
		want time.Time
		all  bool
	}{
		{"today", time.Date(2026, 11, 25, 0, 0, 0, 0, loc), true},
		{"tomorrow", time.Date(2026, 11, 26, 0, 0, 0, 0, loc), true},
		{"-7d", time.Date(2026, 11, 18, 0, 0, 0, 0, loc), true},
		{"+3 months", time.Date(2027, 2, 25, 0, 0, 0, 0, loc), true},
		{"2 weeks ago", time.Date(2026, 11, 11, 0, 0, 0, 0, loc), true},
		{"+36h", time.Date(2026, 11, 26, 22, 45, 0, 0, time.UTC), false},
		{"-90 min", time.Date(2026, 11, 25, 9, 15, 0, 0, time.UTC), false},
		{"now", now, false},
		{"next week", time.Date(2026, 11, 30, 0, 0, 0, 0, loc), true},
		{"2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, loc), true},
		{"2026-12-01T08:00:00Z", time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC), false},
	} {
		got, err := when.ParseTime(tc.in, now, loc)
		if err != nil || !got.Time.Equal(tc.want) || got.AllDay != tc.all {
			t.Errorf("ParseTime(%q) = %v %v, want %s all-day %v", tc.in, got, err, tc.want, tc.all)
		}
	}
	for _, bad := range []string{"+3m", "-x", "+", "3 parsecs ago", "+99999y"} {
		if _, err := when.ParseTime(bad, now, loc); err == nil {
			t.Errorf("ParseTime(%q) was read", bad)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		out  string
	}{{"30m", 30, "30m"}, {"1h30m", 90, "1h30m"}, {"2h", 120, "2h"}, {"1.5h", 90, "1h30m"}, {"1d", 480, "1d"},
		{"1w", 2400, "1w"}, {"90", 90, "1h30m"}, {"2H15MIN", 135, "2h15m"}, {"0", 0, "0m"}, {"1d2h", 600, "1d2h"}} {
		got, err := when.ParseDuration(tc.in)
		if err != nil || got != tc.want || when.FormatDuration(got) != tc.out {
			t.Errorf("ParseDuration(%q) = %d %v (%q), want %d %q", tc.in, got, err, when.FormatDuration(got), tc.want, tc.out)
		}
	}
	for _, bad := range []string{"", "h", "30x", "30m1h", "1h1h", "1..5h", "9999999999h", "-5m"} {
		if _, err := when.ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) was read", bad)
		}
	}
}

func TestGrammarsUseTheTables(t *testing.T) {
	for name, g := range map[string]when.Grammar{"date": when.DateGrammar, "duration": when.DurationGrammar, "filter": when.FilterGrammar} {
		if g.Description == "" || len(g.Examples) == 0 || len(g.Vocabulary) == 0 {
			t.Errorf("%s grammar is incomplete: %+v", name, g)
		}
	}
	loc := testzone.Load(t, "Europe/Berlin")
	now := time.Date(2026, 11, 25, 14, 0, 0, 0, loc)
	for _, ex := range when.DateGrammar.Examples {
		if _, err := when.ParseDate(ex, now, loc); err != nil {
			t.Errorf("date example %q: %v", ex, err)
		}
	}
	for _, ex := range when.FilterGrammar.Examples {
		if _, err := when.ParseTime(ex, now, loc); err != nil {
			t.Errorf("filter example %q: %v", ex, err)
		}
	}
	for _, ex := range when.DurationGrammar.Examples {
		if _, err := when.ParseDuration(ex); err != nil {
			t.Errorf("duration example %q: %v", ex, err)
		}
	}
}

// FuzzDate checks that no input panics or hangs, and that a moment read
// writes a canonical form that reads back the same; durations likewise.
func FuzzDate(f *testing.F) {
	for _, s := range []string{"tomorrow", "next fri 9am", "dec 5", "-7d", "1h30m", "next tuesday evening", "by the 15th", "the day after tomorrow",
		"this weekend", "tonight at 8", "at 4", "thursday next week", "by the weekend", "tomorrow morning at 8"} {
		f.Add(s)
	}
	loc := testzone.Load(f, "Pacific/Auckland")
	now := time.Date(2026, 11, 25, 10, 45, 0, 0, time.UTC)
	// writable: the moment is written back (in the reader's zone, or in UTC)
	// with a four-digit year. One outside that is read so that the app can
	// refuse it by name (instant_out_of_range), not written back.
	writable := func(m when.Moment) bool {
		for _, y := range []int{m.Time.UTC().Year(), m.Time.In(loc).Year()} {
			if y < 1 || y > 9999 {
				return false
			}
		}
		return true
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := when.ParseTime(s, now, loc); err == nil && writable(m) {
			again, err := when.ParseDate(m.String(), now, loc)
			if err != nil || !again.Equal(m) {
				t.Fatalf("%q: %q reads back as %v (%v)", s, m.String(), again, err)
			}
		}
		if d, err := when.ParseDuration(s); err == nil {
			if again, err := when.ParseDuration(when.FormatDuration(d)); err != nil || again != d {
				t.Fatalf("%q: %d minutes write as %q, read back as %d (%v)", s, d, when.FormatDuration(d), again, err)
			}
		}
	})
}
