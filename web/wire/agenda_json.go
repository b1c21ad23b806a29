package wire

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"tend/app"
)

// Agenda is the Agenda shape: the lists are Task[], encoded as the
// task listing encodes them.
type Agenda = AgendaOf[Task]

// AgendaOf is the Agenda with its tasks as T: full records over HTTP, list
// fields in service_list today (mcpserver/list.go).
type AgendaOf[T any] struct {
	Date                   string `json:"date"`
	Timezone               string `json:"timezone"`
	Today                  []T    `json:"today"`
	Overdue                []T    `json:"overdue"`
	Upcoming               []T    `json:"upcoming"`
	Unscheduled            []T    `json:"unscheduled"`
	UnscheduledTotal       int    `json:"unscheduled_total"`
	InProgress             []T    `json:"in_progress"`
	Waiting                []T    `json:"waiting"`
	Occasions              []T    `json:"occasions"`
	BlockedByOthers        []T    `json:"blocked_by_others"`
	BlockedByOthersTotal   int    `json:"blocked_by_others_total"`
	DeferredTotal          int    `json:"deferred_total"`
	LaterTotal             int    `json:"later_total"`
	PassedTotal            int    `json:"passed_total"`
	PausedTotal            int    `json:"paused_total"`
	AssignedElsewhereTotal int    `json:"assigned_elsewhere_total"`
}

// NewTasks is the full records of ts.
func NewTasks(ts []app.Task) []Task {
	return Map(ts, NewTask)
}

// NewAgenda is ag as the wire shows it.
func NewAgenda(ag app.Agenda) Agenda {
	return Agenda{Date: ag.Date, Timezone: ag.Timezone, Today: NewTasks(ag.Today),
		Overdue: NewTasks(ag.Overdue), Upcoming: NewTasks(ag.Upcoming), Unscheduled: NewTasks(ag.Unscheduled),
		UnscheduledTotal: ag.UnscheduledTotal, InProgress: NewTasks(ag.InProgress), Waiting: NewTasks(ag.Waiting),
		Occasions: NewTasks(ag.Occasions), BlockedByOthers: NewTasks(ag.BlockedByOthers),
		BlockedByOthersTotal: ag.BlockedByOthersTotal, DeferredTotal: ag.DeferredTotal, LaterTotal: ag.LaterTotal,
		PassedTotal: ag.PassedTotal, PausedTotal: ag.PausedTotal, AssignedElsewhereTotal: ag.AssignedElsewhereTotal}
}

// AgendaLines is the agenda as the model reads it: each list under its
// name, a task a line, and the totals of what the lists leave out.
func AgendaLines(ag Agenda) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agenda for %s (%s)\n", ag.Date, ag.Timezone)
	for _, l := range []struct {
		name  string
		items []Task
	}{{"overdue", ag.Overdue}, {"today", ag.Today}, {"occasions", ag.Occasions}, {"in progress", ag.InProgress},
		{"upcoming", ag.Upcoming}, {"blocked by others", ag.BlockedByOthers}, {"waiting", ag.Waiting}, {"unscheduled", ag.Unscheduled}} {
		if len(l.items) > 0 {
			fmt.Fprintf(&b, "%s:\n%s\n", l.name, TaskLines(l.items, "tasks"))
		}
	}
	fmt.Fprintf(&b, "not listed: %d deferred, %d later, %d passed, %d paused, %d assigned elsewhere",
		ag.DeferredTotal, ag.LaterTotal, ag.PassedTotal, ag.PausedTotal, ag.AssignedElsewhereTotal)
	return b.String()
}

// WriteAgenda answers with the agenda through the task encoder
// (task_encode.go): the same bytes as encoding/json, without reflecting
// over the several hundred tasks its lists may hold.
func WriteAgenda(w http.ResponseWriter, ag Agenda) error {
	b := make([]byte, 0, 1600*(len(ag.Today)+len(ag.Overdue)+len(ag.Upcoming)+len(ag.Unscheduled)+len(ag.InProgress)+
		len(ag.Waiting)+len(ag.Occasions)+len(ag.BlockedByOthers))+512)
	b = append(b, `{"date":`...)
	b = appendString(b, ag.Date)
	b = append(b, `,"timezone":`...)
	b = appendString(b, ag.Timezone)
	ok := true
	list := func(name string, items []Task) {
		b = append(b, `,"`+name+`":`...)
		if items == nil {
			b = append(b, "null"...)
			return
		}
		b = append(b, '[')
		for i := range items {
			if i > 0 {
				b = append(b, ',')
			}
			var fine bool
			b, fine = AppendTask(b, &items[i])
			ok = ok && fine
		}
		b = append(b, ']')
	}
	total := func(name string, n int) {
		b = append(b, `,"`+name+`":`...)
		b = strconv.AppendInt(b, int64(n), 10)
	}
	list("today", ag.Today)
	list("overdue", ag.Overdue)
	list("upcoming", ag.Upcoming)
	list("unscheduled", ag.Unscheduled)
	total("unscheduled_total", ag.UnscheduledTotal)
	list("in_progress", ag.InProgress)
	list("waiting", ag.Waiting)
	list("occasions", ag.Occasions)
	list("blocked_by_others", ag.BlockedByOthers)
	total("blocked_by_others_total", ag.BlockedByOthersTotal)
	total("deferred_total", ag.DeferredTotal)
	total("later_total", ag.LaterTotal)
	total("passed_total", ag.PassedTotal)
	total("paused_total", ag.PausedTotal)
	total("assigned_elsewhere_total", ag.AssignedElsewhereTotal)
	if !ok {
		return WriteJSON(w, http.StatusOK, ag)
	}
	return writeBody(w, http.StatusOK, append(b, "}\n"...))
}
