package app_test

import (
	"testing"

	"tend/app"
)

// TestViewQueryRoundTrip: what a view keeps of a listing reads back as the
// same filters and order, field filters and include_completed too.
func TestViewQueryRoundTrip(t *testing.T) {
	no := false
	in := app.TaskListQuery{Project: "web", Tag: "docs", Ready: true, Order: "-due_at,ref", IncludeCompleted: &no,
		Filter: map[string]string{"due_at.lt": "friday", "estimate_minutes.lte": "30"}}
	got, err := app.DecodeViewQuery(app.EncodeViewQuery(in))
	if err != nil {
		t.Fatal(err)
	}
	if app.EncodeViewQuery(got) != app.EncodeViewQuery(in) || got.IncludeCompleted == nil || *got.IncludeCompleted {
		t.Errorf("read back %+v from %s", got, app.EncodeViewQuery(in))
	}
	if _, err := app.DecodeViewQuery(`{"limit":"5"}`); err == nil {
		t.Errorf("a stored parameter no view keeps read back without an error")
	}
}

// TestViewCreateRefusesPaging: a view keeps filters and the order; the
// Service refuses the rest of a listing's query by its parameter, whatever
// surface sent it.
func TestViewCreateRefusesPaging(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.CreateView(f.ctx, f.admin, "", app.ViewCreate{Name: "paged", Query: app.TaskListQuery{Limit: 5, Cursor: "x", Tag: "a"}})
	e := app.AsError(err)
	if app.CodeOf(err) != app.CodeValidation || len(e.Fields) != 2 {
		t.Fatalf("got %v, want validation naming limit and cursor", err)
	}
	v, err := f.svc.CreateView(f.ctx, f.admin, "", app.ViewCreate{Name: "  tagged  ", Query: app.TaskListQuery{Tag: "a", Order: "-ref"}})
	if err != nil || v.Name != "tagged" || v.Version != 1 {
		t.Fatalf("created %+v, %v", v, err)
	}
}
