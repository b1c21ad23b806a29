package cli_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/web/cli"
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
	want := "# Call the bank\n\nstatus: todo\nproject: inbox\ntype: task\ntags: finance\nassignee: \nimportance: 4\nurgency: \n" +
		"estimate: 1h30m\ndue: 2026-03-03 09:00\nrepeat: \n\nAsk for Ms Weber.\n"
	if before != want {
		t.Fatalf("TaskMarkdown:\n%s\nwant\n%s", before, want)
	}
	edit := func(from, to string) string { return strings.Replace(before, from, to, 1) }
	for _, c := range []struct {
		name, after string
		check       func(app.TaskUpdate) bool
		err         string
	}{
		{"nothing", before, func(in app.TaskUpdate) bool { return !in.Title.Set && in.ExpectedVersion == nil }, ""},
		{"the title", edit("# Call the bank", "# Call the bank today"),
			func(in app.TaskUpdate) bool {
				return in.Title == app.PatchOf("Call the bank today") && *in.ExpectedVersion == 3
			}, ""},
		{"cleared levels and estimate", edit("importance: 4\n", "importance:\n") + "",
			func(in app.TaskUpdate) bool { return in.Importance.Null && !in.Urgency.Set && !in.EstimateMinutes.Set }, ""},
		{"tags", edit("tags: finance", "tags: #finance, loan home"),
			func(in app.TaskUpdate) bool { return strings.Join(in.Tags.Value, " ") == "finance loan home" }, ""},
		{"the due in words", edit("due: 2026-03-03 09:00", "due: friday 5pm"),
			func(in app.TaskUpdate) bool { return in.Until == app.PatchOf("friday 5pm") && !in.DueAt.Set }, ""},
		{"the description removed", edit("Ask for Ms Weber.\n", ""), func(in app.TaskUpdate) bool { return in.Description.Null }, ""},
		{"an estimate in minutes", edit("estimate: 1h30m", "estimate: 45"), func(in app.TaskUpdate) bool { return in.EstimateMinutes == app.PatchOf(45) }, ""},
		{"no heading", edit("# Call", "Call"), nil, "the text must begin with the title as a heading"},
		{"an unknown field", edit("urgency: ", "urgent: "), nil, `line 9, "urgent: ": the field lines are`},
		{"a level in words", edit("importance: 4", "importance: high"), nil, `importance: "high" is no number from 1 to 5`},
		{"an estimate in words", edit("estimate: 1h30m", "estimate: a while"), nil, `estimate: "a while" is minutes or a duration`},
	} {
		in, changed, err := cli.TaskEdits(before, c.after, task.Version)
		switch {
		case c.err != "":
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: err %v, want %q", c.name, err, c.err)
			}
		case err != nil || changed != (c.after != before) || !c.check(in):
			t.Errorf("%s: %+v, changed %v, %v", c.name, in, changed, err)
		}
	}
}

func jsonInto(s string, v any) error { return json.Unmarshal([]byte(s), v) }
