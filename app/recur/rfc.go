package recur

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"tend/app/when"
)

// looksRFC tells RRULE text from a phrase.
func looksRFC(s string) bool {
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, p := range []string{"RRULE:", "DTSTART", "FREQ=", fromDoneProp} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// parseRFC reads RRULE text, normalised first because rrule-go's own
// reader is strict where writers are not: CRLF or LF line ends, any case,
// a trailing ';'. Lines: an optional DTSTART (VALUE=DATE, TZID=…, UTC or
// floating in loc), one RRULE (the "RRULE:" may be left out) and
// optionally X-TEND-FROM-COMPLETION:TRUE. Only the shapes the phrases make
// are read, so every rule read has a description. The anchor is the first
// occurrence at or after DTSTART, or after start when there is none.
func parseRFC(s string, start time.Time, loc *time.Location) (Rule, error) {
	r := Rule{interval: 1, loc: loc}
	var dtstart *time.Time
	var allDayStart, seenRule bool
	var until string
	off := 0
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		at := off
		off += len(line) + 1
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		raw, value, ok := strings.Cut(line, ":")
		if !ok {
			raw, value = "RRULE", line
		}
		name := strings.ToUpper(raw)
		var err error
		switch {
		case strings.HasPrefix(name, "DTSTART") && dtstart == nil:
			var t time.Time
			t, allDayStart, err = readDTStart(raw, value, loc)
			dtstart = &t
			if err == nil && !allDayStart {
				r.loc = t.Location()
			}
		case name == "RRULE" && !seenRule:
			seenRule = true
			until, err = r.readParts(value)
		case name == fromDoneProp && strings.EqualFold(strings.TrimSpace(value), "TRUE"):
			r.fromDone = true
		default:
			err = fmt.Errorf("tend reads one DTSTART, one RRULE and %s, not %q", fromDoneProp, raw)
		}
		if err != nil {
			return Rule{}, when.SyntaxErrorf(s, at, "%s", err)
		}
	}
	if !seenRule {
		return Rule{}, when.SyntaxErrorf(s, 0, "there is no RRULE")
	}
	if dtstart != nil {
		start = *dtstart
		if r.clock == nil && !allDayStart {
			r.clock = &when.Clock{Hour: start.In(r.loc).Hour(), Minute: start.In(r.loc).Minute()}
		}
	}
	if r.fromDone && (len(r.days) > 0 || len(r.monthDays) > 0) {
		return Rule{}, when.SyntaxErrorf(s, 0, "%s", errFromDoneShape)
	}
	if until != "" {
		m, err := readUntil(until, r.loc)
		if err != nil {
			return Rule{}, when.SyntaxErrorf(s, 0, "%s", err)
		}
		r.until = untilOf(m, r.clock != nil, r.loc)
	}
	if err := r.build(start); err != nil {
		return Rule{}, when.SyntaxErrorf(s, 0, "%s", err)
	}
	return r, nil
}

func readDTStart(raw, value string, loc *time.Location) (time.Time, bool, error) {
	value = strings.ToUpper(strings.TrimSpace(value))
	for _, p := range strings.Split(raw, ";")[1:] {
		k, v, _ := strings.Cut(p, "=")
		switch strings.ToUpper(k) {
		case "VALUE":
			if u := strings.ToUpper(v); u != "DATE" && u != "DATE-TIME" {
				return time.Time{}, false, fmt.Errorf("DTSTART: %q is not read", p)
			}
		case "TZID":
			l, err := time.LoadLocation(v)
			if err != nil || v == "" || v == "Local" {
				return time.Time{}, false, fmt.Errorf("DTSTART: %q is not a known zone", v)
			}
			loc = l
		default:
			return time.Time{}, false, fmt.Errorf("DTSTART: %q is not read", p)
		}
	}
	t, ok := readDateTime(value, loc)
	if !ok {
		return time.Time{}, false, fmt.Errorf("DTSTART: %q is not a date or date-time", value)
	}
	return t, len(value) == 8, nil
}

func readUntil(v string, loc *time.Location) (when.Moment, error) {
	t, ok := readDateTime(v, loc)
	if !ok {
		return when.Moment{}, fmt.Errorf("UNTIL: %q is not a date or date-time", v)
	}
	return when.Moment{Time: t, AllDay: len(v) == 8}, nil
}

// readDateTime reads an RFC 5545 DATE (YYYYMMDD, in loc) or DATE-TIME (in
// UTC with a Z, else in loc) within the years 1 to 9999.
func readDateTime(v string, loc *time.Location) (time.Time, bool) {
	var t time.Time
	var err error
	switch {
	case len(v) == 8:
		t, err = time.ParseInLocation("20060102", v, loc)
	case strings.HasSuffix(v, "Z"):
		t, err = time.Parse("20060102T150405Z", v)
	default:
		t, err = time.ParseInLocation("20060102T150405", v, loc)
	}
	return t, err == nil && t.Year() >= 1 && t.Year() <= 9999
}

// rfcFreq are the frequencies tend repeats at; nothing runs more often
// than daily.
var rfcFreq = map[string]rrule.Frequency{"DAILY": rrule.DAILY, "WEEKLY": rrule.WEEKLY, "MONTHLY": rrule.MONTHLY, "YEARLY": rrule.YEARLY}

