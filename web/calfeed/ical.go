package calfeed

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"tend/app"
	"tend/app/recur"
)

// feedWriter turns a feed into iCalendar text (RFC 5545). The events are
// appended by hand (appendEvent); go-ical writes the calendar around them,
// its properties and the VTIMEZONE a TZID needs (VTimezone). Two things
// go-ical does not do are done here: folding lines at 75 octets (fold),
// and a calendar with no components, which its Encode refuses
// (writeEmpty).
type feedWriter struct {
	publicURL string
	refresh   time.Duration
	version   string
	zones     map[string]*time.Location // zones a TZID names, for their VTIMEZONE
	loaded    map[string]*time.Location // zones tasks name, loaded once a feed

	// Reused from event to event, so that writing one allocates nothing.
	event, desc, link []byte
}

// zone is the task's zone by name, else fallback. time.LoadLocation reads
// the zone file on every call, which was a third of a feed's time.
func (fw *feedWriter) zone(name string, fallback *time.Location) *time.Location {
	if name == "" {
		return fallback
	}
	if l, ok := fw.loaded[name]; ok {
		return l
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		l = fallback
	}
	fw.loaded[name] = l
	return l
}

// encodeFeed writes f as iCalendar text. The events are written by
// appendEvent and folded one by one into a buffer sized once (about what
// an event takes); the calendar around them (its properties and
// VTIMEZONEs) by go-ical. Building the 1 MB text in stages, each grown by
// doubling, was a third of a feed's memory (BENCHMARKS.md).
func encodeFeed(f app.Feed, publicURL, version string, refresh time.Duration) ([]byte, error) {
	fw := &feedWriter{publicURL: strings.TrimRight(publicURL, "/"), refresh: refresh, version: version,
		zones: map[string]*time.Location{}, loaded: map[string]*time.Location{}}
	events := make([]byte, 0, 600*len(f.Tasks))
	for _, t := range f.Tasks {
		fw.event = fw.appendEvent(fw.event[:0], t, f.Zone.Loc)
		events = fold(events, fw.event)
	}
	cal := ical.NewCalendar()
	fw.calendarProps(cal.Props, f.Calendar.Title)
	for _, name := range sortedKeys(fw.zones) {
		cal.Children = append(cal.Children, VTimezone(name, fw.zones[name], f.From.AddDate(-1, 0, 0), f.Now.AddDate(10, 0, 0)))
	}
	var wrap bytes.Buffer
	if len(cal.Children) == 0 {
		if err := writeEmpty(&wrap, cal); err != nil {
			return nil, err
		}
	} else if err := ical.NewEncoder(&wrap).Encode(cal); err != nil {
		return nil, err
	}
	// Every event goes before the calendar's END line, after the VTIMEZONEs.
	head, ok := bytes.CutSuffix(wrap.Bytes(), []byte(calendarEnd))
	if !ok {
		return nil, fmt.Errorf("ical: the calendar does not end with %q", calendarEnd)
	}
	out := fold(make([]byte, 0, len(head)+len(head)/32+len(events)+len(calendarEnd)), head)
	return append(append(out, events...), calendarEnd...), nil
}

const calendarEnd = "END:VCALENDAR\r\n"

func (fw *feedWriter) calendarProps(p ical.Props, title string) {
	p.SetText(ical.PropProductID, "-//tend//tend "+fw.version+"//EN")
	p.SetText(ical.PropVersion, "2.0")
	p.SetText(ical.PropCalendarScale, "GREGORIAN")
	p.SetText(ical.PropMethod, "PUBLISH")
	p.SetText(ical.PropName, clean(title))
	p.SetText("X-WR-CALNAME", clean(title))
	p.Get("X-WR-CALNAME").Params.Del(ical.ParamValue) // TEXT is what every reader assumes
	// RFC 7986 requires the VALUE parameter on REFRESH-INTERVAL, which
	// go-ical drops as the default type; X-PUBLISHED-TTL is Outlook's and
	// Apple's older name for the same hint.
	ttl := ical.NewProp(ical.PropRefreshInterval)
	ttl.Params.Set(ical.ParamValue, string(ical.ValueDuration))
	ttl.Value = duration(fw.refresh)
	p.Set(ttl)
	pub := ical.NewProp("X-PUBLISHED-TTL")
	pub.Value = duration(fw.refresh)
	p.Set(pub)
}

// duration writes a whole number of minutes as an RFC 5545 DURATION.
func duration(d time.Duration) string {
	m := int(d / time.Minute)
	if m%60 == 0 {
		return "PT" + strconv.Itoa(m/60) + "H"
	}
	return "PT" + strconv.Itoa(m) + "M"
}

