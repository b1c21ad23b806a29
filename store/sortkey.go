package store

import "tend/app"

// The listings' sort expressions, derived from the one keyset contract
// (app.TaskSortKeys, app.DocumentSortKeys): what a key compares here is
// what the app puts in a cursor, NULLs included. The app names a key by
// its field and kind; which column holds it is the store's to say, here.

// sortColumn is where a sort key's value is: the listing's column, and the
// column as the task query's inner select names it ("" for a key only the
// outer query computes).
type sortColumn struct {
	outer, inner string
}

// taskSortColumns are the columns of app.TaskSortKeys, by field.
var taskSortColumns = map[string]sortColumn{
	"ref":                {"ref", "t.ref"},
	"created_at":         {"created_at", "t.created_at"},
	"updated_at":         {"updated_at", "t.updated_at"},
	"content_updated_at": {"content_updated_at", "t.content_updated_at"},
	"due_at":             {"due_at", "t.due_at"},
	"starts_at":          {"starts_at", "t.starts_at"},
	"completed_at":       {"completed_at", "t.completed_at"},
	"importance":         {"importance", "t.importance"},
	"urgency":            {"urgency", "t.urgency"},
	"priority_score":     {"priority_score", ""},
	"estimate_minutes":   {"estimate_minutes", "t.estimate_minutes"},
	"title":              {"title", "t.title"},
	"status":             {"status_position", "st.position"},
	"relevance":          {"relevance", ""},
}

// documentSortColumns are the columns of app.DocumentSortKeys, by field
// (the document query has no inner select).
var documentSortColumns = map[string]sortColumn{
	"ref":                {outer: "ref"},
	"title":              {outer: "title"},
	"created_at":         {outer: "created_at"},
	"updated_at":         {outer: "updated_at"},
	"content_updated_at": {outer: "content_updated_at"},
	"status":             {outer: "status_position"},
	"type":               {outer: "type_position"},
	"size_bytes":         {outer: "size_bytes"},
	"relevance":          {outer: "relevance"},
}

// sortExpr is the SQL a sort key of kind compares, over column col.
func sortExpr(kind app.KeyKind, col string) string {
	switch kind {
	case app.KeyMaybeTime:
		return "coalesce(" + col + ", '" + app.FarFuture + "')"
	case app.KeyMaybeInt:
		return "coalesce(" + col + ", 0)"
	case app.KeyFolded:
		return "lower(" + col + ")"
	}
	return col
}

// sortExprs maps each field of keys to its expression over the listing's
// outer columns or, with inner, over the inner select's (fields it lacks
// are left out).
func sortExprs[T any](keys []app.SortKey[T], cols map[string]sortColumn, inner bool) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		col := cols[k.Field].outer
		if inner {
			col = cols[k.Field].inner
		}
		if col != "" {
			out[k.Field] = sortExpr(k.Kind, col)
		}
	}
	return out
}

var (
	// taskSortExprs are the task query's outer sort keys.
	taskSortExprs = sortExprs(app.TaskSortKeys, taskSortColumns, false)
	// innerSortExprs are the sort keys the task query's inner select can
	// apply itself: all but those on columns the outer query computes.
	innerSortExprs = sortExprs(app.TaskSortKeys, taskSortColumns, true)
	// documentSortExprs are the document query's sort keys.
	documentSortExprs = sortExprs(app.DocumentSortKeys, documentSortColumns, false)
)
