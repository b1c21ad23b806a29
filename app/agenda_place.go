package app

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// OpenTask is what the agenda places an open, live task by: the columns its
// rules read (docs/agenda.md), the same for every reader.
type OpenTask struct {
	ID, ProjectID, StatusID, TypeID  string
	AssigneeID, ClaimedBy, CreatedBy string
	Ref                              int64
	// Weight orders unscheduled work: importance × 10 + urgency, unset
	// counting 3.
	Weight int
	// DueAt is zero when the task has no due.
	DueAt       time.Time
	DueIsAllDay bool
	// Timezone is the zone the task was written in, empty when it names
	// none; DueDate is then empty, else an all-day due's date in that zone.
	Timezone, DueDate string
	// SnoozedUntil and ClaimExpiresAt are zero when unset.
	SnoozedUntil, ClaimExpiresAt time.Time
	// BlockedBy holds the tasks with a "blocks" link to this one, open or
	// not: only those among the open tasks block it.
	BlockedBy []string
	// Imported is whether an import from another tool wrote the task.
	Imported bool
}

// OpenTasks is every open, live task of a workspace, ordered by ID. The
// store keeps it in memory while nothing it was read from changes and hands
// the same value to every request, so nothing may change it.
type OpenTasks struct {
	Tasks []OpenTask
	// blockedBy holds, for each task, the positions in Tasks of the open
	// tasks among its BlockedBy: found once, not on every agenda.
	blockedBy [][]int32
	// keys holds each task's project, status and type as positions in
	// names, so that an agenda tests them in arrays it fills once from the
	// few projects and statuses, not in maps ten thousand times.
	keys  []openKeys
	names openNames
}

type openKeys struct{ project, status, kind int32 }

// openNames interns the projects, statuses and types of open tasks.
type openNames struct{ projects, statuses, kinds nameSet }

func (n *openNames) keysOf(t *OpenTask) openKeys {
	return openKeys{n.projects.intern(t.ProjectID), n.statuses.intern(t.StatusID), n.kinds.intern(t.TypeID)}
}

// clone copies n to be extended without changing n: once shared, names
// are only ever extended in a copy.
func (n openNames) clone() openNames {
	return openNames{n.projects.clone(), n.statuses.clone(), n.kinds.clone()}
}

// nameSet numbers the ids it is given in order of first sight.
type nameSet struct {
	list []string
	at   map[string]int32
}

func (s *nameSet) intern(id string) int32 {
	if i, ok := s.at[id]; ok {
		return i
	}
	if s.at == nil {
		s.at = map[string]int32{}
	}
	s.list = append(s.list, id)
	s.at[id] = int32(len(s.list) - 1)
	return int32(len(s.list) - 1)
}

func (s nameSet) clone() nameSet { return nameSet{slices.Clone(s.list), maps.Clone(s.at)} }

// NewOpenTasks gathers the open tasks of a workspace, ordered by ID.
func NewOpenTasks(ts []OpenTask) *OpenTasks {
	o := &OpenTasks{Tasks: ts, blockedBy: make([][]int32, len(ts)), keys: make([]openKeys, len(ts))}
	for i := range ts {
		o.blockedBy[i] = o.resolve(ts[i].BlockedBy)
		o.keys[i] = o.names.keysOf(&ts[i])
	}
	return o
}

// Find is the position of the open task with the id.
func (o *OpenTasks) Find(id string) (int, bool) {
	return slices.BinarySearchFunc(o.Tasks, id, func(t OpenTask, id string) int { return strings.Compare(t.ID, id) })
}

// resolve finds the open tasks among ids.
func (o *OpenTasks) resolve(ids []string) []int32 {
	var at []int32
	for _, id := range ids {
		if j, ok := o.Find(id); ok {
			at = append(at, int32(j))
		}
	}
	return at
}

