package cli

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"tend/web/wire"
)

// A task edited in $EDITOR is this Markdown: the title as a heading, one
// "field: value" line per field, a blank line, then the description. Only
// the fields whose lines changed are sent, with the version the text was
// made from, so an edit never overwrites what somebody changed meanwhile.
//
//	# Call the bank
//
//	status: todo
//	project: inbox
//	due: 2026-03-03 09:00
//	…
//
//	The description, as long as it is.

// EditField is a field of a task as the terminal writes it: a flag of tend
// edit, a line of the task in $EDITOR, or both. Its text is the PATCH
// body's field Field written as text (wire.TaskUpdate.SetText: "" clears
// what can be cleared), but for the estimate, a duration.
type EditField struct {
	Flag, Line string // the flag's name and the line's; "" for none
	Field      string // the JSON name of the field of wire.TaskUpdate it sets
	Usage      string // the flag's help
	// Number says what a number of the field is, for a refusal ("a number
	// from 1 to 5"); the flag of one is an int, 0 for none. "" for text.
	Number string
	List   bool // the flag is given once for each value (--tag a --tag b)
	// show is the line's value for a task; nil for the task's JSON field
	// of the name Field.
	show func(t wire.Task, zone *time.Location) string
}

// EditFields are tend edit's fields, the lines in the order they are
// written.
var EditFields = []EditField{
	{Flag: "status", Line: "status", Field: "status", Usage: "the status key"},
	{Flag: "project", Line: "project", Field: "project", Usage: "move it to this project (a key)"},
	{Flag: "type", Line: "type", Field: "type", Usage: "the item type"},
	{Flag: "tag", Line: "tags", Field: "tags", List: true, Usage: `the tags, replacing the ones it has (--tag "" for none)`},
	{Flag: "assignee", Line: "assignee", Field: "assignee", Usage: `assign it to this username ("" for nobody)`},
	{Flag: "importance", Line: "importance", Field: "importance", Number: "number from 1 to 5", Usage: "importance, 1 to 5 (0 for none)"},
	{Flag: "urgency", Line: "urgency", Field: "urgency", Number: "number from 1 to 5", Usage: "urgency, 1 to 5 (0 for none)"},
	{Flag: "estimate", Line: "estimate", Field: "estimate_minutes", Usage: `the estimate: 90, 90m, 1h30m ("" for none)`,
		show: func(t wire.Task, _ *time.Location) string {
			if t.EstimateMinutes == nil {
				return ""
			}
			return minutes(*t.EstimateMinutes)
		}},
	{Flag: "due", Line: "due", Field: "until", Usage: `the deadline, in words ("friday 5pm"; "" for none)`, show: dueForEdit},
	{Flag: "repeat", Line: "repeat", Field: "repeat", Usage: `a repeat phrase ("" stops it)`,
		show: func(t wire.Task, _ *time.Location) string { return wire.Deref(t.RecurrenceDescription) }},
	{Flag: "title", Field: "title", Usage: "the title"},
	{Flag: "description", Field: "description", Usage: "the description (Markdown)"},
	{Flag: "parent", Field: "parent", Usage: `make it a subtask of this task ("" for none)`},
	{Flag: "plan", Field: "plan", Usage: `the day you mean to work on it ("" for none)`},
	{Flag: "defer", Field: "defer", Usage: `hide it until this day ("" brings it back)`},
	{Flag: "remind", Field: "reminders", List: true,
		Usage: `a reminder before the due (30m, 1h, 1d) or at an instant (RFC 3339), once each, replacing the ones it has (none clears)`},
	{Flag: "applies-to", Field: "applies_to", Usage: "on a repeating task: this_one or from_now_on"},
}

// editLines are the names of the lines, in order.
var editLines = func() []string {
	var out []string
	for _, f := range EditFields {
		if f.Line != "" {
			out = append(out, f.Line)
		}
	}
	return out
}()

