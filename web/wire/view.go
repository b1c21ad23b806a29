package wire

import (
	"net/url"
	"slices"
	"strings"

	"tend/app"
)

// View is a saved view as the API answers it. Query is its filters and
// order as GET /v1/tasks's query string, keys sorted; Count the tasks the
// caller sees through it, in a read's answer (a write's answers null, as
// does a read of a view whose filters no longer resolve for the caller),
// up to 100: CountCapped says more match.
type View struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Query  string `json:"query"`
	Shared bool   `json:"shared"`
	Owner  string `json:"owner"`
	Count  *int   `json:"count"`
	// CountCapped is true when more tasks match than count says.
	CountCapped bool   `json:"count_capped"`
	Version     int    `json:"version"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// NewView is the wire record of v.
func NewView(v app.View) View {
	return View{ID: v.ID, Name: v.Name, Query: ViewQueryString(v.Query), Shared: v.Shared, Owner: v.Username, Count: v.Count, CountCapped: v.CountCapped,
		Version: v.Version, CreatedAt: Stamp(v.CreatedAt), UpdatedAt: Stamp(v.UpdatedAt)}
}

// ViewQueryString is a view's filters and order as a query string of the
// task listing, keys sorted. Commas, legal in a query (RFC 3986's
// sub-delims), stay as written: an order reads -due_at,ref.
func ViewQueryString(q app.TaskListQuery) string {
	return strings.ReplaceAll(ViewValues(q).Encode(), "%2C", ",")
}

// ViewValues are a view's filters and order as the task listing's query.
func ViewValues(q app.TaskListQuery) url.Values {
	v := url.Values{}
	for k, s := range app.ViewParams(q) {
		v.Set(k, s)
	}
	return v
}

// ViewCreate is the body of POST /v1/views.
type ViewCreate struct {
	Name   string `json:"name"`
	Query  string `json:"query"`
	Shared bool   `json:"shared,omitempty"`
}

// App is the view as the Service takes it, its query read as
// GET /v1/tasks reads its own.
func (in ViewCreate) App() (app.ViewCreate, error) {
	q, err := ViewQuery(in.Query)
	return app.ViewCreate{Name: in.Name, Query: q, Shared: in.Shared}, err
}

// ViewUpdate is the body of PATCH /v1/views/{view}: omitted fields stay.
type ViewUpdate struct {
	Name            *string `json:"name,omitempty"`
	Query           *string `json:"query,omitempty"`
	Shared          *bool   `json:"shared,omitempty"`
	ExpectedVersion *int    `json:"expected_version,omitempty"`
}

// App is the change as the Service takes it.
func (in ViewUpdate) App() (app.ViewUpdate, error) {
	out := app.ViewUpdate{Name: in.Name, Shared: in.Shared, ExpectedVersion: in.ExpectedVersion}
	if in.Query != nil {
		q, err := ViewQuery(*in.Query)
		if err != nil {
			return out, err
		}
		out.Query = &q
	}
	return out, nil
}

// viewParams are a view's query string read as the listing's parameters,
// each located in the body's query.
type viewParams struct{ QueryParams }

// Loc is body.query.<key>.
func (viewParams) Loc(key string) string { return "body.query." + key }

// ViewQuery reads a view's query string with the listing's own reader
// (TaskListQuery), so a view holds nothing GET /v1/tasks would refuse;
// paging and anything else that is no filter or order is refused by name.
func ViewQuery(s string) (app.TaskListQuery, error) {
	vs, err := url.ParseQuery(s)
	if err != nil {
		return app.TaskListQuery{}, app.Invalidf("body.query", "query is a URL query string such as status=todo&order=-due_at")
	}
	p := viewParams{QueryParams(vs)}
	in, q := TaskListQuery(p)
	for _, k := range slices.Sorted(slices.Values(p.Keys())) {
		if !app.IsViewParam(k) {
			q.Fail(k, "a view keeps the task listing's filters and order; %s is not one of them", k)
		}
	}
	return in, q.Err()
}
