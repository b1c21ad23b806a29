package cli_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tend/cli"
	"tend/web/wire"
)

// FuzzTaskEdits checks that no text back from the editor panics, that a
// text read back is sent as a body the server reads (wire.DecodeBody),
// and that a text read against itself changes nothing.
func FuzzTaskEdits(f *testing.F) {
	var task wire.Task
	if err := jsonInto(`{"ref":7,"title":"Call the bank","status":"todo","project":"inbox","type":"task","tags":["finance"],
		"importance":4,"estimate_minutes":90,"due_at":"2026-03-03T08:00:00Z","description":"Ask for Ms Weber.\n","version":3}`, &task); err != nil {
		f.Fatal(err)
	}
	before := cli.TaskMarkdown(task, time.UTC)
	for _, s := range []string{before, "# Call the bank today\n\nstatus: done\ntags: a, b #c\nimportance:\nestimate: 1h30m\n\nNew text.\n",
		"# x\nstatus: todo\n", "\r\n# t\r\n\r\ndue: friday 5pm\r\n", "# \n\nurgency: 9\n", "no heading"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, after string) {
		in, changed, err := cli.TaskEdits(before, after, task.Version)
		if err != nil {
			return
		}
		body, err := json.Marshal(in)
		if err != nil {
			t.Fatalf("%q: the update cannot be written: %v", after, err)
		}
		// The server refuses no body an edit sends but for text it refuses
		// anywhere (U+0000), and reads the change that was made (text that
		// is no UTF-8 is sent with U+FFFD in place of what is not).
		var back wire.TaskUpdate
		if err := wire.DecodeBody(body, &back, 1<<20); err != nil {
			if !strings.Contains(string(body), `\u0000`) {
				t.Fatalf("%q: the server refuses %s: %v", after, body, err)
			}
		} else if utf8.ValidString(after) && !reflect.DeepEqual(back.App(), in.App()) {
			t.Fatalf("%q: %s is read back as %+v, want %+v", after, body, back.App(), in.App())
		}
		if !changed && string(body) != "{}" {
			t.Fatalf("%q: nothing changed, yet the body is %s", after, body)
		}
		if _, again, err := cli.TaskEdits(after, after, task.Version); err != nil || again {
			t.Fatalf("%q read against itself: changed %v, %v", after, again, err)
		}
	})
}
