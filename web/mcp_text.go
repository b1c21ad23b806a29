package web

import (
	"strconv"
	"strings"
	"sync"
	"time"
)

// The compact text a tool gives the model: one aligned line per item, refs
// as #N, only the fields that matter, and a note when more rows exist.

func taskLines(ts []taskJSON, none string) string {
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = taskLine(t)
	}
	return linesOr(rows, "no "+none)
}

func documentLines(ds []documentJSON) string {
	rows := make([][]string, len(ds))
	for i, d := range ds {
		rows[i] = documentLine(d)
	}
	return linesOr(rows, "no documents")
}

// linesOr aligns rows, or says none when there are none.
func linesOr(rows [][]string, none string) string {
	if len(rows) == 0 {
		return none
	}
	return strings.Join(alignRows(rows), "\n")
}

// moreNote tells the model that more rows exist and how to reach them.
func moreNote(more bool, shown int, how string) string {
	if !more {
		return ""
	}
	return "\n(" + strconv.Itoa(shown) + " shown, more exist: " + how + ")"
}

func refText(ref *int64) string {
	if ref == nil {
		return ""
	}
	return "#" + itoa64(*ref)
}

// quoteLine is s on one line, at most n characters, quoted.
func quoteLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strconv.Quote(s)
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
		return at.In(cachedZone(itemZone)).Format(time.DateOnly)
	}
	loc := cachedZone(readerZone)
	return at.In(loc).Format("2006-01-02 15:04 ") + loc.String()
}

// zones holds the zones compact lines were written in, by name:
// time.LoadLocation reads the zone file on every call.
var zones sync.Map

// cachedZone is the named zone, UTC when the name is empty or unknown.
func cachedZone(name string) *time.Location {
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