// Merge answers a copy of o with changed (open tasks, ordered by ID)
// replacing or joining theirs and the tasks of closed (IDs, ordered)
// leaving. reblock names the tasks whose blockers are found again: those
// that a task joining o blocks, since their own links did not change. The
// blockers of every other task carry over to their new positions, so a
// change costs a copy, not a search per link.
func (o *OpenTasks) Merge(changed []OpenTask, closed, reblock []string) *OpenTasks {
	n := &OpenTasks{Tasks: make([]OpenTask, 0, len(o.Tasks)+len(changed)), names: o.names.clone()}
	moved := make([]int32, len(o.Tasks))   // old position → new, -1 once closed
	from := make([]int32, 0, cap(n.Tasks)) // new position → old, -1 when changed
	k := 0
	carry := func() {
		moved[k] = int32(len(n.Tasks))
		from = append(from, int32(k))
		n.Tasks = append(n.Tasks, o.Tasks[k])
		k++
	}
	// skipTo carries the unchanged tasks before id over and answers
	// whether o holds id itself.
	skipTo := func(id string) bool {
		for k < len(o.Tasks) && o.Tasks[k].ID < id {
			carry()
		}
		return k < len(o.Tasks) && o.Tasks[k].ID == id
	}
	for len(changed) > 0 || len(closed) > 0 {
		if len(closed) == 0 || len(changed) > 0 && changed[0].ID < closed[0] {
			if skipTo(changed[0].ID) {
				moved[k] = int32(len(n.Tasks))
				k++
			}
			from = append(from, -1)
			n.Tasks = append(n.Tasks, changed[0])
			changed = changed[1:]
			continue
		}
		if skipTo(closed[0]) {
			moved[k] = -1
			k++
		}
		closed = closed[1:]
	}
	for k < len(o.Tasks) {
		carry()
	}
	again := map[string]bool{}
	for _, id := range reblock {
		again[id] = true
	}
	n.blockedBy = make([][]int32, len(n.Tasks))
	n.keys = make([]openKeys, len(n.Tasks))
	for i, f := range from {
		if f < 0 {
			n.keys[i] = n.names.keysOf(&n.Tasks[i])
		} else {
			n.keys[i] = o.keys[f]
		}
		if f < 0 || again[n.Tasks[i].ID] {
			n.blockedBy[i] = n.resolve(n.Tasks[i].BlockedBy)
			continue
		}
		for _, b := range o.blockedBy[f] {
			if moved[b] >= 0 {
				n.blockedBy[i] = append(n.blockedBy[i], moved[b])
			}
		}
	}
	return n
}

// agendaSection is where a task lands; the lists come first, then the
// sections only counted (docs/agenda.md).
type agendaSection int

const (
	secToday agendaSection = iota
	secOverdue
	secUpcoming
	secUnscheduled
	secInProgress
	secWaiting
	secOccasions
	secBlockedByOthers
	secDeferred
	secPaused
	secPassed
	secLater
	secElsewhere
	agendaSections
)

// agendaLists is how many sections are lists.
const agendaLists = secBlockedByOthers + 1

// agendaDay is one reader's day: what the sections compare each task with.
type agendaDay struct {
	sc                *scope
	viewer            string
	now               time.Time
	zone              string          // the asked zone's name
	date, horizonDate string          // the day and the last day of upcoming
	start, end        time.Time       // the day's bounds in the asked zone
	horizon           time.Time       // the end of the last day of upcoming
	occasion          map[string]bool // item types of the occasion category
	working           map[string]bool // task statuses of the in_progress category
	active            map[string]bool // readable projects in progress; work elsewhere is paused
}

// agendaTests are a day's tests of one OpenTasks' names, by position.
type agendaTests struct {
	readable, active, working, occasion []bool
}

func (d *agendaDay) testsOf(n *openNames) agendaTests {
	t := agendaTests{readable: make([]bool, len(n.projects.list)), active: make([]bool, len(n.projects.list)),
		working: make([]bool, len(n.statuses.list)), occasion: make([]bool, len(n.kinds.list))}
	for i, id := range n.projects.list {
		t.readable[i], t.active[i] = d.readable(id), d.active[id]
	}
	for i, id := range n.statuses.list {
		t.working[i] = d.working[id]
	}
	for i, id := range n.kinds.list {
		t.occasion[i] = d.occasion[id]
	}
	return t
}

// agendaPlaced is the first AgendaCap ids of each list, in order, and how
// many tasks each section holds.
type agendaPlaced struct {
	lists  [agendaLists][]string
	totals [agendaSections]int
}

// place puts each open task the reader may read in its section and orders
// the lists.
func (d *agendaDay) place(open *OpenTasks) agendaPlaced {
	var lists [agendaLists]agendaTop
	var out agendaPlaced
	tests := d.testsOf(&open.names)
	for i := range open.Tasks {
		t := &open.Tasks[i]
		if !tests.readable[open.keys[i].project] {
			continue
		}
		sec := d.section(open, &tests, i)
		out.totals[sec]++
		if sec >= agendaLists {
			continue
		}
		e := agendaEntry{due: math.MaxInt64, ref: t.Ref, id: t.ID}
		if sec == secUnscheduled {
			e.weight = t.Weight
		}
		if !t.DueAt.IsZero() {
			e.due = t.DueAt.UnixMilli()
		}
		lists[sec].offer(e)
	}
	for sec := range lists {
		kept := lists[sec].kept
		slices.SortFunc(kept, agendaEntry.compare)
		out.lists[sec] = make([]string, len(kept))
		for i, e := range kept {
			out.lists[sec][i] = e.id
		}
	}
	return out
}