var rfcDays = map[string]time.Weekday{"MO": time.Monday, "TU": time.Tuesday, "WE": time.Wednesday, "TH": time.Thursday,
	"FR": time.Friday, "SA": time.Saturday, "SU": time.Sunday}

// readParts reads an RRULE value into r and returns its UNTIL unread
// (its meaning depends on DTSTART, which may come later).
func (r *Rule) readParts(value string) (string, error) {
	var until string
	var hour, minute = -1, 0
	seenFreq := false
	seen := map[string]bool{}
	for _, part := range strings.Split(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(value)), ";"), ";") {
		k, v, ok := strings.Cut(part, "=")
		if !ok || v == "" || seen[k] {
			return "", fmt.Errorf("RRULE part %q is not KEY=VALUE once", part)
		}
		seen[k] = true
		var err error
		switch k {
		case "FREQ":
			r.freq, seenFreq = rfcFreq[v], true
			if _, ok := rfcFreq[v]; !ok {
				err = fmt.Errorf("FREQ=%s: tend repeats daily, weekly, monthly or yearly", v)
			}
		case "INTERVAL":
			r.interval, err = intIn(k, v, 1, MaxInterval)
		case "COUNT":
			r.count, err = intIn(k, v, 1, 9999)
		case "UNTIL":
			until = v
		case "BYMONTH":
			var m int
			m, err = intIn(k, v, 1, 12)
			r.month = time.Month(m)
		case "BYMONTHDAY":
			r.monthDays, err = monthDays(v)
		case "BYDAY":
			r.days, err = byDay(v)
		case "BYHOUR":
			hour, err = intIn(k, v, 0, 23)
		case "BYMINUTE":
			minute, err = intIn(k, v, 0, 59)
		case "BYSECOND":
			_, err = intIn(k, v, 0, 0)
		case "WKST":
			if v != "MO" {
				err = fmt.Errorf("WKST=%s: weeks start on Monday", v)
			}
		default:
			err = fmt.Errorf("RRULE part %s is not one tend reads", k)
		}
		if err != nil {
			return "", err
		}
	}
	if !seenFreq {
		return "", fmt.Errorf("an RRULE needs FREQ")
	}
	if hour >= 0 {
		r.clock = &when.Clock{Hour: hour, Minute: minute}
	} else if seen["BYMINUTE"] {
		return "", fmt.Errorf("BYMINUTE needs BYHOUR")
	}
	if seen["COUNT"] && until != "" {
		return "", fmt.Errorf("COUNT and UNTIL cannot both be given")
	}
	return until, r.checkShape()
}

// checkShape keeps the rule to the shapes the phrases make (and the
// describer can put into words).
func (r *Rule) checkShape() error {
	if r.freq == rrule.DAILY && slices.Equal(r.days, WorkWeek) || r.freq == rrule.DAILY && slices.Equal(r.days, Weekend) {
		r.freq = rrule.WEEKLY
	}
	ok := true
	switch r.freq {
	case rrule.DAILY:
		ok = len(r.days) == 0 && len(r.monthDays) == 0 && r.month == 0
	case rrule.WEEKLY:
		ok = len(r.monthDays) == 0 && r.month == 0
		for _, d := range r.days {
			ok = ok && d.N() == 0
		}
	case rrule.MONTHLY:
		ok = r.month == 0 && !(len(r.days) > 0 && len(r.monthDays) > 0) && len(r.days) <= 1
		if len(r.days) == 1 {
			ok = ok && r.days[0].N() != 0
		}
		if slices.Contains(r.monthDays, -1) {
			ok = ok && len(r.monthDays) == 1
		}
	case rrule.YEARLY:
		ok = len(r.days) == 0 && (r.month == 0) == (len(r.monthDays) == 0) && len(r.monthDays) <= 1
		if r.month != 0 {
			ok = ok && r.monthDays[0] > 0 && r.monthDays[0] <= time.Date(2028, r.month+1, 0, 0, 0, 0, 0, time.UTC).Day()
		}
	}
	if !ok {
		return fmt.Errorf("tend reads the repeats its phrases make; this combination of parts is not one of them")
	}
	return nil
}

func intIn(k, v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi || len(v) > 4 {
		return 0, fmt.Errorf("%s=%s: a number from %d to %d", k, v, lo, hi)
	}
	return n, nil
}

func monthDays(v string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(v, ",") {
		n, err := strconv.Atoi(s)
		if err != nil || len(s) > 3 || n == 0 || n < -1 || n > 31 {
			return nil, fmt.Errorf("BYMONTHDAY=%s: days 1 to 31, or -1 for the last", v)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func byDay(v string) ([]rrule.Weekday, error) {
	var out []rrule.Weekday
	for _, s := range strings.Split(v, ",") {
		if len(s) < 2 || len(s) > 4 {
			return nil, fmt.Errorf("BYDAY=%s: days like MO, 2TU or -1FR", v)
		}
		d, ok := rfcDays[s[len(s)-2:]]
		n := 0
		if p := s[:len(s)-2]; p != "" {
			var err error
			n, err = strconv.Atoi(p)
			ok = ok && err == nil && n != 0 && n >= -1 && n <= 5
		}
		if !ok {
			return nil, fmt.Errorf("BYDAY=%s: days like MO, 2TU or -1FR", v)
		}
		out = append(out, rruleDay(d, n))
	}
	return sortDays(out), nil
}
