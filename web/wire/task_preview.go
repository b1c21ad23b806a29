package wire

import "tend/app"

// TaskPreview is what POST /v1/tasks would make of a body: the task as it
// would be stored, without an id or ref, and how its line was read.
type TaskPreview struct {
	Title           string   `json:"title"`
	Description     *string  `json:"description"`
	Project         string   `json:"project"`
	ProjectPath     string   `json:"project_path"`
	ParentRef       *int64   `json:"parent_ref"`
	Type            string   `json:"type"`
	Status          string   `json:"status"`
	Tags            []string `json:"tags"`
	Assignee        *string  `json:"assignee"`
	Importance      *int     `json:"importance"`
	Urgency         *int     `json:"urgency"`
	EstimateMinutes *int     `json:"estimate_minutes"`
	DueAt           *string  `json:"due_at"`
	DueIsAllDay     bool     `json:"due_is_all_day"`
	StartsAt        *string  `json:"starts_at"`
	StartsIsAllDay  bool     `json:"starts_is_all_day"`
	Timezone        string   `json:"timezone"`
	Repeat          *Repeat  `json:"repeat"`
	Spans           []Span   `json:"spans"`
}

// Span is one marker a line was read as: its kind, where it stands
// (byte offsets in the line as UTF-8), the text and its canonical value.
type Span struct {
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	Text  string `json:"text"`
	Value string `json:"value"`
}

// Repeat is a preview's repeat: the rule as the task stores it, in
// words, and its first occurrences (the due first).
type Repeat struct {
	Rule           string   `json:"rule"`
	Description    string   `json:"description"`
	FromCompletion bool     `json:"from_completion"`
	Occurrences    []string `json:"occurrences"`
}

// NewTaskPreview is p as the wire shows it; a task with no zone of its own
// is previewed in the reader's.
func NewTaskPreview(p app.TaskPreview) TaskPreview {
	t := p.Task
	out := TaskPreview{Title: t.Title, Description: OrNull(t.Description), Project: t.ProjectKey, ProjectPath: t.ProjectPath,
		ParentRef: t.ParentRef, Type: t.Type.Key, Status: t.Status.Key, Tags: t.Tags, Assignee: OrNull(t.Assignee),
		Importance: t.Importance, Urgency: t.Urgency, EstimateMinutes: t.EstimateMinutes, DueAt: StampPtr(t.DueAt),
		DueIsAllDay: t.DueIsAllDay, StartsAt: StampPtr(t.StartsAt), StartsIsAllDay: t.StartsIsAllDay,
		Timezone: t.Timezone, Spans: make([]Span, len(p.Spans))}
	for i, sp := range p.Spans {
		out.Spans[i] = Span{Kind: string(sp.Kind), Start: sp.Start, End: sp.End, Text: sp.Text, Value: sp.Value}
	}
	if out.Timezone == "" {
		out.Timezone = t.ReaderZone
	}
	if t.RepeatRule != "" {
		out.Repeat = &Repeat{Rule: t.RepeatRule, Description: t.RecurrenceDescription,
			FromCompletion: p.FromCompletion, Occurrences: Stamps(p.Occurrences)}
	}
	return out
}
