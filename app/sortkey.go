package app

import (
	"time"
)

// The keyset contract of the listings. A page ends with a cursor holding
// the sort keys of its last row, and the store resumes after them by
// comparing the same keys in SQL; the two must agree exactly, NULLs
// included. This file is the one description both sides read: the app takes
// a row's keys with SortKey.key, the store builds ORDER BY and the
// comparison from Kind, over the column it maps Field to (store/sortkey.go).

// KeyKind is how a sort key is compared.
type KeyKind int

const (
	// KeyInt is an integer column, compared as it is.
	KeyInt KeyKind = iota
	// KeyFloat is a number column, compared as it is; a row without one
	// (a relevance outside a search) gives 0 in the cursor.
	KeyFloat
	// KeyTime is a time column, compared in its stored text form.
	KeyTime
	// KeyMaybeTime is a time column that may be NULL, which sorts as
	// FarFuture: last in ascending order.
	KeyMaybeTime
	// KeyMaybeInt is an integer column that may be NULL, which sorts as 0.
	KeyMaybeInt
	// KeyFolded is a text column compared with ASCII letters folded to
	// lower case, as SQLite's lower() folds them.
	KeyFolded
)

// FarFuture is what a missing time sorts as. Sort keys are never NULL, so
// keyset comparisons stay total.
const FarFuture = "9999-12-31T23:59:59.999Z"

// SortKey is one field a listing may be ordered by.
type SortKey[T any] struct {
	// Field is the name a client orders by.
	Field string
	// Kind is how the key is compared.
	Kind KeyKind
	// of is the row's value: time.Time, *time.Time, int64, *int, float64,
	// *float64 or string, by Kind.
	of func(T) any
}

// key is the row's sort key in the form the store compares.
func (k SortKey[T]) key(row T) any {
	v := k.of(row)
	switch k.Kind {
	case KeyTime:
		t := v.(time.Time)
		return timeKey(&t)
	case KeyMaybeTime:
		return timeKey(v.(*time.Time))
	case KeyMaybeInt:
		if p := v.(*int); p != nil {
			return int64(*p)
		}
		return int64(0)
	case KeyFloat:
		if p, ok := v.(*float64); ok {
			if p == nil {
				return 0.0
			}
			return *p
		}
		return v
	case KeyFolded:
		return foldASCII(v.(string))
	}
	return v
}

func timeKey(t *time.Time) string {
	if t == nil {
		return FarFuture
	}
	return t.UTC().Format(timeKeyLayout)
}

// timeKeyLayout is how a time sort key is written, as the store writes times.
const timeKeyLayout = "2006-01-02T15:04:05.000Z"

// TaskSortKeys are the fields a task listing may be ordered by.
var TaskSortKeys = []SortKey[Task]{
	{Field: "ref", Kind: KeyInt, of: func(t Task) any { return t.Ref }},
	{Field: "created_at", Kind: KeyTime, of: func(t Task) any { return t.CreatedAt }},
	{Field: "updated_at", Kind: KeyTime, of: func(t Task) any { return t.UpdatedAt }},
	{Field: "content_updated_at", Kind: KeyTime, of: func(t Task) any { return t.ContentUpdatedAt }},
	{Field: "due_at", Kind: KeyMaybeTime, of: func(t Task) any { return t.DueAt }},
	{Field: "starts_at", Kind: KeyMaybeTime, of: func(t Task) any { return t.StartsAt }},
	{Field: "completed_at", Kind: KeyMaybeTime, of: func(t Task) any { return t.CompletedAt }},
	{Field: "importance", Kind: KeyMaybeInt, of: func(t Task) any { return t.Importance }},
	{Field: "urgency", Kind: KeyMaybeInt, of: func(t Task) any { return t.Urgency }},
	{Field: "priority_score", Kind: KeyFloat, of: func(t Task) any { return t.PriorityScore }},
	{Field: "estimate_minutes", Kind: KeyMaybeInt, of: func(t Task) any { return t.EstimateMinutes }},
	{Field: "title", Kind: KeyFolded, of: func(t Task) any { return t.Title }},
	{Field: "status", Kind: KeyInt, of: func(t Task) any { return int64(t.Status.Position) }},
	{Field: "relevance", Kind: KeyFloat, of: func(t Task) any { return t.Relevance }},
}

// DocumentSortKeys are the fields a document listing may be ordered by.
var DocumentSortKeys = []SortKey[Document]{
	{Field: "ref", Kind: KeyInt, of: func(d Document) any { return d.Ref }},
	{Field: "title", Kind: KeyFolded, of: func(d Document) any { return d.Title }},
	{Field: "created_at", Kind: KeyTime, of: func(d Document) any { return d.CreatedAt }},
	{Field: "updated_at", Kind: KeyTime, of: func(d Document) any { return d.UpdatedAt }},
	{Field: "content_updated_at", Kind: KeyTime, of: func(d Document) any { return d.ContentUpdatedAt }},
	{Field: "status", Kind: KeyInt, of: func(d Document) any { return int64(d.Status.Position) }},
	{Field: "type", Kind: KeyInt, of: func(d Document) any { return int64(d.Type.Position) }},
	{Field: "size_bytes", Kind: KeyInt, of: func(d Document) any { return int64(len(d.Body)) }},
	{Field: "relevance", Kind: KeyFloat, of: func(d Document) any { return d.Relevance }},
}

// TaskOrderFields are the fields a task listing may be ordered by.
var TaskOrderFields = sortFields(TaskSortKeys)

// DocumentOrderFields are the fields a document listing may be ordered by.
var DocumentOrderFields = sortFields(DocumentSortKeys)

func sortFields[T any](keys []SortKey[T]) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.Field
	}
	return out
}

// sortKinds are the kinds of the keys of order, in order.
func sortKinds[T any](keys []SortKey[T], order []OrderField) []KeyKind {
	out := make([]KeyKind, len(order))
	for i, f := range order {
		for _, k := range keys {
			if k.Field == f.Field {
				out[i] = k.Kind
				break
			}
		}
	}
	return out
}

// sortValues are a row's sort keys for order, in the form the store
// compares: what a cursor after that row holds.
func sortValues[T any](keys []SortKey[T], row T, order []OrderField) []any {
	out := make([]any, len(order))
	for i, f := range order {
		for _, k := range keys {
			if k.Field == f.Field {
				out[i] = k.key(row)
				break
			}
		}
	}
	return out
}
