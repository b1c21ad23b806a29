package app

import (
	"context"
	"slices"
	"time"
)

// AgendaCap is how many tasks each list of the agenda holds at most; the
// totals count beyond it.
const AgendaCap = 50

// occasionCategory is the item type category of events: items that happen
// on a day rather than work that is done.
const occasionCategory = "occasion"

// AgendaHorizonDays is how many days after the agenda's day `upcoming`
// reaches.
const AgendaHorizonDays = 7

// AgendaQuery asks for the reader's day: Date (YYYY-MM-DD) in Timezone (an
// IANA name). Empty, they are today in the reader's zone.
type AgendaQuery struct {
	Workspace string
	Date      string
	Timezone  string
}

// Agenda is the reader's day (docs/agenda.md).
type Agenda struct {
	Date     string
	Timezone string

	Today, Overdue, Upcoming, Unscheduled, InProgress, Waiting, Occasions, BlockedByOthers []Task

	UnscheduledTotal, BlockedByOthersTotal                                      int
	DeferredTotal, LaterTotal, PassedTotal, PausedTotal, AssignedElsewhereTotal int
}

// AgendaPlan is what the store needs to place a reader's tasks on a day.
type AgendaPlan struct {
	WorkspaceID string
	Readable    string
	AllReadable bool
	ViewerID    string
	Now         time.Time
	// Zone counts the all-day dues of tasks that name no zone.
	Zone              string
	Date, HorizonDate string    // the day and the last day of upcoming
	Start, End        time.Time // the day's bounds in the asked zone
	Horizon           time.Time // the end of the last day of upcoming
	OccasionTypeIDs   []string  // item types of the occasion category
	WorkingStatusIDs  []string  // task statuses of the in_progress category
	ActiveProjectIDs  []string  // readable projects in progress; work elsewhere is paused
	Cap               int
}

// AgendaLists are the sections the agenda lists; AgendaSections are every
// section a task can land in, the lists and those only counted
// (docs/agenda.md).
var (
	AgendaLists    = []string{"today", "overdue", "upcoming", "unscheduled", "in_progress", "waiting", "occasions", "blocked_by_others"}
	AgendaSections = append(slices.Clip(AgendaLists), "deferred", "paused", "passed", "later", "elsewhere")
)

// AgendaSlot is one task's place on the agenda.
type AgendaSlot struct {
	Section string
	ID      string
}

type agendaTx interface {
	// Agenda places the open tasks of q's reader in the agenda's sections:
	// up to q.Cap ids of each in order, and each section's count.
	Agenda(ctx context.Context, q AgendaPlan) ([]AgendaSlot, map[string]int, error)
}

// Agenda answers GET /v1/agenda: the reader's day in two queries whatever
// the number of tasks, filtered through what the caller may read.
func (s *Service) Agenda(ctx context.Context, a Actor, in AgendaQuery) (Agenda, error) {
	var out Agenda
	err := s.store.View(ctx, func(tx Tx) error {
		sc, err := inWorkspace(ctx, tx, a, in.Workspace)
		if err != nil {
			return err
		}
		plan, err := agendaPlan(ctx, tx, sc, in)
		if err != nil {
			return err
		}
		out.Date, out.Timezone = plan.Date, plan.Zone
		slots, totals, err := tx.Agenda(ctx, plan)
		if err != nil {
			return err
		}
		return fillAgenda(ctx, tx, sc, slots, totals, &out)
	})
	return out, err
}

