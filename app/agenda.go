package app

import (
	"context"
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

type openTasksTx interface {
	// OpenTasks reads every open, live task of a workspace as the agenda
	// places it. The answer is shared between requests: read-only.
	OpenTasks(ctx context.Context, workspaceID string) (*OpenTasks, error)
}

// Agenda answers GET /v1/agenda: the reader's day in a fixed number of
// queries whatever the number of tasks, filtered through what the caller
// may read. The workspace's open tasks come from the store's cache while
// nothing they are placed by has changed; placing them for this reader and
// day is done here, then the listed tasks are read in one query.
func (s *Service) Agenda(ctx context.Context, a Actor, in AgendaQuery) (Agenda, error) {
	var out Agenda
	err := s.store.View(ctx, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) error {
		day, err := agendaDayOf(ctx, tx, sc, in)
		if err != nil {
			return err
		}
		out.Date, out.Timezone = day.date, day.zone
		open, err := tx.OpenTasks(ctx, sc.ws.Workspace.ID)
		if err != nil {
			return err
		}
		return fillAgenda(ctx, tx, sc, day.place(open), &out)
	}))
	return out, err
}

// agendaDayOf resolves the day, the zone and the vocabulary the sections
// read.
func agendaDayOf(ctx context.Context, tx Tx, sc *scope, in AgendaQuery) (*agendaDay, error) {
	zone, err := readerZone(ctx, tx, sc.acc.actor.User, &sc.ws.Workspace)
	if err != nil {
		return nil, err
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
		return nil, err
	}
	start := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, zone.Loc)
	last := start.AddDate(0, 0, AgendaHorizonDays)
	d := &agendaDay{sc: sc, viewer: sc.acc.actor.User.ID, now: now, zone: zone.Name, date: start.Format(time.DateOnly),
		horizonDate: last.Format(time.DateOnly), start: start, end: start.AddDate(0, 0, 1), horizon: last.AddDate(0, 0, 1),
		occasion: map[string]bool{}, working: map[string]bool{}, active: map[string]bool{}}
	its, err := tx.ItemTypes(ctx, sc.ws.Workspace.ID)
	if err != nil {
		return nil, err
	}
	for _, it := range its {
		d.occasion[it.ID] = it.EntityType == "task" && it.Category == occasionCategory
	}
	sts, err := tx.Statuses(ctx, sc.ws.Workspace.ID)
	if err != nil {
		return nil, err
	}
	inProgress := map[string]bool{}
	for _, st := range sts {
		inProgress[st.ID] = st.EntityType == "project" && st.Category == CategoryInProgress
		d.working[st.ID] = st.EntityType == "task" && st.Category == CategoryInProgress
	}
	for _, id := range sc.readIDs {
		if n := sc.byID[id]; n != nil && inProgress[n.StatusID] {
			d.active[id] = true
		}
	}
	return d, nil
}

// fillAgenda reads the placed tasks in one query and files them in their
// lists, in the order they were placed.
func fillAgenda(ctx context.Context, tx Tx, sc *scope, placed agendaPlaced, out *Agenda) error {
	lists := [agendaLists]*[]Task{secToday: &out.Today, secOverdue: &out.Overdue, secUpcoming: &out.Upcoming,
		secUnscheduled: &out.Unscheduled, secInProgress: &out.InProgress, secWaiting: &out.Waiting,
		secOccasions: &out.Occasions, secBlockedByOthers: &out.BlockedByOthers}
	ids := []string{}
	for sec, l := range lists {
		*l = make([]Task, 0, len(placed.lists[sec]))
		ids = append(ids, placed.lists[sec]...)
	}
	var ts []Task
	if len(ids) > 0 {
		var err error
		if ts, err = sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: ids, Now: tx.Now()})); err != nil {
			return err
		}
	}
	// Positions, not copies: a Task is over a kilobyte.
	at := make(map[string]int, len(ts))
	for i := range ts {
		at[ts[i].ID] = i
	}
	for sec, l := range lists {
		for _, id := range placed.lists[sec] {
			if i, ok := at[id]; ok {
				*l = append(*l, ts[i])
			}
		}
	}
	n := placed.totals
	out.UnscheduledTotal, out.BlockedByOthersTotal = n[secUnscheduled], n[secBlockedByOthers]
	out.DeferredTotal, out.LaterTotal, out.PassedTotal = n[secDeferred], n[secLater], n[secPassed]
	out.PausedTotal = n[secPaused]
	out.AssignedElsewhereTotal = n[secWaiting] + n[secElsewhere]
	return nil
}
