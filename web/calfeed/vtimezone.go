package calfeed

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/emersion/go-ical"
)

// VTimezone describes a zone for a TZID (RFC 5545 3.6.5), which go-ical
// leaves to the caller. Go's zone database does not expose its rules, so
// the transitions between from and until are found by scanning offsets a
// day apart and narrowing each change to the second; each becomes one
// STANDARD or DAYLIGHT observance with its exact instant. The first
// observance states the offset in force at from, so every date in the
// window is covered. Clients that know the IANA name use it; the rest
// read these. CalDAV's resources (web/dav) use it too.
func VTimezone(name string, loc *time.Location, from, until time.Time) *ical.Component {
	tz := ical.NewComponent(ical.CompTimezone)
	tz.Props.SetText(ical.PropTimezoneID, name)
	from = from.Truncate(24 * time.Hour)
	_, off := from.In(loc).Zone()
	tz.Children = append(tz.Children, observance(loc, from, off))
	for t := from; t.Before(until); {
		next := t.Add(24 * time.Hour)
		_, o := next.In(loc).Zone()
		if o == off {
			t = next
			continue
		}
		at := transition(loc, t, next)
		tz.Children = append(tz.Children, observance(loc, at, off))
		_, off = at.In(loc).Zone()
		t = next
	}
	return tz
}

// transition finds the first second in (lo, hi] whose offset differs from lo's.
func transition(loc *time.Location, lo, hi time.Time) time.Time {
	_, base := lo.In(loc).Zone()
	for hi.Sub(lo) > time.Second {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if _, o := mid.In(loc).Zone(); o == base {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// observance is the rule in force from at: its DTSTART is local time in the
// offset that held before (fromOff), as RFC 5545 asks.
func observance(loc *time.Location, at time.Time, fromOff int) *ical.Component {
	abbr, to := at.In(loc).Zone()
	kind := ical.CompTimezoneStandard
	if at.In(loc).IsDST() {
		kind = ical.CompTimezoneDaylight
	}
	c := ical.NewComponent(kind)
	start := ical.NewProp(ical.PropDateTimeStart)
	start.Value = at.In(time.FixedZone("", fromOff)).Format("20060102T150405")
	c.Props.Set(start)
	for prop, off := range map[string]int{ical.PropTimezoneOffsetFrom: fromOff, ical.PropTimezoneOffsetTo: to} {
		p := ical.NewProp(prop)
		p.Value = utcOffset(off)
		c.Props.Set(p)
	}
	c.Props.SetText(ical.PropTimezoneName, abbr)
	return c
}

// utcOffset writes seconds east of UTC as RFC 5545's UTC-OFFSET (±hhmm[ss]).
func utcOffset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	s := fmt.Sprintf("%s%02d%02d", sign, sec/3600, sec/60%60)
	if sec%60 != 0 {
		s += fmt.Sprintf("%02d", sec%60)
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