// TaskMarkdown is t as text to edit; a timed due is written in zone, the
// zone a changed due is read in.
func TaskMarkdown(t wire.Task, zone *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.Title)
	var fields map[string]any
	if j, err := json.Marshal(t); err == nil {
		_ = json.Unmarshal(j, &fields) // a Task always reads back
	}
	for _, f := range EditFields {
		if f.Line == "" {
			continue
		}
		v := ""
		if f.show != nil {
			v = f.show(t, zone)
		} else {
			v = textOf(fields[f.Field])
		}
		fmt.Fprintf(&b, "%s: %s\n", f.Line, v)
	}
	b.WriteString("\n")
	if d := wire.Deref(t.Description); d != "" {
		b.WriteString(strings.TrimRight(d, "\n") + "\n")
	}
	return b.String()
}

// textOf is a value of a task's JSON as a line writes it: none as "", a
// list joined by commas.
func textOf(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(x))
		for i, p := range x {
			parts[i] = fmt.Sprint(p)
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// dueForEdit is the due as the date grammar reads it back: a date, or a
// date and a time in zone.
func dueForEdit(t wire.Task, zone *time.Location) string {
	if t.DueAt == nil {
		return ""
	}
	at, err := time.Parse(time.RFC3339, *t.DueAt)
	if err != nil {
		return *t.DueAt
	}
	if t.DueIsAllDay {
		loc := zone
		if z := wire.Deref(t.Timezone); z != "" {
			if l, err := time.LoadLocation(z); err == nil {
				loc = l
			}
		}
		return at.In(loc).Format(time.DateOnly)
	}
	return at.In(zone).Format("2006-01-02 15:04")
}

// editedTask is the text of TaskMarkdown read back.
type editedTask struct {
	title       string
	fields      map[string]string
	description string
}

func parseEdited(text string) (editedTask, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) || !strings.HasPrefix(lines[i], "# ") {
		return editedTask{}, fmt.Errorf("the text must begin with the title as a heading: # Title")
	}
	out := editedTask{title: strings.TrimSpace(strings.TrimPrefix(lines[i], "# ")), fields: map[string]string{}}
	for i++; i < len(lines) && strings.TrimSpace(lines[i]) == ""; i++ {
	}
	for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		k, v, ok := strings.Cut(lines[i], ":")
		k = strings.TrimSpace(k)
		if !ok || !slices.Contains(editLines, k) {
			return editedTask{}, fmt.Errorf("line %d, %q: the field lines are %s, each \"field: value\"", i+1, lines[i], strings.Join(editLines, ", "))
		}
		out.fields[k] = strings.TrimSpace(v)
	}
	out.description = strings.TrimSpace(strings.Join(lines[min(i, len(lines)):], "\n"))
	return out, nil
}

// TaskEdits is the update that turns before into after, two texts of
// TaskMarkdown, for the task at version: only what changed, nothing when
// nothing did (changed false). A text that cannot be read back is refused
// with where it went wrong.
func TaskEdits(before, after string, version int) (in wire.TaskUpdate, changed bool, err error) {
	b, err := parseEdited(before)
	if err != nil {
		return in, false, err
	}
	a, err := parseEdited(after)
	if err != nil {
		return in, false, err
	}
	if a.title != b.title {
		in.Title, changed = wire.PatchOf(a.title), true
	}
	if a.description != b.description {
		changed = true
		if err := in.SetText("description", a.description); err != nil {
			return in, false, err
		}
	}
	for _, f := range EditFields {
		v := a.fields[f.Line]
		if f.Line == "" || v == b.fields[f.Line] {
			continue
		}
		changed = true
		if err := f.set(&in, v); err != nil {
			return in, false, err
		}
	}
	if changed {
		in.ExpectedVersion = &version
	}
	return in, changed, nil
}

// set sets the field in the update from the text v.
func (f EditField) set(in *wire.TaskUpdate, v string) error {
	if f.Field == "estimate_minutes" {
		var err error
		in.EstimateMinutes, err = estimatePatch(v)
		return err
	}
	if err := in.SetText(f.Field, v); err != nil && f.Number != "" {
		return fmt.Errorf("%s: %q is no %s", f.Line, v, f.Number)
	} else if err != nil {
		return err
	}
	return nil
}

func estimatePatch(v string) (wire.Patch[int], error) {
	if v == "" {
		return wire.PatchNull[int](), nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		return wire.PatchOf(n), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d%time.Minute != 0 {
		return wire.Patch[int]{}, fmt.Errorf("estimate: %q is minutes or a duration such as 1h30m", v)
	}
	return wire.PatchOf(int(d / time.Minute)), nil
}
