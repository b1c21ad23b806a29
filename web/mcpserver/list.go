package mcpserver

import "tend/web/wire"

// A tool that lists gives each item's list fields: what an agent needs to
// choose one (what it is, where, whose, when, how pressing, whether it can
// be started). service_show gives the whole record, in the HTTP API's shape.
// A page of 20 tasks stays under 8 KB of structuredContent this way, where
// full records took 1.6 KB each.

// taskItemJSON is a task in a list. Empty fields are left out: no due, no
// assignee, not blocked.
type taskItemJSON struct {
	Ref         int64    `json:"ref"`
	Title       string   `json:"title"`
	Type        string   `json:"type"`
	Status      string   `json:"status"`
	IsComplete  bool     `json:"is_complete,omitempty"`
	ProjectPath string   `json:"project_path"`
	ParentRef   *int64   `json:"parent_ref,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Assignee    *string  `json:"assignee,omitempty"`
	ClaimedBy   *string  `json:"claimed_by,omitempty"`
	DueAt       *string  `json:"due_at,omitempty"`
	DueIsAllDay bool     `json:"due_is_all_day,omitempty"`
	Importance  *int     `json:"importance,omitempty"`
	Urgency     *int     `json:"urgency,omitempty"`
	Blocked     bool     `json:"blocked,omitempty"`
	Relevance   *float64 `json:"relevance,omitempty"` // a search's text-match score
	Version     int      `json:"version"`
}

func newTaskItem(t wire.Task) taskItemJSON {
	return taskItemJSON{Ref: t.Ref, Title: t.Title, Type: t.Type, Status: t.Status, IsComplete: t.IsComplete,
		ProjectPath: t.ProjectPath, ParentRef: t.ParentRef, Tags: t.Tags, Assignee: t.Assignee, ClaimedBy: t.ClaimedBy,
		DueAt: t.DueAt, DueIsAllDay: t.DueIsAllDay, Importance: t.Importance, Urgency: t.Urgency, Blocked: t.Blocked,
		Relevance: t.Relevance, Version: t.Version}
}

func taskItems(ts []wire.Task) []taskItemJSON { return wire.Map(ts, newTaskItem) }

// documentItemJSON is a document in a list.
type documentItemJSON struct {
	Ref         int64    `json:"ref"`
	Title       string   `json:"title"`
	Type        string   `json:"type"`
	Status      string   `json:"status"`
	ProjectPath string   `json:"project_path"`
	ParentRef   *int64   `json:"parent_ref,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	Relevance   *float64 `json:"relevance,omitempty"` // a search's text-match score
	Version     int      `json:"version"`
}

func documentItems(ds []wire.Document) []documentItemJSON {
	return wire.Map(ds, func(d wire.Document) documentItemJSON {
		return documentItemJSON{Ref: d.Ref, Title: d.Title, Type: d.Type, Status: d.Status, ProjectPath: d.ProjectPath,
			ParentRef: d.ParentRef, Tags: d.Tags, Relevance: d.Relevance, Version: d.Version}
	})
}

// agendaItems is the agenda with list fields.
func agendaItems(ag wire.Agenda) wire.AgendaOf[taskItemJSON] {
	return wire.AgendaOf[taskItemJSON]{Date: ag.Date, Timezone: ag.Timezone, Today: taskItems(ag.Today), Overdue: taskItems(ag.Overdue),
		Upcoming: taskItems(ag.Upcoming), Unscheduled: taskItems(ag.Unscheduled), UnscheduledTotal: ag.UnscheduledTotal,
		InProgress: taskItems(ag.InProgress), Waiting: taskItems(ag.Waiting), Occasions: taskItems(ag.Occasions),
		BlockedByOthers: taskItems(ag.BlockedByOthers), BlockedByOthersTotal: ag.BlockedByOthersTotal,
		DeferredTotal: ag.DeferredTotal, LaterTotal: ag.LaterTotal, PassedTotal: ag.PassedTotal, PausedTotal: ag.PausedTotal,
		AssignedElsewhereTotal: ag.AssignedElsewhereTotal}
}
