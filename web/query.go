package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tend/app"
)

// query reads typed query parameters, collecting what is wrong with them.
// The query string is parsed once: a listing reads some twenty parameters.
type query struct {
	vals url.Values
	errs []error
}

// newQuery parses the query string. A value holding U+0000 is refused as
// a body's text is (see refuseNUL).
func newQuery(r *http.Request) *query {
	q := &query{vals: r.URL.Query()}
	for name, vs := range q.vals {
		if slices.ContainsFunc(vs, func(v string) bool { return strings.ContainsRune(v, 0) }) {
			q.errs = append(q.errs, app.Invalidf("query."+name, "text may not contain U+0000"))
		}
	}
	return q
}

func (q *query) str(name string) string { return q.vals.Get(name) }

func (q *query) int(name string) int {
	v := q.str(name)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.errs = append(q.errs, app.Invalidf("query."+name, "%s must be a whole number", name))
	}
	return n
}

// limit reads the listing limit: absent is 0 (the default page size);
// present, it is at least 1.
func (q *query) limit() int {
	if q.str("limit") == "" {
		return 0
	}
	n := q.int("limit")
	if n < 1 && len(q.errs) == 0 {
		q.errs = append(q.errs, app.Invalidf("query.limit", "limit is at least 1"))
	}
	return n
}

func (q *query) bool(name string) bool {
	v := q.str(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		q.errs = append(q.errs, app.Invalidf("query."+name, "%s must be true or false", name))
	}
	return b
}

func (q *query) err() error {
	if len(q.errs) == 0 {
		return nil
	}
	if len(q.errs) == 1 {
		return q.errs[0]
	}
	e := app.AsError(q.errs[0])
	for _, x := range q.errs[1:] {
		e.Fields = append(e.Fields, app.AsError(x).Fields...)
	}
	return e
}

func (q *query) optBool(name string) *bool {
	if q.str(name) == "" {
		return nil
	}
	b := q.bool(name)
	return &b
}

// wsParam is the workspace_id query parameter: an id or a slug.
func wsParam(r *http.Request) string { return r.URL.Query().Get("workspace_id") }

// createdAt reads created_at.gt, .gte, .lt and .lte as written; the
// Service resolves them (docs/time.md, "Filter values").
func (q *query) createdAt() app.TimeFilter {
	return app.TimeFilter{GT: q.str("created_at.gt"), GTE: q.str("created_at.gte"), LT: q.str("created_at.lt"), LTE: q.str("created_at.lte")}
}

// fieldFilters collects the task listing's field filters (due_at.gte=…,
// under=12) for app to read; a key given twice must say the same both
// times.
func (q *query) fieldFilters() map[string]string {
	var out map[string]string
	for name, vs := range q.vals {
		if !app.IsTaskFieldFilter(name) {
			continue
		}
		if slices.ContainsFunc(vs, func(v string) bool { return v != vs[0] }) {
			q.errs = append(q.errs, app.Invalidf("query."+name, "%s is given twice with different values", name))
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = vs[0]
	}
	return out
}
