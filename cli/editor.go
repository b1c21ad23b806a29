package cli

import (
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

// editFields are the field lines, in the order they are written.
var editFields = []string{"status", "project", "type", "tags", "assignee", "importance", "urgency", "estimate", "due", "repeat"}

// TaskMarkdown is t as text to edit; a timed due is written in zone, the
// zone a changed due is read in.
func TaskMarkdown(t wire.Task, zone *time.Location) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", t.Title)
	for _, f := range editFields {
		fmt.Fprintf(&b, "%s: %s\n", f, taskField(t, f, zone))
	}
	b.WriteString("\n")
	if d := wire.Deref(t.Description); d != "" {
		b.WriteString(strings.TrimRight(d, "\n") + "\n")
	}
	return b.String()
}

func taskField(t wire.Task, field string, zone *time.Location) string {
	switch field {
	case "status":
		return t.Status
	case "project":
		return t.Project
	case "type":
		return t.Type
	case "tags":
		return strings.Join(t.Tags, ", ")
	case "assignee":
		return wire.Deref(t.Assignee)
	case "importance":
		return level(t.Importance)
	case "urgency":
		return level(t.Urgency)
	case "estimate":
		if t.EstimateMinutes == nil {
			return ""
		}
		return minutes(*t.EstimateMinutes)
	case "due":
		return dueForEdit(t, zone)
	case "repeat":
		return wire.Deref(t.RecurrenceDescription)
	}
	return ""
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
		if !ok || !slices.Contains(editFields, k) {
			return editedTask{}, fmt.Errorf("line %d, %q: the field lines are %s, each \"field: value\"", i+1, lines[i], strings.Join(editFields, ", "))
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
	text := func(v string) wire.Patch[string] {
		if v == "" {
			return wire.PatchNull[string]()
		}
		return wire.PatchOf(v)
	}
	if a.title != b.title {
		in.Title, changed = wire.PatchOf(a.title), true
	}
	if a.description != b.description {
		in.Description, changed = text(a.description), true
	}
	for _, f := range editFields {
		v := a.fields[f]
		if v == b.fields[f] {
			continue
		}
		changed = true
		switch f {
		case "status":
			in.Status = wire.PatchOf(v)
		case "project":
			in.Project = wire.PatchOf(v)
		case "type":
			in.Type = wire.PatchOf(v)
		case "tags":
			in.Tags = wire.PatchOf(splitTags(v))
		case "assignee":
			in.Assignee = text(v)
		case "importance", "urgency":
			p, err := levelPatch(f, v)
			if err != nil {
				return in, false, err
			}
			if f == "importance" {
				in.Importance = p
			} else {
				in.Urgency = p
			}
		case "estimate":
			if in.EstimateMinutes, err = estimatePatch(v); err != nil {
				return in, false, err
			}
		case "due":
			in.Until = wire.PatchOf(v)
		case "repeat":
			in.Repeat = wire.PatchOf(v)
		}
	}
	if changed {
		in.ExpectedVersion = &version
	}
	return in, changed, nil
}

func splitTags(v string) []string {
	out := []string{}
	for _, t := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, strings.TrimPrefix(t, "#"))
	}
	return out
}

func levelPatch(field, v string) (wire.Patch[int], error) {
	if v == "" {
		return wire.PatchNull[int](), nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return wire.Patch[int]{}, fmt.Errorf("%s: %q is no number from 1 to 5", field, v)
	}
	return wire.PatchOf(n), nil
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