// appendEvent appends one task as a VEVENT. The UID is the task's id, so
// it is the same on every fetch and after a reset; SEQUENCE is the task's
// version and LAST-MODIFIED (and DTSTAMP, which RFC 5545 makes the last
// revision when the calendar has no scheduling METHOD other than PUBLISH)
// its updated_at, so both grow when the task changes. Written by hand, not
// through go-ical's components: building a property map per event, then
// sorting and escaping it, was half the time of a 2,000-event feed
// (BENCHMARKS.md); the tests still read every feed back with go-ical.
// The lines are not folded yet (fold).
func (fw *feedWriter) appendEvent(b []byte, t app.FeedTask, fallback *time.Location) []byte {
	b = append(b, "BEGIN:VEVENT\r\nUID:"...)
	b = appendText(append(b, t.ID...), "@tend")
	b = append(b, "\r\nDTSTAMP:"...)
	at := len(b)
	b = t.UpdatedAt.UTC().AppendFormat(b, utcStamp)
	stamp := b[at:] // the same instant, written once
	b = append(append(b, "\r\nLAST-MODIFIED:"...), stamp...)
	b = strconv.AppendInt(append(b, "\r\nSEQUENCE:"...), int64(t.Version), 10)
	b = append(b, "\r\nSUMMARY:"...)
	if t.Status.Category == app.CategoryDone {
		b = append(b, "✓ "...)
	}
	b = appendText(b, t.Title)
	fw.link = fw.appendItemURL(fw.link[:0], t)
	fw.desc = appendDescription(fw.desc[:0], t, fw.link)
	b = appendText(append(b, "\r\nDESCRIPTION:"...), fw.desc)
	if t.Status.Category == app.CategoryCancelled {
		b = append(b, "\r\nSTATUS:CANCELLED"...)
	} else {
		b = append(b, "\r\nSTATUS:CONFIRMED"...)
	}
	if len(t.Tags) > 0 {
		b = append(b, "\r\nCATEGORIES:"...)
		for i, tag := range t.Tags {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendText(b, tag)
		}
	}
	if len(fw.link) > 0 {
		b = append(append(b, "\r\nURL:"...), fw.link...)
	}
	b = fw.appendDates(append(b, "\r\n"...), t, fw.zone(t.Timezone, fallback))
	b = appendAlarms(b, t)
	return append(b, "END:VEVENT\r\n"...)
}

const (
	utcStamp   = "20060102T150405Z"
	localStamp = "20060102T150405"
	dateStamp  = "20060102"
)

// appendDescription appends the text of the event's DESCRIPTION, not yet
// escaped: it is escaped whole, as one TEXT value.
func appendDescription(b []byte, t app.FeedTask, link []byte) []byte {
	b = strconv.AppendInt(append(b, '#'), t.Ref, 10)
	if t.ProjectPath != "" {
		b = append(append(b, " in "...), t.ProjectPath...)
	}
	b = append(append(b, " · "...), t.Status.Label...)
	if t.Description != "" {
		b = append(append(b, "\n\n"...), t.Description...)
	}
	if len(link) > 0 {
		b = append(append(b, "\n\n"...), link...)
	}
	return b
}

// appendItemURL appends the task's link when the instance knows its public
// address (a task id is a UUID: nothing in it needs escaping).
func (fw *feedWriter) appendItemURL(b []byte, t app.FeedTask) []byte {
	if fw.publicURL == "" {
		return b
	}
	return append(append(append(b, fw.publicURL...), "/v1/tasks/"...), t.ID...)
}

