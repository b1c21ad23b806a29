package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"

	"tend/app"
)

// local_date(instant, zone) is the calendar date ("2006-01-02") of a stored
// instant in an IANA zone. SQLite knows no zones, and an all-day due is
// midnight in its task's own zone, which no fixed shift of UTC maps back to
// its date for every zone (the offsets span 26 hours). An unknown zone
// counts as UTC, as the app's loadZone does.
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("local_date", 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		s, _ := args[0].(string)
		name, _ := args[1].(string)
		t, err := time.Parse(timeLayout, s)
		if err != nil {
			return nil, nil
		}
		return t.In(zoneNamed(name)).Format(time.DateOnly), nil
	})
}

var zones sync.Map // name → *time.Location

// zoneNamed loads a zone once per process: time.LoadLocation reads the
// zone database each time.
func zoneNamed(name string) *time.Location {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location)
	}
	l, err := time.LoadLocation(name)
	if err != nil || name == "" {
		l = time.UTC
	}
	zones.Store(name, l)
	return l
}

// mineSQL tests whether the task aliased a is the viewer's to act on: held
// by the viewer, or neither held by another worker nor assigned to another
// account.
func mineSQL(a string) string {
	held := a + ".claimed_by IS NOT NULL AND " + a + ".claim_expires_at > :now"
	return "((" + held + " AND " + a + ".claimed_by = :viewer) OR (NOT (" + held + ") AND (" + a + ".assignee_id IS NULL OR " +
		a + ".assignee_id = :viewer)))"
}

// blockedByOthersSQL tests for an open, live, readable task that blocks t
// and is not the viewer's to act on.
func blockedByOthersSQL(allReadable bool) string {
	return `(t.links_in > 0 AND EXISTS (SELECT 1 FROM links l JOIN link_types lt ON lt.id = l.link_type_id JOIN tasks b ON b.id = l.source_id
		WHERE l.target_id = t.id AND lt.key = 'blocks' AND b.completed_at IS NULL AND b.deleted_at IS NULL
		AND ` + farEndReadable(allReadable) + ` AND NOT ` + mineSQL("b") + `))`
}

// agendaSectionSQL places one open task in exactly one section of the
// agenda, first match wins (docs/agenda.md). An all-day due is compared as
// its date in the task's zone; a timed due as an instant against the
// day's bounds in the asked zone.
func agendaSectionSQL(allReadable bool) string {
	allDay := "t.due_is_all_day AND t.due_at IS NOT NULL"
	day := "local_date(t.due_at, coalesce(nullif(t.timezone, ''), :zone))"
	event := "t.type_id IN (SELECT value FROM json_each(:occasion))"
	// An all-day due written in the asked zone is that zone's midnight, so
	// the instant bounds place it without asking the zone database.
	otherZone := "coalesce(nullif(t.timezone, ''), :zone) <> :zone"
	when := func(dated, timed string) string {
		return "CASE WHEN " + allDay + " AND " + otherZone + " THEN " + dated + " ELSE " + timed + " END"
	}
	return `CASE
	WHEN NOT ` + mineSQL("t") + ` THEN CASE WHEN t.created_by = :viewer AND (t.snoozed_until IS NULL OR t.snoozed_until <= :now) THEN 'waiting' ELSE 'elsewhere' END
	WHEN t.snoozed_until > :now THEN 'deferred'
	WHEN t.project_id NOT IN (SELECT value FROM json_each(:active)) THEN 'paused'
	WHEN ` + blockedByOthersSQL(allReadable) + ` THEN 'blocked_by_others'
	WHEN t.status_id IN (SELECT value FROM json_each(:working)) THEN 'in_progress'
	WHEN t.due_at IS NULL THEN 'unscheduled'
	WHEN ` + when(day+" < :date", "t.due_at < :start") + ` THEN CASE WHEN ` + event + ` THEN 'passed' ELSE 'overdue' END
	WHEN ` + when(day+" = :date", "t.due_at < :end") + ` THEN CASE WHEN ` + event + ` THEN 'occasions' ELSE 'today' END
	WHEN ` + when(day+" <= :horizon_date", "t.due_at < :horizon") + ` THEN 'upcoming'
	ELSE 'later' END`
}

// agendaSQL is the statement of Agenda: one pass over the reader's open
// tasks, each placed in its section by agendaSectionSQL and handed to the
// agenda_place aggregate, which counts every section and keeps the first
// q.Cap of each list in its order.
func agendaSQL(q app.AgendaPlan) (string, []any) {
	b := newItemQuery(q.Readable, "")
	b.args = append(b.args, sql.Named("now", fmtTime(q.Now)), sql.Named("viewer", q.ViewerID), sql.Named("zone", q.Zone),
		sql.Named("date", q.Date), sql.Named("horizon_date", q.HorizonDate), sql.Named("start", fmtTime(q.Start)),
		sql.Named("end", fmtTime(q.End)), sql.Named("horizon", fmtTime(q.Horizon)),
		sql.Named("occasion", jsonText(q.OccasionTypeIDs)), sql.Named("active", jsonText(q.ActiveProjectIDs)),
		sql.Named("working", jsonText(q.WorkingStatusIDs)))
	b.add("t.workspace_id = " + b.arg(q.WorkspaceID))
	if !q.AllReadable {
		b.add("t.project_id IN readable")
	}
	b.add("t.completed_at IS NULL AND t.deleted_at IS NULL")
	query := strings.TrimSuffix(readableCTE, " ") + ` SELECT agenda_place(` + agendaSectionSQL(q.AllReadable) + `, t.id,
		coalesce(t.importance, 3) * 10 + coalesce(t.urgency, 3), t.due_at, t.ref, ` + b.arg(q.Cap) + `)
		FROM tasks t WHERE ` + b.conds()
	return query, b.args
}

// Agenda places the reader's open, live, readable tasks in the agenda's
// sections in one statement: the first q.Cap of each list in its order,
// and how many each section holds.
func (t *Tx) Agenda(ctx context.Context, q app.AgendaPlan) ([]app.AgendaSlot, map[string]int, error) {
	query, args := agendaSQL(q)
	var placed sql.NullString
	if err := t.tx.QueryRowxContext(ctx, query, args...).Scan(&placed); err != nil {
		return nil, nil, mapErr(err)
	}
	var out agendaPlaced
	if placed.Valid {
		if err := json.Unmarshal([]byte(placed.String), &out); err != nil {
			return nil, nil, err
		}
	}
	var slots []app.AgendaSlot
	for _, sec := range app.AgendaLists {
		for _, id := range out.Lists[sec] {
			slots = append(slots, app.AgendaSlot{Section: sec, ID: id})
		}
	}
	if out.Totals == nil {
		out.Totals = map[string]int{}
	}
	return slots, out.Totals, nil
}
