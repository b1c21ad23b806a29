package web

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tend/app"
)

// params is where a request's named parameters come from: the query string
// over HTTP, a tool's arguments over MCP. It says where the caller wrote
// each one, so that an error names that place: query.status for
// GET /v1/tasks?status=, arguments.filter.status for service_list's filter.
type params interface {
	// values are the values given for key, none when it is absent.
	values(key string) []string
	// keys are the keys given, in no particular order.
	keys() []string
	// loc is where key was written, as an error's location.
	loc(key string) string
}

// queryParams are the parameters of a URL's query string.
type queryParams url.Values

func (p queryParams) values(key string) []string { return p[key] }
func (p queryParams) keys() []string             { return slices.Collect(maps.Keys(p)) }
func (queryParams) loc(key string) string        { return "query." + key }

// query reads typed parameters, collecting what is wrong with them.
// The query string is parsed once: a listing reads some twenty parameters.
type query struct {
	src  params
	errs []error
}

// newQuery parses the request's query string.
func newQuery(r *http.Request) *query { return newQueryOf(queryParams(r.URL.Query())) }

// newQueryOf reads the parameters p gives. A value holding U+0000 is
// refused as a body's text is (see refuseNUL).
func newQueryOf(p params) *query {
	q := &query{src: p}
	for _, name := range p.keys() {
		if slices.ContainsFunc(p.values(name), func(v string) bool { return strings.ContainsRune(v, 0) }) {
			q.fail(name, "text may not contain U+0000")
		}
	}
	return q
}

// fail records that the parameter name is wrong, saying msg.
func (q *query) fail(name, msg string, args ...any) {
	q.refuse(app.Invalidf(q.src.loc(name), msg, args...))
}

// refuse records err beside what is wrong with the parameters, so that
// err reports both.
func (q *query) refuse(err error) { q.errs = append(q.errs, err) }

func (q *query) str(name string) string {
	if vs := q.src.values(name); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

func (q *query) int(name string) int {
	v := q.str(name)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.fail(name, "%s must be a whole number", name)
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
		q.fail("limit", "limit is at least 1")
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
		q.fail(name, "%s must be true or false", name)
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
	for _, name := range q.src.keys() {
		if !app.IsTaskFieldFilter(name) {
			continue
		}
		vs := q.src.values(name)
		if slices.ContainsFunc(vs, func(v string) bool { return v != vs[0] }) {
			q.fail(name, "%s is given twice with different values", name)
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = vs[0]
	}
	return out
}

// taskListQuery reads the task listing's parameters from p: the query of
// GET /v1/tasks and of the Tasks page, service_list's arguments. Every
// error, its own and those the Service finds in the query it makes, names
// the parameter where p says it was written.
func taskListQuery(p params) (app.TaskListQuery, *query) {
	q := newQueryOf(p)
	in := app.TaskListQuery{Workspace: q.str("workspace_id"), Project: q.str("project"), Status: q.str("status"), Tag: q.str("tag"),
		StatusCategory: q.str("status_category"), Type: q.str("type"), Assignee: q.str("assignee"), ClaimedBy: q.str("claimed_by"),
		Parent: strings.TrimPrefix(q.str("parent"), "#"), Subtree: q.bool("subtree"), Q: q.str("q"), DueBefore: q.str("due_before"),
		DueAfter: q.str("due_after"), IncludeCompleted: q.optBool("include_completed"), Deferred: q.str("deferred"),
		Deleted: q.bool("deleted"), Ready: q.bool("ready"), ToActOn: q.bool("to_act_on"), Order: q.str("order"),
		Limit: q.limit(), Cursor: q.str("cursor"), IncludeTotal: q.bool("include_total"), GroupBy: q.str("group_by"),
		GroupLimit: q.int("group_limit"), Filter: q.fieldFilters(), Loc: p.loc}
	for _, inc := range strings.Split(q.str("include"), ",") {
		switch strings.TrimSpace(inc) {
		case "":
		case "links":
			in.IncludeLinks = true
		default:
			q.fail("include", "include takes links")
		}
	}
	return in, q
}
