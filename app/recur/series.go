package recur

import (
	"strconv"
	"strings"
	"time"
)

// SeriesFrom is the RRULE value that states the series from its
// occurrence at on, for a calendar that sees only that occurrence (a feed,
// a CalDAV resource): earlier occurrences are past and never need an
// EXDATE. A COUNT counts from the series' first occurrence, so it is
// written as the UNTIL of the last one. A rule that counts from completion
// has no schedule an RRULE could state, nor has a series that ends before
// at: ok is false for both. Without clock, a timed rule leaves its time of
// day to DTSTART (RFC 5545 takes BYHOUR and BYMINUTE from it when absent),
// for a reader given DTSTART in another zone than the rule's.
func (r Rule) SeriesFrom(at time.Time, clock bool) (rrule string, ok bool) {
	if r.IsZero() || r.FromCompletion() {
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
	if !clock && r.clock != nil {
		rr, _, _ = strings.Cut(rr, ";BYHOUR=")
	}
	return rr, true
}
