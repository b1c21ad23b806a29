package web

import (
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// taskPreviewJSON is what POST /v1/tasks would make of a body: the task
// as it would be stored, without an id or ref, and how its line was read.
type taskPreviewJSON struct {
	Title           string      `json:"title"`
	Description     *string     `json:"description"`
	Project         string      `json:"project"`
	ProjectPath     string      `json:"project_path"`
	ParentRef       *int64      `json:"parent_ref"`
	Type            string      `json:"type"`
	Status          string      `json:"status"`
	Tags            []string    `json:"tags"`
	Assignee        *string     `json:"assignee"`
	Importance      *int        `json:"importance"`
	Urgency         *int        `json:"urgency"`
	EstimateMinutes *int        `json:"estimate_minutes"`
	DueAt           *string     `json:"due_at"`
	DueIsAllDay     bool        `json:"due_is_all_day"`
	StartsAt        *string     `json:"starts_at"`
	StartsIsAllDay  bool        `json:"starts_is_all_day"`
	Timezone        string      `json:"timezone"`
	Repeat          *repeatJSON `json:"repeat"`
	Spans           []spanJSON  `json:"spans"`
}

// spanJSON is one marker a line was read as: its kind, where it stands
// (byte offsets in the line as UTF-8), the text and its canonical value.
type spanJSON struct {
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
	Value string `json:"value"`
}

// repeatJSON is a preview's repeat: the rule as the task stores it, in
// words, and its first occurrences (the due first).
type repeatJSON struct {
	Rule           string   `json:"rule"`
	Description    string   `json:"description"`
	FromCompletion bool     `json:"from_completion"`
	Occurrences    []string `json:"occurrences"`
}

func newTaskPreviewJSON(p app.TaskPreview) taskPreviewJSON {
	t := p.Task
	out := taskPreviewJSON{Title: t.Title, Description: wire.OrNull(t.Description), Project: t.ProjectKey, ProjectPath: t.ProjectPath,
		ParentRef: t.ParentRef, Type: t.Type.Key, Status: t.Status.Key, Tags: t.Tags, Assignee: wire.OrNull(t.Assignee),
		Importance: t.Importance, Urgency: t.Urgency, EstimateMinutes: t.EstimateMinutes, DueAt: wire.StampPtr(t.DueAt),
		DueIsAllDay: t.DueIsAllDay, StartsAt: wire.StampPtr(t.StartsAt), StartsIsAllDay: t.StartsIsAllDay,
		Timezone: t.Timezone, Spans: make([]spanJSON, len(p.Spans))}
	for i, sp := range p.Spans {
		out.Spans[i] = spanJSON{Kind: string(sp.Kind), Start: sp.Start, End: sp.End, Text: sp.Text, Value: sp.Value}
	}
	if out.Timezone == "" {
		out.Timezone = t.ReaderZone
	}
	if t.RepeatRule != "" {
		out.Repeat = &repeatJSON{Rule: t.RepeatRule, Description: t.RecurrenceDescription,
			FromCompletion: p.FromCompletion, Occurrences: stamps(p.Occurrences)}
	}
	return out
}

// handleTaskPreview answers what POST /v1/tasks would make of the same
// body and query, creating nothing: the quick-add box shows it while a
// person types, so a misreading is seen before it is stored.
func (s *Server) handleTaskPreview(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in wire.TaskCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	p, err := s.app.PreviewTask(r.Context(), a, wsParam(r), in.App())
	if err != nil {
		return err
	}
	return wire.WriteJSON(w, http.StatusOK, newTaskPreviewJSON(p))
}
