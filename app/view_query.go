package app

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// viewStrings and viewBools are the task listing's parameters a view
// keeps, by their names in GET /v1/tasks, with the field each fills; the
// field filters (due_at.gte=…) are kept by their own names. Paging
// (limit, cursor), grouping, totals and the trash are asked when listing.
var (
	viewStrings = map[string]func(*TaskListQuery) *string{
		"project": func(q *TaskListQuery) *string { return &q.Project }, "status": func(q *TaskListQuery) *string { return &q.Status },
		"tag": func(q *TaskListQuery) *string { return &q.Tag }, "status_category": func(q *TaskListQuery) *string { return &q.StatusCategory },
		"type": func(q *TaskListQuery) *string { return &q.Type }, "assignee": func(q *TaskListQuery) *string { return &q.Assignee },
		"claimed_by": func(q *TaskListQuery) *string { return &q.ClaimedBy }, "parent": func(q *TaskListQuery) *string { return &q.Parent },
		"q": func(q *TaskListQuery) *string { return &q.Q }, "due_before": func(q *TaskListQuery) *string { return &q.DueBefore },
		"due_after": func(q *TaskListQuery) *string { return &q.DueAfter }, "deferred": func(q *TaskListQuery) *string { return &q.Deferred },
		"order": func(q *TaskListQuery) *string { return &q.Order },
	}
	viewBools = map[string]func(*TaskListQuery) *bool{
		"subtree": func(q *TaskListQuery) *bool { return &q.Subtree }, "ready": func(q *TaskListQuery) *bool { return &q.Ready },
		"to_act_on": func(q *TaskListQuery) *bool { return &q.ToActOn },
	}
)

// IsViewParam reports whether a view keeps the task listing's parameter
// name: a filter or the order, not paging.
func IsViewParam(name string) bool {
	_, s := viewStrings[name]
	_, b := viewBools[name]
	return s || b || name == "include_completed" || IsTaskFieldFilter(name)
}

// ViewParams are a listing's filters and order as GET /v1/tasks takes
// them, by parameter name: what a view keeps, and its query string.
func ViewParams(q TaskListQuery) map[string]string {
	out := map[string]string{}
	for name, f := range viewStrings {
		if v := *f(&q); v != "" {
			out[name] = v
		}
	}
	for name, f := range viewBools {
		if *f(&q) {
			out[name] = "true"
		}
	}
	if q.IncludeCompleted != nil {
		out["include_completed"] = fmt.Sprint(*q.IncludeCompleted)
	}
	maps.Copy(out, q.Filter)
	return out
}

// EncodeViewQuery is what the store keeps of a view's listing: its
// parameters as a JSON object, keys sorted.
func EncodeViewQuery(q TaskListQuery) string {
	b, _ := json.Marshal(ViewParams(q)) // a map of strings always encodes
	return string(b)
}

// DecodeViewQuery reads back what EncodeViewQuery wrote.
func DecodeViewQuery(s string) (TaskListQuery, error) {
	var params map[string]string
	if err := json.Unmarshal([]byte(s), &params); err != nil {
		return TaskListQuery{}, fmt.Errorf("view query %q: %w", s, err)
	}
	var q TaskListQuery
	for _, name := range slices.Sorted(maps.Keys(params)) {
		v := params[name]
		switch {
		case viewStrings[name] != nil:
			*viewStrings[name](&q) = v
		case viewBools[name] != nil:
			*viewBools[name](&q) = v == "true"
		case name == "include_completed":
			b := v == "true"
			q.IncludeCompleted = &b
		case IsTaskFieldFilter(name):
			if q.Filter == nil {
				q.Filter = map[string]string{}
			}
			q.Filter[name] = v
		default:
			return TaskListQuery{}, fmt.Errorf("view query %q: unknown parameter %q", s, name)
		}
	}
	return q, nil
}

// viewQuery is q as a view keeps it: the filters and order alone.
func viewQuery(q TaskListQuery) TaskListQuery {
	kept, err := DecodeViewQuery(EncodeViewQuery(q))
	if err != nil {
		panic(err) // EncodeViewQuery writes only what DecodeViewQuery reads
	}
	return kept
}

// checkViewQuery refuses what a view does not keep: the paging, grouping,
// totals and trash of one listing, asked for when listing through it.
func checkViewQuery(q TaskListQuery) error {
	var errs []error
	for _, p := range []struct {
		name string
		set  bool
	}{{"limit", q.Limit != 0}, {"cursor", q.Cursor != ""}, {"include_total", q.IncludeTotal}, {"group_by", q.GroupBy != ""},
		{"group_limit", q.GroupLimit != 0}, {"include", q.IncludeLinks}, {"deleted", q.Deleted}, {"view", q.View != ""}} {
		if p.set {
			errs = append(errs, Invalidf(q.Loc.at(p.name), "a view keeps the listing's filters and order; give %s when listing through it", p.name))
		}
	}
	return joinErrors(errs...)
}
