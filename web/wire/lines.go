package wire

import (
	"strings"
	"sync"
	"time"
)

// TaskLines is one aligned compact line per task, or "no " + none.
func TaskLines(ts []Task, none string) string {
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = TaskLine(t)
	}
	return LinesOr(rows, "no "+none)
}

// LinesOr aligns rows, or says none when there are none.
func LinesOr(rows [][]string, none string) string {
	if len(rows) == 0 {
		return none
	}
	return strings.Join(AlignRows(rows), "\n")
}

// dueText is a due as a reader acts on it. An all-day due is its date,
// counted in the zone it was written in (it is stored as that zone's
// midnight, which in UTC is often the day before). A timed due is the
// reader's wall-clock time with the zone's name. A stamp that does not
// parse is shown as it is.
func dueText(stamp string, allDay bool, itemZone, readerZone string) string {
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return stamp
	}
	if allDay {
		if itemZone == "" {
			itemZone = readerZone
		}
		return at.In(Zone(itemZone)).Format(time.DateOnly)
	}
	loc := Zone(readerZone)
	return at.In(loc).Format("2006-01-02 15:04 ") + loc.String()
}

// zones holds the zones read so far, by name: time.LoadLocation reads the
// zone database on every call (some 50 µs), and a listing (compact lines,
// a page's rows) writes instants in each row's zone.
var zones sync.Map

// Zone is the named zone, UTC when the name is empty or unknown.
func Zone(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location)
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		l = time.UTC
	}
	zones.Store(name, l)
	return l
}

// DueOf is t's due as its reader acts on it (dueText).
func DueOf(t Task) string {
	return dueText(*t.DueAt, t.DueIsAllDay, Deref(t.Timezone), t.readerZone)
}
