package wire_test

import (
	"encoding/json"
	"slices"
	"testing"

	"tend/web/wire"
)

// TestTaskUpdateSetText: text as a person or an agent writes it sets the
// field it names, "" clearing (null) a field that can be cleared and sent
// as it is to one that cannot.
func TestTaskUpdateSetText(t *testing.T) {
	for _, c := range []struct {
		name, text, body string
	}{
		{"title", "Call", `{"title":"Call"}`},
		{"title", "", `{"title":""}`},
		{"type", "", `{"type":""}`},
		{"status", "", `{"status":""}`},
		{"applies_to", "", `{"applies_to":""}`},
		{"description", "", `{"description":null}`},
		{"assignee", "", `{"assignee":null}`},
		{"project", "", `{"project":null}`},
		{"repeat", "", `{"repeat":null}`},
		{"timezone", "", `{"timezone":null}`},
		{"until", "", `{"until":null}`},
		{"plan", "", `{"plan":null}`},
		{"defer", "", `{"defer":null}`},
		{"importance", "", `{"importance":null}`},
		{"importance", " 4 ", `{"importance":4}`},
		{"estimate_minutes", "90", `{"estimate_minutes":90}`},
		{"tags", "", `{"tags":null}`},
		{"tags", "#a, b c", `{"tags":["a","b","c"]}`},
		{"parent", "", `{"parent":null}`},
		{"parent", "#12", `{"parent":"12"}`},
	} {
		var in wire.TaskUpdate
		if err := in.SetText(c.name, c.text); err != nil {
			t.Errorf("%s %q: %v", c.name, c.text, err)
			continue
		}
		if body, _ := json.Marshal(in); string(body) != c.body {
			t.Errorf("%s %q: %s, want %s", c.name, c.text, body, c.body)
		}
	}
	var in wire.TaskUpdate
	for _, refused := range [][2]string{{"importance", "high"}, {"due_at", "2026-03-06T09:00:00Z"}, {"due_is_all_day", "true"},
		{"expected_version", "3"}, {"nonsense", "x"}} {
		if err := in.SetText(refused[0], refused[1]); err == nil {
			t.Errorf("%s %q was taken", refused[0], refused[1])
		}
	}
	if slices.Contains(wire.TaskUpdateFields, "due_at") || !slices.Contains(wire.TaskUpdateFields, "until") {
		t.Errorf("TaskUpdateFields %v", wire.TaskUpdateFields)
	}
}
