package calfeed_test

import (
	"database/sql"
	"testing"

	"github.com/emersion/go-ical"

	"tend/web/webtest"
)

// events maps the feed's VEVENTs by UID.
func events(t *testing.T, cal *ical.Calendar) map[string]ical.Event {
	t.Helper()
	out := map[string]ical.Event{}
	for _, ev := range cal.Events() {
		uid, err := ev.Props.Text(ical.PropUID)
		if err != nil || uid == "" {
			t.Fatalf("event without UID: %v", err)
		}
		if _, dup := out[uid]; dup {
			t.Fatalf("UID %s twice", uid)
		}
		out[uid] = ev
	}
	return out
}

// text reads a text property of an event, failing when absent.
func text(t *testing.T, ev ical.Event, name string) string {
	t.Helper()
	p := ev.Props.Get(name)
	if p == nil {
		t.Fatalf("event has no %s", name)
	}
	v, err := p.Text()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return v
}

// rawSQL runs a statement on the test's database file, for what no API
// writes yet (issue 11's stored repeat rules).
func (e *env) rawSQL(q string, args ...any) {
	e.T.Helper()
	db, err := sql.Open("sqlite", e.DB.Path()+"?_pragma=busy_timeout(5000)")
	if err != nil {
		e.T.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(q, args...); err != nil {
		e.T.Fatal(err)
	}
}

// env is the shared test instance (webtest.Env) with this package's
// helpers as methods.
type env struct{ *webtest.Env }

func newEnv(t *testing.T) *env { return &env{webtest.New(t)} }
