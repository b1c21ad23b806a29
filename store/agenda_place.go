package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"modernc.org/sqlite"

	"tend/app"
)

// agenda_place(section, id, weight, due_at, ref, cap) is the aggregate
// behind Tx.Agenda. It counts the rows of every section and keeps, for each
// section that is a list, the first cap rows in the list's order
// (docs/agenda.md): unscheduled work by weight (importance × 10 + urgency)
// descending, then every list by due (undated last), then ref. Done in one
// pass, the agenda neither materializes the placed rows nor reads them once
// per list, which made its cost grow with the number of lists as well as
// of tasks.
func init() {
	sqlite.MustRegisterFunction("agenda_place", &sqlite.FunctionImpl{
		NArgs:        6,
		VolatileArgs: true, // every string kept is copied (the id) or interned (the section)
		MakeAggregate: func(sqlite.FunctionContext) (sqlite.AggregateFunction, error) {
			return &agendaPlacer{totals: map[string]int{}, lists: map[string][]agendaEntry{}, worst: map[string]int{}}, nil
		},
	})
}

// agendaPlaced is what agenda_place answers, as JSON.
type agendaPlaced struct {
	Totals map[string]int      `json:"totals"`
	Lists  map[string][]string `json:"lists"`
}

type agendaEntry struct {
	weight int64 // for unscheduled only; 0 elsewhere
	due    string
	ref    int64
	id     string
}

// before reports whether e comes before o in a list.
func (e agendaEntry) before(o agendaEntry) bool {
	if e.weight != o.weight {
		return e.weight > o.weight
	}
	if (e.due == "") != (o.due == "") {
		return e.due != ""
	}
	if e.due != o.due {
		return e.due < o.due
	}
	return e.ref < o.ref
}

type agendaPlacer struct {
	cap    int
	totals map[string]int
	lists  map[string][]agendaEntry
	worst  map[string]int // the last entry of each full list
}

// sectionNames interns the section a row names: the argument's memory is
// SQLite's and cannot be kept.
var sectionNames = func() map[string]string {
	m := map[string]string{}
	for _, s := range app.AgendaSections {
		m[s] = s
	}
	return m
}()

var listSections = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range app.AgendaLists {
		m[s] = true
	}
	return m
}()

func (p *agendaPlacer) Step(_ *sqlite.FunctionContext, args []driver.Value) error {
	raw, _ := args[0].(string)
	section, ok := sectionNames[raw]
	if !ok {
		return fmt.Errorf("agenda_place: unknown section %q", raw)
	}
	p.totals[section]++
	if !listSections[section] {
		return nil
	}
	p.cap = int(asInt64(args[5]))
	e := agendaEntry{ref: asInt64(args[4])}
	if section == "unscheduled" {
		e.weight = asInt64(args[2])
	}
	due, _ := args[3].(string)
	e.due = due
	list := p.lists[section]
	if len(list) < p.cap {
		e.id, e.due = strings.Clone(args[1].(string)), strings.Clone(due)
		p.lists[section] = append(list, e)
		if len(list)+1 == p.cap {
			p.worst[section] = worstOf(p.lists[section])
		}
		return nil
	}
	w := p.worst[section]
	if len(list) == 0 || !e.before(list[w]) {
		return nil
	}
	e.id, e.due = strings.Clone(args[1].(string)), strings.Clone(due)
	list[w] = e
	p.worst[section] = worstOf(list)
	return nil
}

// worstOf is the index of the entry that comes last.
func worstOf(list []agendaEntry) int {
	w := 0
	for i := range list {
		if list[w].before(list[i]) {
			w = i
		}
	}
	return w
}

func asInt64(v driver.Value) int64 {
	n, _ := v.(int64)
	return n
}

func (p *agendaPlacer) WindowInverse(*sqlite.FunctionContext, []driver.Value) error {
	return fmt.Errorf("agenda_place is not a window function")
}

func (p *agendaPlacer) WindowValue(*sqlite.FunctionContext) (driver.Value, error) {
	out := agendaPlaced{Totals: p.totals, Lists: map[string][]string{}}
	for sec, list := range p.lists {
		slices.SortFunc(list, func(a, b agendaEntry) int {
			if a.before(b) {
				return -1
			}
			return 1
		})
		ids := make([]string, len(list))
		for i, e := range list {
			ids[i] = e.id
		}
		out.Lists[sec] = ids
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func (p *agendaPlacer) Final(*sqlite.FunctionContext) {}
