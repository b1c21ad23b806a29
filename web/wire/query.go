package wire

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tend/app"
)

// Params is where a request's named parameters come from: the query string
// over HTTP, a tool's arguments over MCP. It says where the caller wrote
// each one, so that an error names that place: query.status for
// GET /v1/tasks?status=, arguments.filter.status for service_list's filter.
type Params interface {
	// Values are the values given for key, none when it is absent.
	Values(key string) []string
	// Keys are the keys given, in no particular order.
	Keys() []string
	// Loc is where key was written, as an error's location.
	Loc(key string) string
}

// QueryParams are the parameters of a URL's query string.
type QueryParams url.Values

// Values are the values of the parameter key.
func (p QueryParams) Values(key string) []string { return p[key] }

// Keys are the parameters' names.
func (p QueryParams) Keys() []string { return slices.Collect(maps.Keys(p)) }

// Loc is query.<key>.
func (QueryParams) Loc(key string) string { return "query." + key }

// Query reads typed parameters, collecting what is wrong with them.
// The query string is parsed once: a listing reads some twenty parameters.
type Query struct {
	src  Params
	errs []error
}

// NewQuery parses the request's query string.
func NewQuery(r *http.Request) *Query { return QueryOf(QueryParams(r.URL.Query())) }

// QueryOf reads the parameters p gives. A value holding U+0000 is
// refused as a body's text is (see refuseNUL).
func QueryOf(p Params) *Query {
	q := &Query{src: p}
	for _, name := range p.Keys() {
		if slices.ContainsFunc(p.Values(name), func(v string) bool { return strings.ContainsRune(v, 0) }) {
			q.Fail(name, "text may not contain U+0000")
		}
	}
	return q
}

// Fail records that the parameter name is wrong, saying msg.
func (q *Query) Fail(name, msg string, args ...any) {
	q.Refuse(app.Invalidf(q.src.Loc(name), msg, args...))
}

// Refuse records err beside what is wrong with the parameters, so that
// err reports both.
func (q *Query) Refuse(err error) { q.errs = append(q.errs, err) }

// Str is the parameter name, "" when absent.
func (q *Query) Str(name string) string {
	if vs := q.src.Values(name); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Int is the whole number name, 0 when absent.
func (q *Query) Int(name string) int {
	v := q.Str(name)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.Fail(name, "%s must be a whole number", name)
	}
	return n
}

// Limit reads the listing limit: absent is 0 (the default page size);
// present, it is at least 1.
func (q *Query) Limit() int {
	if q.Str("limit") == "" {
		return 0
	}
	n := q.Int("limit")
	if n < 1 && len(q.errs) == 0 {
		q.Fail("limit", "limit is at least 1")
	}
	return n
}

// Bool is the parameter name read as true or false, false when absent.
func (q *Query) Bool(name string) bool {
	v := q.Str(name)
	if v == "" {
		return false
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		q.Fail(name, "%s must be true or false", name)
	}
	return b
}

// Err is what is wrong with the parameters read, nil when nothing is; several wrongs make one error.
func (q *Query) Err() error {
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

// OptBool is Bool, nil when absent.
func (q *Query) OptBool(name string) *bool {
	if q.Str(name) == "" {
		return nil
	}
	b := q.Bool(name)
	return &b
}

// CreatedAt reads created_at.gt, .gte, .lt and .lte as written; the
// Service resolves them (docs/time.md, "Filter values").
func (q *Query) CreatedAt() app.TimeFilter {
	return app.TimeFilter{GT: q.Str("created_at.gt"), GTE: q.Str("created_at.gte"), LT: q.Str("created_at.lt"), LTE: q.Str("created_at.lte")}
}

// FieldFilters collects the task listing's field filters (due_at.gte=…,
// under=12) for app to read; a key given twice must say the same both
// times.
func (q *Query) FieldFilters() map[string]string {
	var out map[string]string
	for _, name := range q.src.Keys() {
		if !app.IsTaskFieldFilter(name) {
			continue
		}
		vs := q.src.Values(name)
		if slices.ContainsFunc(vs, func(v string) bool { return v != vs[0] }) {
			q.Fail(name, "%s is given twice with different values", name)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = vs[0]
	}
	return out
}

// TaskListQuery reads the task listing's parameters from p: the query of
// GET /v1/tasks and of the Tasks page, service_list's arguments. Every
// error, its own and those the Service finds in the query it makes, names
// the parameter where p says it was written.
func TaskListQuery(p Params) (app.TaskListQuery, *Query) {
	q := QueryOf(p)
	in := app.TaskListQuery{Workspace: q.Str("workspace_id"), Project: q.Str("project"), Status: q.Str("status"), Tag: q.Str("tag"),
		StatusCategory: q.Str("status_category"), Type: q.Str("type"), Assignee: q.Str("assignee"), ClaimedBy: q.Str("claimed_by"),
		Parent: strings.TrimPrefix(q.Str("parent"), "#"), Subtree: q.Bool("subtree"), Q: q.Str("q"), DueBefore: q.Str("due_before"),
		DueAfter: q.Str("due_after"), IncludeCompleted: q.OptBool("include_completed"), Deferred: q.Str("deferred"),
		Deleted: q.Bool("deleted"), Ready: q.Bool("ready"), ToActOn: q.Bool("to_act_on"), Order: q.Str("order"),
		Limit: q.Limit(), Cursor: q.Str("cursor"), IncludeTotal: q.Bool("include_total"), GroupBy: q.Str("group_by"),
		GroupLimit: q.Int("group_limit"), View: q.Str("view"), Filter: q.FieldFilters(), Loc: p.Loc}
	for _, inc := range strings.Split(q.Str("include"), ",") {
		switch strings.TrimSpace(inc) {
		case "":
		case "links":
			in.IncludeLinks = true
		default:
			q.Fail("include", "include takes links")
		}
	}
	return in, q
}