// agendaPlan resolves the day, the zone and the vocabulary the sections
// read.
func agendaPlan(ctx context.Context, tx Tx, sc *scope, in AgendaQuery) (AgendaPlan, error) {
	zone, err := readerZone(ctx, tx, sc.acc.actor.User, &sc.ws.Workspace)
	if err != nil {
		return AgendaPlan{}, err
	}
	var errs []error
	if in.Timezone != "" {
		if err := checkTimezone("query.timezone", in.Timezone); err != nil {
			errs = append(errs, err)
		} else {
			zone = loadZone(in.Timezone)
		}
	}
	now := tx.Now()
	day := now.In(zone.Loc)
	if in.Date != "" {
		d, err := time.Parse(time.DateOnly, in.Date)
		if err != nil || d.Year() < MinInstant.Year()+1 || d.Year() > MaxInstant.Year()-1 {
			errs = append(errs, Invalidf("query.date", "date is a day (YYYY-MM-DD) from %d to %d", MinInstant.Year()+1, MaxInstant.Year()-1))
		}
		day = d
	}
	if err := joinErrors(errs...); err != nil {
		return AgendaPlan{}, err
	}
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, zone.Loc)
	last := start.AddDate(0, 0, AgendaHorizonDays)
	plan := AgendaPlan{WorkspaceID: sc.ws.Workspace.ID, Readable: sc.readJSON, AllReadable: sc.readsAll,
		ViewerID: sc.acc.actor.User.ID, Now: now, Zone: zone.Name, Date: start.Format(time.DateOnly),
		HorizonDate: last.Format(time.DateOnly), Start: start, End: start.AddDate(0, 0, 1),
		Horizon: last.AddDate(0, 0, 1), OccasionTypeIDs: []string{}, WorkingStatusIDs: []string{}, ActiveProjectIDs: []string{}, Cap: AgendaCap}
	its, err := tx.ItemTypes(ctx, sc.ws.Workspace.ID)
	if err != nil {
		return plan, err
	}
	for _, it := range its {
		if it.EntityType == "task" && it.Category == occasionCategory {
			plan.OccasionTypeIDs = append(plan.OccasionTypeIDs, it.ID)
		}
	}
	sts, err := tx.Statuses(ctx, sc.ws.Workspace.ID)
	if err != nil {
		return plan, err
	}
	active := map[string]bool{}
	for _, st := range sts {
		active[st.ID] = st.EntityType == "project" && st.Category == CategoryInProgress
		if st.EntityType == "task" && st.Category == CategoryInProgress {
			plan.WorkingStatusIDs = append(plan.WorkingStatusIDs, st.ID)
		}
	}
	for _, id := range sc.readIDs {
		if n := sc.byID[id]; n != nil && active[n.StatusID] {
			plan.ActiveProjectIDs = append(plan.ActiveProjectIDs, id)
		}
	}
	return plan, nil
}

// fillAgenda reads the placed tasks in one query and files them in their
// lists, in the order the store placed them.
func fillAgenda(ctx context.Context, tx Tx, sc *scope, slots []AgendaSlot, totals map[string]int, out *Agenda) error {
	lists := map[string]*[]Task{"today": &out.Today, "overdue": &out.Overdue, "upcoming": &out.Upcoming,
		"unscheduled": &out.Unscheduled, "in_progress": &out.InProgress, "waiting": &out.Waiting,
		"occasions": &out.Occasions, "blocked_by_others": &out.BlockedByOthers}
	for _, l := range lists {
		*l = []Task{}
	}
	ids := []string{}
	for _, sl := range slots {
		if lists[sl.Section] != nil {
			ids = append(ids, sl.ID)
		}
	}
	byID := map[string]Task{}
	if len(ids) > 0 {
		ts, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, Now: tx.Now()}))
		if err != nil {
			return err
		}
		for _, t := range ts {
			byID[t.ID] = t
		}
	}
	for _, sl := range slots {
		if l := lists[sl.Section]; l != nil {
			if t, ok := byID[sl.ID]; ok {
				*l = append(*l, t)
			}
		}
	}
	out.UnscheduledTotal, out.BlockedByOthersTotal = totals["unscheduled"], totals["blocked_by_others"]
	out.DeferredTotal, out.LaterTotal, out.PassedTotal = totals["deferred"], totals["later"], totals["passed"]
	out.PausedTotal = totals["paused"]
	out.AssignedElsewhereTotal = totals["waiting"] + totals["elsewhere"]
	return nil
}
