package pages

import (
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"tend/app"
)

// TestTaskEditRecord: the edit form becomes the PATCH body of the fields a
// person changed, "" clearing what can be cleared (null, as the API says
// it) and sent as it is where a field cannot be.
func TestTaskEditRecord(t *testing.T) {
	for _, c := range []struct {
		name string
		form url.Values
		body string
		err  string
	}{
		{"unchanged", url.Values{"title": {"Call"}, "was.title": {"Call"}, "importance": {"4"}, "was.importance": {"4"}}, `{}`, ""},
		{"values", url.Values{"title": {"Call"}, "importance": {"4"}, "estimate_minutes": {"90"}, "tags": {"#a, b"}, "parent": {"#12"},
			"until": {"friday"}, "applies_to": {"from_now_on"}, "expected_version": {"3"}},
			`{"title":"Call","parent":"12","tags":["a","b"],"importance":4,"estimate_minutes":90,"applies_to":"from_now_on","until":"friday","expected_version":3}`, ""},
		{"cleared", url.Values{"description": {""}, "assignee": {""}, "importance": {""}, "tags": {""}, "parent": {""}, "timezone": {" "},
			"repeat": {""}, "defer": {""}, "applies_to": {""}},
			`{"description":null,"parent":null,"tags":null,"assignee":null,"importance":null,"repeat":null,"timezone":null,"defer":null}`, ""},
		{"kept, for the Service to refuse", url.Values{"title": {""}, "status": {""}}, `{"title":"","status":""}`, ""},
		{"a number in words", url.Values{"urgency": {"soon"}}, "", "form.urgency"},
	} {
		r := httptest.NewRequest("POST", "/tasks/7", strings.NewReader(c.form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if err := r.ParseForm(); err != nil {
			t.Fatal(err)
		}
		in, err := taskEdit(&pageForm{r: r})
		if c.err != "" {
			if e := app.AsError(err); e == nil || len(e.Fields) == 0 || strings.Join(e.Fields[0].Loc, ".") != c.err {
				t.Errorf("%s: %v, want a refusal at %s", c.name, err, c.err)
			}
			continue
		}
		body, _ := json.Marshal(in)
		if err != nil || string(body) != c.body {
			t.Errorf("%s: %s (%v), want %s", c.name, body, err, c.body)
		}
	}
}
