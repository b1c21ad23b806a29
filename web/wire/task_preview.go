package wire

import "tend/app"

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

// NewTaskPreview is p as the wire shows it: the fields copyTaskPreview
// copies, and those the wire names otherwise; a task with no zone of its
// own is previewed in the reader's.
func NewTaskPreview(p app.TaskPreview) TaskPreview {
	t := p.Task
	out := TaskPreview{Project: t.ProjectKey, Type: t.Type.Key, Status: t.Status.Key, Spans: make([]Span, len(p.Spans))}
	copyTaskPreview(&out, &t)
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
