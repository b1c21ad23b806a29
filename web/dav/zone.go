package dav

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-ical"

	"tend/app"
	"tend/web/calfeed"
)

// zones is where a task's dates are written: a day in day (the task's
// zone, else the reader's), a time in at (the task's zone, with its TZID,
// so that a client expanding a rule keeps 9:00 at 9:00 across a change of
// offset; UTC, with Z, for a task without one).
type zones struct{ day, at *time.Location }

func zonesOf(t app.Task) zones {
	return zones{day: loadZone(t.Timezone, t.ReaderZone), at: loadZone(t.Timezone)}
}

// setWhen writes a DUE or DTSTART: a date (VALUE=DATE) or a date-time. It
// is the one writer of a task's dates.
func setWhen(p ical.Props, name string, at *time.Time, allDay bool, z zones) {
	switch {
	case at == nil:
	case allDay:
		p.SetDate(name, at.In(z.day))
	default:
		p.SetDateTime(name, at.In(z.at))
	}
}

// loadZone is the first of names that is a zone, else UTC. Zones are kept
// once loaded: time.LoadLocation reads the zone file each time.
func loadZone(names ...string) *time.Location {
	for _, n := range names {
		if n == "" {
			continue
		}
		if l, ok := locations.Load(n); ok {
			return l.(*time.Location)
		}
		if l, err := time.LoadLocation(n); err == nil {
			locations.Store(n, l)
			return l
		}
	}
	return time.UTC
}

var locations sync.Map

// zoneNamed is the zone of Go's zone data that a TZID names: the TZID
// itself, or the zone name of up to three parts it ends with after a
// prefix, as old Mozilla builds (/mozilla.org/20050126_1/Europe/Berlin) and
// libical (/freeassociation.sourceforge.net/Europe/Berlin) wrote them; ""
// when it names none. The VTIMEZONE an app sends with it is not read.
func zoneNamed(tzid string) string {
	// The whole TZID first, then its last three parts, two, one.
	try := []string{tzid, "", "", ""}
	for i, end := 3, len(tzid); i > 0; i-- {
		slash := strings.LastIndexByte(tzid[:end], '/')
		if slash < 0 {
			break
		}
		try[i], end = tzid[slash+1:], slash
	}
	for _, name := range try {
		if name == "" || name == "Local" {
			continue
		}
		if _, ok := locations.Load(name); ok {
			return name
		}
		if l, err := time.LoadLocation(name); err == nil {
			locations.Store(name, l)
			return name
		}
	}
	return ""
}

// repeatYears is how far past its dates a repeating task's VTIMEZONE
// reaches, for the occurrences a client expands from its rule.
const repeatYears = 5

// taskTimezone is the VTIMEZONE of a task's timed dates, nil when it has
// none or they are in UTC.
func taskTimezone(t app.Task, z zones) *ical.Component {
	var from, to *time.Time
	for _, d := range []struct {
		at     *time.Time
		allDay bool
	}{{t.DueAt, t.DueIsAllDay}, {t.StartsAt, t.StartsIsAllDay}} {
		if d.at == nil || d.allDay {
			continue
		}
		if from == nil || d.at.Before(*from) {
			from = d.at
		}
		if to == nil || d.at.After(*to) {
			to = d.at
		}
	}
	if from == nil {
		return nil
	}
	until := *to
	if t.RepeatRule != "" {
		until = until.AddDate(repeatYears, 0, 0)
	}
	return timezoneFor(z.at, *from, until)
}

// timezoneFor is the VTIMEZONE a calendar holding times in loc needs (RFC
// 5545 §3.6.5: every TZID it names is defined), covering the years of from
// to to; nil for UTC, which needs none.
func timezoneFor(loc *time.Location, from, to time.Time) *ical.Component {
	if loc == time.UTC {
		return nil
	}
	key := fmt.Sprintf("%s %d %d", loc, from.In(loc).Year(), to.In(loc).Year())
	if tz, ok := timezones.Load(key); ok {
		return tz.(*ical.Component)
	}
	start := time.Date(from.In(loc).Year(), time.January, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(to.In(loc).Year()+1, time.January, 1, 0, 0, 0, 0, time.UTC)
	tz, _ := timezones.LoadOrStore(key, calfeed.VTimezone(loc.String(), loc, start, end))
	return tz.(*ical.Component)
}

// timezones holds the VTIMEZONEs made, by zone and years: making one
// scans a day at a time, far longer than writing the task it goes with,
// and a list's tasks share a few. The encoder only reads them.
var timezones sync.Map
