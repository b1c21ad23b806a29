package cli_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tend/cli"
	"tend/internal/golden"
	"tend/web/wire"
)

// TestTaskEdits: the text of a task changed in an editor becomes the update
// of what changed, at the version the text was made from.
func TestTaskEdits(t *testing.T) {
	var task wire.Task
	if err := jsonInto(`{"ref":7,"title":"Call the bank","status":"todo","project":"inbox","type":"task","tags":["finance"],
		"importance":4,"estimate_minutes":90,"due_at":"2026-03-03T08:00:00Z","due_is_all_day":false,"description":"Ask for Ms Weber.\n","version":3}`, &task); err != nil {
		t.Fatal(err)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	before := cli.TaskMarkdown(task, paris)
	// The editor's text is a golden (-update rewrites it): a field added to
	// EditFields shows there without a hunk here.
	golden.Check(t, filepath.Join("testdata", "task_markdown.golden"), []byte(before))
	edit := func(from, to string) string { return strings.Replace(before, from, to, 1) }
	for _, c := range []struct {
		name, after string
		body        string // the PATCH body the edit sends
		err         string
	}{
		{"nothing", before, `{}`, ""},
		{"the title", edit("# Call the bank", "# Call the bank today"), `{"title":"Call the bank today","expected_version":3}`, ""},
		{"cleared levels", edit("importance: 4\n", "importance:\n"), `{"importance":null,"expected_version":3}`, ""},
		{"tags", edit("tags: finance", "tags: #finance, loan home"), `{"tags":["finance","loan","home"],"expected_version":3}`, ""},
		{"the due in words", edit("due: 2026-03-03 09:00", "due: friday 5pm"), `{"until":"friday 5pm","expected_version":3}`, ""},
		{"the description removed", edit("Ask for Ms Weber.\n", ""), `{"description":null,"expected_version":3}`, ""},
		{"an estimate in minutes", edit("estimate: 1h30m", "estimate: 45"), `{"estimate_minutes":45,"expected_version":3}`, ""},
		{"no heading", edit("# Call", "Call"), "", "the text must begin with the title as a heading"},
		{"an unknown field", edit("urgency: ", "urgent: "), "", `line 9, "urgent: ": the field lines are`},
		{"a level in words", edit("importance: 4", "importance: high"), "", `importance: "high" is no number from 1 to 5`},
		{"an estimate in words", edit("estimate: 1h30m", "estimate: a while"), "", `estimate: "a while" is minutes or a duration`},
	} {
		in, changed, err := cli.TaskEdits(before, c.after, task.Version)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
			continue
		}
		body, _ := json.Marshal(in)
		if err != nil || changed != (c.after != before) || string(body) != c.body {
			t.Errorf("%s: body %s, changed %v, %v; want %s", c.name, body, changed, err, c.body)
		}
	}
}

func jsonInto(s string, v any) error { return json.Unmarshal([]byte(s), v) }
