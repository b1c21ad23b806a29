package app

import (
	"context"
	"time"
)

// Zone is a timezone by its IANA name, loaded.
type Zone struct {
	Name string
	Loc  *time.Location
}

// readerZone is the zone a reader's day is counted in: the account's, else
// the workspace's (when a workspace is in play), else the instance's. Dates
// people write ("tomorrow", "friday 9am") and the agenda's day resolve in it.
func readerZone(ctx context.Context, tx Tx, u User, ws *Workspace) (Zone, error) {
	name := u.Timezone
	if name == "" && ws != nil {
		name = ws.Timezone
	}
	if name == "" {
		inst, err := tx.Instance(ctx)
		if err != nil {
			return Zone{}, err
		}
		name = inst.Timezone
	}
	return loadZone(name), nil
}

// readerZoneName is readerZone's name in a scope, without a read: a
// workspace always has a zone of its own.
func (sc *scope) readerZoneName() string {
	if z := sc.acc.actor.User.Timezone; z != "" {
		return z
	}
	return sc.ws.Workspace.Timezone
}

// loadZone loads a stored zone name. Names are checked when they are
// stored; one the zone database no longer knows counts as UTC rather than
// failing every read that needs a day.
func loadZone(name string) Zone {
	loc, err := time.LoadLocation(name)
	if err != nil || name == "" {
		return Zone{Name: "UTC", Loc: time.UTC}
	}
	return Zone{Name: name, Loc: loc}
}
