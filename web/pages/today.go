package pages

import (
	"net/http"
	"time"

	"tend/app"
)

// agendaSection is one list of the Today page.
type agendaSection struct {
	Key, Label string
	Tasks      []app.Task
	Total      int
}

type todayData struct {
	Day      string
	Agenda   app.Agenda
	Sections []agendaSection
	Added    *app.Task
	Empty    bool
	Quick    quickAdd
}

// pageToday is the person's own day: the agenda in their timezone, with
// the quick-add box. After a quick add it shows what the line was read as.
func (s *Server) pageToday(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.today(w, r, a, http.StatusOK, newQuickAdd(r, "", nil))
}

// today renders Today with the quick-add box as given (a refused line
// kept in it, with the refusal beside it), answering status.
func (s *Server) today(w http.ResponseWriter, r *http.Request, a app.Actor, status int, quick quickAdd) error {
	ws := workspaceOf(r)
	ag, err := s.app.Agenda(r.Context(), a, app.AgendaQuery{Workspace: ws})
	if err != nil {
		return err
	}
	d := todayData{Agenda: ag, Day: ag.Date, Quick: quick}
	if day, err := time.Parse(time.DateOnly, ag.Date); err == nil {
		d.Day = day.Format("Monday 2 January")
	}
	d.Sections = []agendaSection{
		{"overdue", "Overdue", ag.Overdue, len(ag.Overdue)},
		{"today", "Today", ag.Today, len(ag.Today)},
		{"occasions", "Events today", ag.Occasions, len(ag.Occasions)},
		{"in_progress", "In progress", ag.InProgress, len(ag.InProgress)},
		{"upcoming", "Upcoming", ag.Upcoming, len(ag.Upcoming)},
		{"blocked_by_others", "Blocked by others", ag.BlockedByOthers, ag.BlockedByOthersTotal},
		{"waiting", "Waiting on others", ag.Waiting, len(ag.Waiting)},
		{"unscheduled", "Unscheduled", ag.Unscheduled, ag.UnscheduledTotal},
	}
	d.Empty = true
	for _, sec := range d.Sections {
		d.Empty = d.Empty && len(sec.Tasks) == 0
	}
	if ref := r.URL.Query().Get("added"); ref != "" {
		if t, err := s.app.TaskGet(r.Context(), a, ws, ref); err == nil {
			d.Added = &t
			d.Quick.Focus = true
		}
	}
	return s.render(w, status, "today", s.view(r, a, "Today", "today", d))
}
