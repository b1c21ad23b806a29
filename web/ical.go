package web

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/emersion/go-ical"

	"tend/app"
	"tend/app/recur"
)

// feedWriter turns a feed into iCalendar text (RFC 5545). go-ical builds
// and escapes the properties and writes the components; three things it
// does not do are done here: folding lines at 75 octets (foldWriter), the
// VTIMEZONE a TZID needs (vtimezone), and a calendar with no events, which
// its Encode refuses (writeEmpty).
type feedWriter struct {
	publicURL string
	refresh   time.Duration
	version   string
	zones     map[string]*time.Location // zones a TZID names, for their VTIMEZONE
}

// encodeFeed writes f to w.
func encodeFeed(w io.Writer, f app.Feed, publicURL, version string, refresh time.Duration) error {
	fw := &feedWriter{publicURL: strings.TrimRight(publicURL, "/"), refresh: refresh, version: version, zones: map[string]*time.Location{}}
	cal := ical.NewCalendar()
	fw.calendarProps(cal.Props, f.Calendar.Title)
	var events []*ical.Component
	for _, t := range f.Tasks {
		events = append(events, fw.event(t, f.Zone.Loc).Component)
	}
	for _, name := range sortedKeys(fw.zones) {
		cal.Children = append(cal.Children, vtimezone(name, fw.zones[name], f.From.AddDate(-1, 0, 0), f.Now.AddDate(10, 0, 0)))
	}
	cal.Children = append(cal.Children, events...)
	out := &foldWriter{w: w}
	if len(cal.Children) == 0 {
		return writeEmpty(out, cal)
	}
	return ical.NewEncoder(out).Encode(cal)
}

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

// event is one task as a VEVENT. The UID is the task's id, so it is the
// same on every fetch and after a reset; SEQUENCE is the task's version
// and LAST-MODIFIED (and DTSTAMP, which RFC 5545 makes the last revision
// when the calendar has no scheduling METHOD other than PUBLISH) its
// updated_at, so both grow when the task changes.
func (fw *feedWriter) event(t app.Task, fallback *time.Location) *ical.Event {
	e := ical.NewEvent()
	e.Props.SetText(ical.PropUID, t.ID+"@tend")
	e.Props.SetDateTime(ical.PropDateTimeStamp, t.UpdatedAt.UTC())
	e.Props.SetDateTime(ical.PropLastModified, t.UpdatedAt.UTC())
	seq := ical.NewProp(ical.PropSequence)
	seq.Value = strconv.Itoa(t.Version)
	e.Props.Set(seq)
	summary := t.Title
	if t.Status.Category == app.CategoryDone {
		summary = "✓ " + summary
	}
	link := fw.itemURL(t)
	e.Props.Set(textProp(ical.PropSummary, summary))
	e.Props.Set(textProp(ical.PropDescription, description(t, link)))
	if t.Status.Category == app.CategoryCancelled {
		e.SetStatus(ical.EventCancelled)
	} else {
		e.SetStatus(ical.EventConfirmed)
	}
	if len(t.Tags) > 0 {
		cats := ical.NewProp(ical.PropCategories)
		cats.SetTextList(t.Tags)
		e.Props.Set(cats)
	}
	if link != "" {
		p := ical.NewProp(ical.PropURL)
		p.Value = link
		e.Props.Set(p)
	}
	loc := fallback
	if t.Timezone != "" {
		if l, err := time.LoadLocation(t.Timezone); err == nil {
			loc = l
		}
	}
	fw.dates(e, t, loc)
	return e
}

func description(t app.Task, link string) string {
	var b strings.Builder
	b.WriteString("#" + strconv.FormatInt(t.Ref, 10))
	if t.ProjectPath != "" {
		b.WriteString(" in " + t.ProjectPath)
	}
	b.WriteString(" · " + t.Status.Label)
	if t.Description != "" {
		b.WriteString("\n\n" + t.Description)
	}
	if link != "" {
		b.WriteString("\n\n" + link)
	}
	return b.String()
}

// itemURL links to the task when the instance knows its public address
// (a task id is a UUID: nothing in it needs escaping).
func (fw *feedWriter) itemURL(t app.Task) string {
	if fw.publicURL == "" {
		return ""
	}
	return fw.publicURL + "/v1/tasks/" + t.ID
}

