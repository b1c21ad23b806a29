package app

import (
	"encoding/base64"
	"time"

	"tend/app/when"
)

// TimeFilter is a listing's created_at.gt, .gte, .lt and .lte as written:
// each an instant, a date or a relative phrase (docs/time.md, "Filter
// values"), resolved in the reader's zone at the walk's moment.
type TimeFilter struct {
	GT, GTE, LT, LTE string
}

func (f TimeFilter) String() string { return f.GT + "," + f.GTE + "," + f.LT + "," + f.LTE }

// resolve turns the bounds into instants. A day given to gt or lte stands
// for the whole day: its last millisecond, the precision events are
// stamped at; to gte or lt, its first.
func (f TimeFilter) resolve(z Zone, at time.Time) (TimeRange, error) {
	var out TimeRange
	var errs []error
	for _, b := range []struct {
		op     string
		v      string
		dst    **time.Time
		endDay bool
	}{{"gt", f.GT, &out.GT, true}, {"gte", f.GTE, &out.GTE, false}, {"lt", f.LT, &out.LT, false}, {"lte", f.LTE, &out.LTE, true}} {
		t, err := resolveTime("query.created_at."+b.op, b.v, z, at, b.endDay)
		*b.dst = t
		errs = append(errs, err)
	}
	return out, joinErrors(errs...)
}

// resolveTime reads one filter value with when.ParseTime in zone z at the
// moment at; "" is no bound. A whole day is its midnight in z, or with
// endOfDay its last millisecond. The instant must be one tend stores.
func resolveTime(loc, s string, z Zone, at time.Time, endOfDay bool) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	m, err := when.ParseTime(s, at, z.Loc)
	// A written instant or date the phrase reader refuses for its year is
	// still one: it is out of range, not unreadable.
	if t, perr := time.Parse(time.RFC3339, s); perr == nil {
		m, err = when.Moment{Time: t}, nil
	} else if d, perr := time.ParseInLocation(time.DateOnly, s, z.Loc); perr == nil {
		m, err = when.Moment{Time: d, AllDay: true}, nil
	}
	if err != nil {
		return nil, Invalidf(loc, "%s is an RFC 3339 time, a date, now, an offset (-7d, +3 months) or a date phrase (tomorrow, next week): %v", s, err)
	}
	t := m.Time.UTC()
	if m.AllDay && endOfDay {
		t = m.Time.AddDate(0, 0, 1).Add(-time.Millisecond).UTC()
	}
	if err := checkInstant(loc, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// walkStart is the moment a listing's relative filter values resolve at:
// the clock of the walk's first page, which its cursors carry, so that
// "-7d" or "now" means the same on every page of one walk however far the
// clock has moved. A cursor that cannot be read here is refused later, by
// the listing's own check.
func walkStart(cursor string, now time.Time) time.Time {
	if cursor == "" {
		return now
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return now
	}
	w, err := readCursor(b)
	if err != nil || w.Key.At == "" {
		return now
	}
	t, err := time.Parse(time.RFC3339Nano, w.Key.At)
	if err != nil || checkInstant("query.cursor", &t) != nil {
		return now
	}
	return t
}

// walkMark is the moment written into a cursor for walkStart.
func walkMark(at time.Time) string { return at.UTC().Format(time.RFC3339Nano) }
