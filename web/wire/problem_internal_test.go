package wire

import (
	"net/http"
	"testing"

	"tend/app"
)

func TestProblemTypesCoverAllCodes(t *testing.T) {
	for _, c := range app.AllCodes {
		if _, ok := problemTypes[c]; !ok {
			t.Errorf("no problem type for app code %q", c)
		}
	}
	if got, want := len(problemTypes), len(app.AllCodes); got != want {
		t.Errorf("problemTypes has %d entries, AllCodes %d: a code in the table is missing from AllCodes", got, want)
	}
	for c, pt := range problemTypes {
		if pt.Status < 400 || pt.Status > 599 || pt.Title == "" {
			t.Errorf("problem type for %q: status %d, title %q", c, pt.Status, pt.Title)
		}
	}
}

// TestInternalErrorHidesCause checks NewProblem directly: a plain error
// becomes internal with no detail, and a 422 code always gets the array.
func TestInternalErrorHidesCause(t *testing.T) {
	p := NewProblem(&app.Error{Code: app.CodeInternal, Detail: "should not show", Err: errProbSecret})
	if p.Detail != nil || p.Code != app.CodeInternal || p.Status != http.StatusInternalServerError {
		t.Fatalf("got %+v", p)
	}
	p = NewProblem(errProbSecret)
	if p.Detail != nil || p.Code != app.CodeInternal {
		t.Fatalf("got %+v", p)
	}
	p = NewProblem(app.Errorf(app.CodeWorkspaceRequired, "name one"))
	d, ok := p.Detail.([]ValidationItem)
	if !ok || len(d) != 1 || d[0].Msg != "name one" || d[0].Type != "workspace_required" || len(d[0].Loc) == 0 {
		t.Fatalf("a 422 without fields still carries the detail array: %+v", p.Detail)
	}
}

var errProbSecret = &probSecretErr{}

type probSecretErr struct{}

func (*probSecretErr) Error() string { return "disk on fire at /var/lib/secret" }