// agendaTop keeps the first AgendaCap entries of a list offered in any
// order: a list may hold thousands of tasks, and sorting them all to keep
// fifty cost more than placing them.
type agendaTop struct {
	kept  []agendaEntry
	worst int // the index of the last of kept in order, once it is full
}

func (l *agendaTop) offer(e agendaEntry) {
	if len(l.kept) < AgendaCap {
		l.kept = append(l.kept, e)
		if len(l.kept) == AgendaCap {
			l.findWorst()
		}
		return
	}
	if e.compare(l.kept[l.worst]) < 0 {
		l.kept[l.worst] = e
		l.findWorst()
	}
}

func (l *agendaTop) findWorst() {
	l.worst = 0
	for i := range l.kept {
		if l.kept[i].compare(l.kept[l.worst]) > 0 {
			l.worst = i
		}
	}
}

// agendaEntry is a listed task with its place in its list's order:
// unscheduled work by weight, heaviest first (the weight is zero in the
// other lists); then by due, undated last (due holds the greatest key),
// then by ref.
type agendaEntry struct {
	weight   int
	due, ref int64
	id       string
}

func (e agendaEntry) compare(o agendaEntry) int {
	if c := cmp.Compare(o.weight, e.weight); c != 0 {
		return c
	}
	if c := cmp.Compare(e.due, o.due); c != 0 {
		return c
	}
	return cmp.Compare(e.ref, o.ref)
}

// readable reports whether the reader may read the items of a project. The
// projects of one workspace are few, so the map look-up is cheap.
func (d *agendaDay) readable(projectID string) bool {
	if d.sc.readsAll {
		return true
	}
	return d.sc.byID[projectID].canReadItems()
}

// section places one open task the reader may read, first rule wins
// (docs/agenda.md, "Where a task goes").
func (d *agendaDay) section(open *OpenTasks, tests *agendaTests, i int) agendaSection {
	t, k := &open.Tasks[i], open.keys[i]
	deferred := t.SnoozedUntil.After(d.now)
	switch {
	case !d.actsOn(t):
		if t.CreatedBy == d.viewer && !deferred {
			return secWaiting
		}
		return secElsewhere
	case deferred:
		return secDeferred
	case !tests.active[k.project]:
		return secPaused
	case d.blockedByOthers(open, tests, i):
		return secBlockedByOthers
	case tests.working[k.status] && (!t.Imported || d.holds(t)):
		return secInProgress
	case t.DueAt.IsZero():
		return secUnscheduled
	}
	event := tests.occasion[k.kind]
	switch d.due(t) {
	case -1:
		if event {
			return secPassed
		}
		return secOverdue
	case 0:
		if event {
			return secOccasions
		}
		return secToday
	case 1:
		return secUpcoming
	}
	return secLater
}

// actsOn reports whether the task is the reader's to act on: held by the
// reader under an unexpired claim, or neither held by another worker nor
// assigned to another account.
func (d *agendaDay) actsOn(t *OpenTask) bool {
	if t.ClaimedBy != "" && t.ClaimExpiresAt.After(d.now) {
		return t.ClaimedBy == d.viewer
	}
	return t.AssigneeID == "" || t.AssigneeID == d.viewer
}

// holds reports whether the task is assigned to the reader or held by the
// reader's claim. An imported task another tool called in progress is
// somebody's work there; unassigned here, it is not the reader's work in
// progress (the importing person's, above all) until the reader takes it.
func (d *agendaDay) holds(t *OpenTask) bool {
	return t.AssigneeID == d.viewer || (t.ClaimedBy == d.viewer && t.ClaimExpiresAt.After(d.now))
}

// blockedByOthers reports whether an open task the reader may read and is
// not the reader's to act on blocks the i-th task. A blocker out of sight
// does not count, as everywhere.
func (d *agendaDay) blockedByOthers(open *OpenTasks, tests *agendaTests, i int) bool {
	for _, j := range open.blockedBy[i] {
		if tests.readable[open.keys[j].project] && !d.actsOn(&open.Tasks[j]) {
			return true
		}
	}
	return false
}

// due compares a dated task's due with the day: -1 before it, 0 on it, 1
// within the horizon, 2 after. An all-day due written in another zone than
// the asked one is its own date there; any other due is an instant (an
// all-day due written in the asked zone is that zone's midnight).
func (d *agendaDay) due(t *OpenTask) int {
	if t.DueIsAllDay && t.Timezone != "" && t.Timezone != d.zone {
		switch {
		case t.DueDate < d.date:
			return -1
		case t.DueDate == d.date:
			return 0
		case t.DueDate <= d.horizonDate:
			return 1
		}
		return 2
	}
	switch {
	case t.DueAt.Before(d.start):
		return -1
	case t.DueAt.Before(d.end):
		return 0
	case t.DueAt.Before(d.horizon):
		return 1
	}
	return 2
}