// appendDates appends DTSTART, DTEND and RRULE, each ending its line. The
// event runs from starts_at (when set and before the due date) to the due
// date; an all-day due makes a VALUE=DATE event whose DTEND is the day
// after. A timed date is an instant in UTC, except on a repeating task,
// whose wall clock the rule keeps across DST: that one carries its TZID
// and the feed a VTIMEZONE.
func (fw *feedWriter) appendDates(b []byte, t app.FeedTask, loc *time.Location) []byte {
	end, allDay := t.DueAt, t.DueIsAllDay
	if end == nil {
		end, allDay = t.StartsAt, t.StartsIsAllDay
	}
	begin := *end
	if t.StartsAt != nil && t.StartsAt.Before(*end) {
		begin = *t.StartsAt
	}
	rule, repeats := repeatRule(t, *end, loc)
	switch {
	case allDay:
		b = dateIn(begin, loc).AppendFormat(append(b, "DTSTART;VALUE=DATE:"...), dateStamp)
		b = dateIn(*end, loc).AddDate(0, 0, 1).AppendFormat(append(b, "\r\nDTEND;VALUE=DATE:"...), dateStamp)
		b = append(b, "\r\n"...)
	case repeats && loc != time.UTC:
		fw.zones[loc.String()] = loc
		tzid := ";TZID=" + loc.String() + ":"
		b = begin.In(loc).AppendFormat(append(append(b, "DTSTART"...), tzid...), localStamp)
		if !begin.Equal(*end) {
			b = end.In(loc).AppendFormat(append(append(b, "\r\nDTEND"...), tzid...), localStamp)
		}
		b = append(b, "\r\n"...)
	default:
		b = begin.UTC().AppendFormat(append(b, "DTSTART:"...), utcStamp)
		if !begin.Equal(*end) {
			b = end.UTC().AppendFormat(append(b, "\r\nDTEND:"...), utcStamp)
		}
		b = append(b, "\r\n"...)
	}
	if repeats {
		b = append(append(append(b, "RRULE:"...), rule...), "\r\n"...)
	}
	return b
}

// dateIn is t's calendar day in loc, as a midnight in UTC so that
// formatting it never shifts the day.
func dateIn(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// repeatRule is the RRULE a pending occurrence carries: the series from
// this occurrence on (Rule.SeriesFrom). Earlier occurrences are task
// records of their own and events of their own (done, or cancelled when
// skipped).
func repeatRule(t app.FeedTask, at time.Time, loc *time.Location) (string, bool) {
	if t.RepeatRule == "" || t.Status.Category == app.CategoryDone || t.Status.Category == app.CategoryCancelled {
		return "", false
	}
	r, err := recur.Parse(t.RepeatRule, at, loc)
	if err != nil {
		return "", false
	}
	return r.SeriesFrom(at, true)
}

// appendText appends s as a TEXT value: cleaned (clean) and escaped as
// RFC 5545 3.3.11 asks (backslash, semicolon, comma, newline).
func appendText[T ~string | ~[]byte](b []byte, s T) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' || c == 0x7f {
			return appendEscaped(b, clean(string(s)))
		}
	}
	return appendEscaped(b, s)
}

// appendEscaped appends s with RFC 5545's TEXT escapes.
func appendEscaped[T ~string | ~[]byte](b []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '\\':
			esc = `\\`
		case ';':
			esc = `\;`
		case ',':
			esc = `\,`
		case '\n':
			esc = `\n`
		default:
			continue
		}
		b = append(append(b, s[start:i]...), esc...)
		start = i + 1
	}
	return append(b, s[start:]...)
}

// clean makes text fit a TEXT value: line ends become LF (escaped as \n by
// appendText) and other control characters, which RFC 5545 does not allow,
// are dropped.
func clean(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' || r == 0x7f }) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\n' || r == '\t':
			return r
		case r < 0x20 || r == 0x7f:
			return -1
		}
		return r
	}, s)
}

// writeEmpty writes a calendar with no components, which go-ical's
// encoder refuses but RFC 7986 clients accept as "nothing scheduled".
func writeEmpty(w io.Writer, cal *ical.Calendar) error {
	var b bytes.Buffer
	b.WriteString("BEGIN:VCALENDAR\r\n")
	for _, name := range sortedKeys(cal.Props) {
		for _, p := range cal.Props[name] {
			b.WriteString(p.Name)
			for _, pn := range sortedKeys(p.Params) {
				b.WriteString(";" + pn + "=" + strings.Join(p.Params[pn], ","))
			}
			b.WriteString(":" + p.Value + "\r\n")
		}
	}
	b.WriteString("END:VCALENDAR\r\n")
	_, err := w.Write(b.Bytes())
	return err
}

// fold appends p with its content lines longer than 75 octets folded
// (RFC 5545 3.1): CRLF and a space before the octet that would pass 75,
// never inside a UTF-8 sequence. go-ical writes each line whole and never
// folds. Most lines are short and pass through as they are.
func fold(b, p []byte) []byte {
	for rest := p; len(rest) > 0; {
		n := bytes.Index(rest, []byte("\r\n"))
		line, next := rest, []byte(nil)
		if n >= 0 {
			line, next = rest[:n], rest[n+2:]
		}
		for limit := 75; len(line) > limit; limit = 74 {
			cut := limit
			for cut > 0 && !utf8.RuneStart(line[cut]) {
				cut--
			}
			b = append(append(b, line[:cut]...), "\r\n "...)
			line = line[cut:]
		}
		b = append(b, line...)
		if n >= 0 {
			b = append(b, "\r\n"...)
		}
		rest = next
	}
	return b
}
