package pages

import (
	"net/http"
	"time"

	"tend/app"
	"tend/web/wire"
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
}

// pageToday is the person's own day: the agenda in their timezone, with
// the quick-add box. After a quick add it shows what the line was read as.
func (s *Server) pageToday(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := workspaceOf(r)
	ag, err := s.app.Agenda(r.Context(), a, app.AgendaQuery{Workspace: ws})
	if err != nil {
		return err
	}
	d := todayData{Agenda: ag, Day: ag.Date}
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
		}
	}
	return s.render(w, http.StatusOK, "today", s.view(r, a, "Today", "today", d))
}

// pageTaskAdd creates a task from a captured line and shows Today with
// what was understood.
func (s *Server) pageTaskAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	t, err := s.app.CreateTask(r.Context(), a, workspaceOf(r), app.TaskCreate{Text: f.str("text")})
	if err != nil {
		return err
	}
	return seeOther(w, r, "/?added="+wire.Itoa64(t.Ref)+"#added")
}
