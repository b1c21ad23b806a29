// Package testzone loads the named time zones that tests read their dates
// in, so that a test states the zone it means and never depends on the
// machine's own.
package testzone

import (
	"testing"
	"time"
)

// Load returns the zone called name from the zone database, failing tb
// when the database lacks it.
func Load(tb testing.TB, name string) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		tb.Fatal(err)
	}
	return loc
}
