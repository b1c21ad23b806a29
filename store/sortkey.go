package store

import "tend/app"

// The listings' sort expressions, derived from the one keyset contract
// (app.TaskSortKeys, app.DocumentSortKeys): what a key compares here is
// what the app puts in a cursor, NULLs included.

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
// outer columns (Column) or, with inner, over the inner select's (Inner;
// fields it lacks are left out).
func sortExprs[T any](keys []app.SortKey[T], inner bool) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		col := k.Column
		if inner {
			col = k.Inner
		}
		if col != "" {
			out[k.Field] = sortExpr(k.Kind, col)
		}
	}
	return out
}

var (
	// taskSortExprs are the task query's outer sort keys.
	taskSortExprs = sortExprs(app.TaskSortKeys, false)
	// innerSortExprs are the sort keys the task query's inner select can
	// apply itself: all but those on columns the outer query computes.
	innerSortExprs = sortExprs(app.TaskSortKeys, true)
	// documentSortExprs are the document query's sort keys.
	documentSortExprs = sortExprs(app.DocumentSortKeys, false)
)
