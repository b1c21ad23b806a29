package app

import "time"

// The instants tend accepts and stores: from the Unix epoch to the last
// millisecond of the year 9999, in UTC. Stored times are fixed-width text
// ("2006-01-02T15:04:05.000Z"), whose order is time order only for years
// of four digits; the epoch floor keeps out times no task or credential
// means. Every time that comes in, from a body, a filter or a cursor, is
// checked here.
var (
	MinInstant = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	MaxInstant = time.Date(9999, 12, 31, 23, 59, 59, 999_000_000, time.UTC)
)

// checkInstant refuses a time outside MinInstant..MaxInstant, naming loc.
// A nil time is no time and passes.
func checkInstant(loc string, t *time.Time) error {
	if t == nil {
		return nil
	}
	if u := t.UTC(); u.Before(MinInstant) || u.After(MaxInstant) {
		return FieldErrorf(CodeInstantOutOfRange, loc, "a time from %s to %s (UTC); got %s",
			MinInstant.Format(time.RFC3339), MaxInstant.Format(time.RFC3339), t.Format(time.RFC3339))
	}
	return nil
}

// checkPatchInstant is checkInstant for a field of a partial update.
func checkPatchInstant(loc string, p Patch[time.Time]) error {
	if !p.Set || p.Null {
		return nil
	}
	return checkInstant(loc, &p.Value)
}
