package mcpserver

import (
	"encoding/json"
	"testing"
)

// TestTaskUpdateOf: service_update's arguments become the PATCH body they
// name, an empty text clearing what can be cleared (null, as the API says it) and
// sent as it is where a field cannot be.
func TestTaskUpdateOf(t *testing.T) {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	for _, c := range []struct {
		name string
		in   updateArgs
		body string
	}{
		{"nothing", updateArgs{Ref: refsArg{"7"}, Workspace: "home"}, `{}`},
		{"values", updateArgs{Title: str("Call"), Status: str("doing"), Type: str("bug"), Assignee: str("bob"), Description: str("d"),
			Importance: num(4), Urgency: num(2), Repeat: str("daily"), AppliesTo: str("this_one"), ExpectedVersion: num(3)},
			`{"title":"Call","description":"d","type":"bug","status":"doing","assignee":"bob","importance":4,"urgency":2,"repeat":"daily","applies_to":"this_one","expected_version":3}`},
		{"cleared", updateArgs{Assignee: str(""), Description: str(""), Repeat: str(""), Estimate: str(""), Defer: str(""), Plan: str(""), Until: str("")},
			`{"description":null,"assignee":null,"estimate_minutes":null,"repeat":null,"defer":null,"plan":null,"until":null}`},
		{"kept, for the Service to refuse", updateArgs{Title: str(""), Status: str(""), Type: str(""), AppliesTo: str(""), Importance: num(0)},
			`{"title":"","type":"","status":"","importance":0,"applies_to":""}`},
		{"phrases and an estimate", updateArgs{Until: str("friday"), Plan: str("monday"), Defer: str("tomorrow"), Estimate: str("1h30m")},
			`{"estimate_minutes":90,"defer":"tomorrow","plan":"monday","until":"friday"}`},
	} {
		up, err := taskUpdateOf(c.in)
		body, _ := json.Marshal(up)
		if err != nil || string(body) != c.body {
			t.Errorf("%s: %s (%v), want %s", c.name, body, err, c.body)
		}
	}
	if _, err := taskUpdateOf(updateArgs{Estimate: str("a while")}); err == nil {
		t.Error("an estimate in words was taken")
	}
}
