package pages

import (
	"net/http"
	"net/url"

	"tend/app"
	"tend/web/wire"
)

// taskColumns are the Tasks page's sortable columns: label, sort key, and
// whether a phone's width leaves it out (row_tr in rows.html does the same
// for its cells), so the title, status and due keep their room.
var taskColumns = []struct {
	Label, Key string
	Wide       bool
}{
	{"Ref", "ref", true}, {"Title", "", false}, {"Status", "", false}, {"Due", "due_at", false}, {"Importance", "importance", true},
}

type tasksData struct {
	Query    url.Values // the filters and order shown, the form's and the sort links'
	Paging   url.Values // what the pager's links carry: Query, or the view listed through
	View     *app.View  // the saved view listed through, if any
	Items    []app.Task
	Page     app.Page
	Next     string // the next page's URL, "" on the last
	Paged    bool   // this is not the first page
	Sorts    []sortLink
	Projects []app.ProjectView
	Statuses []app.Status
}

// sortLink is a column heading that sorts by it (again: the other way).
type sortLink struct {
	Label, URL, Aria string
	Wide             bool // left out at a phone's width
}

// tasksPageFilters are the listing parameters the Tasks page offers and
// carries from page to page.
var tasksPageFilters = []string{"project", "tag", "status", "assignee", "ready", "q", "order", "include_completed"}

// pageTasks is the task listing with the filters people use, sortable
// columns and cursor paging; it reads the same query parameters as
// GET /v1/tasks, so a filtered page is a bookmark.
func (s *Server) pageTasks(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q := wire.TaskListQuery(wire.QueryParams(r.URL.Query()))
	if err := q.Err(); err != nil {
		return err
	}
	in.Workspace = workspaceOf(r)
	keep := url.Values{}
	for _, k := range tasksPageFilters {
		if v := r.URL.Query().Get(k); v != "" {
			keep.Set(k, v)
		}
	}
	list, err := s.app.Tasks(r.Context(), a, in)
	if err != nil {
		return err
	}
	d := tasksData{Query: keep, Paging: keep, Items: list.Items, Page: list.Page, Paged: in.Cursor != ""}
	if in.View != "" {
		v, err := s.app.ViewGet(r.Context(), a, in.Workspace, in.View)
		if err != nil {
			return err
		}
		d.View, d.Query, d.Paging = &v, wire.ViewValues(v.Query), url.Values{"view": {v.ID}}
	}
	if list.Page.NextCursor != "" {
		next := cloneValues(d.Paging)
		next.Set("cursor", list.Page.NextCursor)
		d.Next = "/tasks?" + next.Encode()
	}
	d.Sorts = sortLinks(d.Query)
	if d.Projects, err = s.app.Projects(r.Context(), a, in.Workspace, false); err != nil {
		return err
	}
	if d.Statuses, err = s.app.Statuses(r.Context(), a, in.Workspace, "task"); err != nil {
		return err
	}
	pv := s.view(r, a, "Tasks", "tasks", d)
	if d.View != nil {
		pv.Title, pv.ViewID = d.View.Name, d.View.ID
	}
	return s.render(w, http.StatusOK, "tasks", pv)
}

// sortLinks are the column headings: each sorts by its column, and again
// the other way when it already does.
func sortLinks(keep url.Values) []sortLink {
	var out []sortLink
	for _, c := range taskColumns {
		sl := sortLink{Label: c.Label, Wide: c.Wide}
		if c.Key != "" {
			v := cloneValues(keep)
			switch keep.Get("order") {
			case c.Key:
				v.Set("order", "-"+c.Key)
				sl.Aria = "ascending"
			case "-" + c.Key:
				v.Set("order", c.Key)
				sl.Aria = "descending"
			default:
				v.Set("order", c.Key)
			}
			sl.URL = "/tasks?" + v.Encode()
		}
		out = append(out, sl)
	}
	return out
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}