// dates sets DTSTART, DTEND and RRULE. The event runs from starts_at (when
// set and before the due date) to the due date; an all-day due makes a
// VALUE=DATE event whose DTEND is the day after. A timed date is an
// instant in UTC, except on a repeating task, whose wall clock the rule
// keeps across DST: that one carries its TZID and the feed a VTIMEZONE.
func (fw *feedWriter) dates(e *ical.Event, t app.Task, loc *time.Location) {
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
		first := dateIn(begin, loc)
		e.Props.SetDate(ical.PropDateTimeStart, first)
		e.Props.SetDate(ical.PropDateTimeEnd, dateIn(*end, loc).AddDate(0, 0, 1))
	case repeats:
		if loc != time.UTC {
			fw.zones[loc.String()] = loc
		}
		e.Props.SetDateTime(ical.PropDateTimeStart, begin.In(loc))
		if !begin.Equal(*end) {
			e.Props.SetDateTime(ical.PropDateTimeEnd, end.In(loc))
		}
	default:
		e.Props.SetDateTime(ical.PropDateTimeStart, begin.UTC())
		if !begin.Equal(*end) {
			e.Props.SetDateTime(ical.PropDateTimeEnd, end.UTC())
		}
	}
	if repeats {
		p := ical.NewProp(ical.PropRecurrenceRule)
		p.Value = rule
		e.Props.Set(p)
	}
}

// dateIn is t's calendar day in loc, as a midnight in UTC so that
// formatting it never shifts the day.
func dateIn(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// repeatRule is the RRULE a pending occurrence carries: the series from
// this occurrence on. Earlier occurrences are task records of their own
// and events of their own (done, or cancelled when skipped), so the rule
// never needs an EXDATE. A COUNT counts from the series' first occurrence,
// so it is written as the UNTIL of its last one. A rule that counts from
// completion has no schedule an RRULE could state: only the pending
// occurrence is shown.
func repeatRule(t app.Task, at time.Time, loc *time.Location) (string, bool) {
	if t.RepeatRule == "" || t.Status.Category == app.CategoryDone || t.Status.Category == app.CategoryCancelled {
		return "", false
	}
	r, err := recur.Parse(t.RepeatRule, at, loc)
	if err != nil || r.FromCompletion() {
		return "", false
	}
	rr := r.RRule()
	if n := r.Count(); n > 0 {
		occ, _ := r.Occurrences(r.Anchor(), r.Anchor().AddDate(100, 0, 0), n)
		if len(occ) == 0 {
			return "", false
		}
		last := occ[len(occ)-1]
		if !last.After(at) {
			return "", false
		}
		until := "UNTIL=" + last.UTC().Format("20060102T150405Z")
		if r.AllDay() {
			until = "UNTIL=" + last.Format("20060102")
		}
		rr = strings.Replace(rr, "COUNT="+strconv.Itoa(n), until, 1)
	}
	return rr, true
}

// textEscaper escapes a TEXT value as RFC 5545 3.3.11 asks, as go-ical's
// SetText does; go-ical builds the value a rune at a time, which was a
// tenth of the time a 2,000-event feed took (BENCHMARKS.md).
var textEscaper = strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\n", `\n`)

// textProp is a TEXT property holding s, cleaned and escaped.
func textProp(name, s string) *ical.Prop {
	p := ical.NewProp(name)
	p.Value = textEscaper.Replace(clean(s))
	return p
}

// clean makes text fit a TEXT value: line ends become LF (escaped as \n by
// go-ical) and other control characters, which RFC 5545 does not allow,
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

// foldWriter folds content lines longer than 75 octets (RFC 5545 3.1):
// CRLF and a space before the octet that would pass 75, never inside a
// UTF-8 sequence. go-ical writes each line whole and never folds. Most
// lines are short and pass through as they are.
type foldWriter struct {
	w   io.Writer
	buf []byte
}

func (f *foldWriter) Write(p []byte) (int, error) {
	f.buf = f.buf[:0]
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
			f.buf = append(f.buf, line[:cut]...)
			f.buf = append(f.buf, "\r\n "...)
			line = line[cut:]
		}
		f.buf = append(f.buf, line...)
		if n >= 0 {
			f.buf = append(f.buf, "\r\n"...)
		}
		rest = next
	}
	if _, err := f.w.Write(f.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}
