package app_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"tend/app"
)

// TestNarrate: each kind of event an item's history holds is told as a
// sentence, with the changes as the store gives them back (decoded JSON).
func TestNarrate(t *testing.T) {
	auckland, err := time.LoadLocation("Pacific/Auckland")
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]string{"done": "Done", "in_progress": "In progress"}
	projects := map[string]string{"p1": "home/garden", "garden": "home/garden"}
	for _, c := range []struct {
		action, changes, actor string
		zone                   *time.Location
		want                   string
	}{
		{"task.created", `{"title":"Water plants"}`, "alice", nil, "alice created this"},
		{"task.created", `{"title":"Water plants","series_id":"x","occurrence":2,"after":7}`, "alice", nil,
			"alice brought this as the next occurrence after #7"},
		{"task.updated", `{"status":{"from":"todo","to":"done"}}`, "alice", nil, "alice moved this to Done"},
		{"task.updated", `{"status":{"from":"todo","to":"review"}}`, "alice", nil, "alice moved this to review"},
		{"task.claimed", `{"claim_expires_at":"2026-03-02T09:30:00Z","minutes":30}`, "claude", nil, "claude claimed this for 30 minutes"},
		{"task.claim_renewed", `{"minutes":90}`, "claude", nil, "claude renewed the claim for 1 hour 30 minutes"},
		{"task.claimed", `{"minutes":120}`, "claude", nil, "claude claimed this for 2 hours"},
		{"task.released", `{"holder":"claude"}`, "alice", nil, "alice released the claim of claude"},
		{"task.completed", `{"status":{"from":"todo","to":"done"}}`, "alice", nil, "alice completed this"},
		{"task.skipped", `{"status":{"from":"todo","to":"cancelled"}}`, "alice", nil, "alice skipped this occurrence"},
		{"task.updated", `{"title":{"from":"a","to":"Water the plants"},"due_at":{"from":null,"to":"2026-03-06T00:00:00Z"},` +
			`"due_is_all_day":{"from":false,"to":true}}`, "bob", nil,
			"bob renamed this to “Water the plants” and set the due date to Fri 6 Mar 2026"},
		{"task.updated", `{"due_at":{"from":null,"to":"2026-03-05T20:00:00Z"}}`, "bob", auckland,
			"bob set the due date to Fri 6 Mar 2026 09:00"},
		{"task.updated", `{"due_at":{"from":"2026-03-05T20:00:00Z","to":null}}`, "bob", nil, "bob removed the due date"},
		{"task.updated", `{"snoozed_until":{"from":null,"to":"2026-03-03T00:00:00Z"},"snoozed_is_all_day":{"from":false,"to":true},` +
			`"starts_at":{"from":null,"to":"2026-03-03T00:00:00Z"}}`, "bob", nil,
			"bob planned this for Tue 3 Mar 2026 and deferred this until Tue 3 Mar 2026"},
		{"task.updated", `{"assignee":{"from":"","to":"bob"},"tags":{"from":["home"],"to":["garden","Home"]},"importance":{"from":null,"to":3},` +
			`"applies_to":"this_one"}`, "alice", nil,
			"alice assigned this to bob, tagged this #garden and set the importance to 3 (this occurrence only)"},
		{"task.updated", `{"assignee":{"from":"bob","to":""},"tags":{"from":["a","b"],"to":[]},"urgency":{"from":2,"to":null}}`, "alice", nil,
			"alice unassigned bob, took off #a #b and cleared the urgency"},
		{"task.updated", `{"repeat":{"from":"every Monday","to":"every Tuesday"},"applies_to":"from_now_on"}`, "alice", nil,
			"alice made this repeat every Tuesday (from now on)"},
		{"task.updated", `{"repeat":{"from":"every Monday","to":null},"estimate_minutes":{"from":null,"to":45}}`, "alice", nil,
			"alice stopped the repeat and estimated this at 45 minutes"},
		{"task.updated", `{"description":{"from":"","to":"hello"},"type":{"from":"task","to":"bug"}}`, "alice", nil,
			"alice made this a bug and wrote the description"},
		{"task.updated", `{"mystery":{"from":"x","to":"y"}}`, "alice", nil, "alice changed mystery: x → y"},
		{"task.moved", `{"project":{"from":"inbox","to":"web"}}`, "alice", nil, "alice filed this in web"},
		{"task.moved", `{"project":"web","with":4}`, "alice", nil, "alice filed this in web along with #4"},
		{"task.moved", `{"parent":{"from":null,"to":"4"}}`, "alice", nil, "alice put this under #4"},
		{"task.deleted", `{"subtasks":0}`, "alice", nil, "alice moved this to the trash"},
		{"task.restored", `{"subtasks":0}`, "alice", nil, "alice restored this from the trash"},
		{"task.verified", `{"passed":true,"summary":"go test ./... green"}`, "claude", nil, "claude recorded a passing check: go test ./... green"},
		{"task.verified", `{"passed":false,"summary":""}`, "claude", nil, "claude recorded a failing check"},
		{"link.created", `{"direction":"outgoing","link_type":"blocks","other":2,"other_type":"task"}`, "alice", nil, "alice added a link: this blocks #2"},
		{"link.deleted", `{"direction":"incoming","link_type":"relates_to","other":9}`, "alice", nil, "alice removed a link: #9 relates to this"},
		{"link.deleted", `{"link_type":"relates_to","other":9,"other_type":"task"}`, "alice", nil, "alice removed the relates to link with #9"},
		{"comment.created", `{"size_bytes":2}`, "bob", nil, "bob commented"},
		{"comment.deleted", `null`, "bob", nil, "bob withdrew a comment"},
		{"document.updated", `{"body":{"revised":true,"size_bytes":3},"status":{"from":"current","to":"draft"}}`, "alice", nil,
			"alice moved this to draft and revised the body"},
		{"document.updated", `{"body":{"revised":false,"size_bytes":3}}`, "alice", nil, "alice wrote the body"},
		{"project.created", `{"key":"web","title":"Web","visibility":"public"}`, "alice", nil, "alice created this project"},
		{"project.shared", `{"username":"bob"}`, "alice", nil, "alice shared this project with bob"},
		{"project.role_set", `{"username":"bob","role":"viewer"}`, "alice", nil, "alice gave bob the viewer role in this project"},
		{"project.updated", `{"visibility":{"from":"public","to":"private"}}`, "alice", nil, "alice made this private"},
		{"project.moved", `{"parent":{"from":null,"to":"p1"}}`, "alice", nil, "alice moved this under home/garden"},
		{"project.moved", `{"parent":{"from":"p1","to":""}}`, "alice", nil, "alice moved this to the top level"},
		{"project.moved", `{"parent":{"from":"","to":null}}`, "alice", nil, "alice moved this under another project"},
		{"project.updated", `{"parent":"garden","title":{"from":"a","to":"b"}}`, "alice", nil,
			"alice renamed this to “b” and moved this under home/garden"},
		{"task.updated", `{"title":{"from":"a","to":"b"}}`, "", nil, "someone renamed this to “b”"},
	} {
		e := app.Event{Action: c.action, ActorUserID: "u1", EntityType: c.action[:strings.IndexByte(c.action, '.')]}
		if err := json.Unmarshal([]byte(c.changes), &e.Changes); err != nil {
			t.Fatalf("%s: %v", c.changes, err)
		}
		if got := app.Narrate(e, app.Telling{Actor: c.actor, Statuses: labels, Zone: c.zone, Projects: projects}); got != c.want {
			t.Errorf("%s %s:\n got %s\nwant %s", c.action, c.changes, got, c.want)
		}
	}
	if got := app.Narrate(app.Event{Action: "task.updated", Changes: map[string]any{"title": map[string]any{"from": "a", "to": "b"}}}, app.Telling{}); got != "tend renamed this to “b”" {
		t.Errorf("a system event: %s", got)
	}
}
