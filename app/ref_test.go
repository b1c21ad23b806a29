package app_test

import (
	"strings"
	"testing"

	"tend/app"
)

func TestCheckRef(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" accepted, else a part of the refusal
	}{
		{"42", ""}, {"#42", ""}, {" 42 ", ""}, {"007", ""}, {"999999999999999999", ""},
		{"0190a5c4-9f2e-7c4b-8f3e-2b1d4c5e6f70", ""},
		{"", "ref is required"}, {"#", "ref is required"},
		{"abc", `"abc" is neither a ref`}, {"0", "neither"}, {"000", "neither"}, {"-3", "neither"}, {"4.5", "neither"},
		{"next", "neither"}, {"1e3", "neither"}, {"9999999999999999999", "neither"},
		{"0190a5c49f2e7c4b8f3e2b1d4c5e6f70", "neither"}, {"{0190a5c4-9f2e-7c4b-8f3e-2b1d4c5e6f70}", "neither"},
	} {
		err := app.CheckRef("arguments.ref", c.in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q refused: %v", c.in, err)
		case c.want != "" && (err == nil || app.CodeOf(err) != app.CodeValidation || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: %v, want a validation error saying %q", c.in, err, c.want)
		case err != nil && strings.Join(app.AsError(err).Fields[0].Loc, ".") != "arguments.ref":
			t.Errorf("%q: refused at %v", c.in, app.AsError(err).Fields[0].Loc)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"description", "parent", "text", "type", "workspace", "limit", "status", "status_category", "history", "passed"}
	for typed, want := range map[string]string{
		"txt": "text", "Text": "text", "tetx": "text", "limt": "limit", "stauts": "status", "histroy": "history",
		"desc": "description", "passd": "passed", "workspce": "workspace", "parnet": "parent",
		"query": "", "xyz": "", "q": "", "colour": "", "ty": "",
	} {
		if got := app.Nearest(typed, names); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", typed, got, want)
		}
	}
}
