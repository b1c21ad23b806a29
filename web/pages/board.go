package pages

import (
	"net/http"
	"net/url"

	"tend/app"
)

// boardColumn is one status category of the board.
type boardColumn struct {
	Category, Label string
	FirstStatus     string // where a card dropped on the column goes
	Cards           []app.Task
	More            string // a link to the rest of the column, "" when all shown
}

type boardData struct {
	Project  string
	Projects []app.ProjectView
	Statuses []app.Status
	Columns  []boardColumn
}

var categoryLabels = map[string]string{
	app.CategoryTodo: "To do", app.CategoryInProgress: "In progress", app.CategoryDone: "Done", app.CategoryCancelled: "Cancelled",
}

// pageBoard shows a project's tasks in one column per status category;
// without a project it shows the first one.
func (s *Server) pageBoard(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := workspaceOf(r)
	d := boardData{Project: r.URL.Query().Get("project")}
	var err error
	if d.Projects, err = s.app.Projects(r.Context(), a, ws, false); err != nil {
		return err
	}
	if d.Project == "" && len(d.Projects) > 0 {
		d.Project = d.Projects[0].Key
	}
	if d.Statuses, err = s.app.Statuses(r.Context(), a, ws, "task"); err != nil {
		return err
	}
	included := true
	list, err := s.app.Tasks(r.Context(), a, app.TaskListQuery{Workspace: ws, Project: d.Project,
		IncludeCompleted: &included, GroupBy: "status_category", GroupLimit: 50})
	if err != nil {
		return err
	}
	for _, g := range list.Groups {
		c := boardColumn{Category: g.Key, Label: categoryLabels[g.Key], Cards: g.Items}
		for _, st := range d.Statuses {
			if st.Category == g.Key {
				c.FirstStatus = st.Key
				break
			}
		}
		if g.Page.HasMore {
			c.More = "/tasks?" + url.Values{"project": {d.Project}, "include_completed": {"true"}}.Encode()
		}
		d.Columns = append(d.Columns, c)
	}
	return s.render(w, http.StatusOK, "board", s.view(r, a, "Board", "board", d))
}

// pageTaskStatus moves a task to another status (a card's move form, a
// drag, or ←/→ on a card), with the version the person saw. A stale
// version changes nothing: the board shows again with the card as it is now
// and says why (with the script: the refusal, then the board read again).
func (s *Server) pageTaskStatus(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.rowUpdate(w, r, a, "/board", func(f *pageForm, in *app.TaskUpdate) error {
		in.Status = app.Patch[string]{Set: true, Value: f.str("status")}
		return nil
	})
}

// notices are the messages a page shows after a redirect, by key, so no
// text of the person's choosing travels in a URL into a page.
var notices = map[string]string{
	"conflict":      "Someone changed that task since you loaded the page, so your change was not saved. It is shown as it is now; try again.",
	"edited":        "Saved.",
	"next":          "This is the next occurrence.",
	"trashed":       "Moved to the trash, with everything filed in it. Restore it from the trash below.",
	"bulk":          "Changed the selected tasks.",
	"restored_bulk": "Restored the tasks from the trash, with the subtasks trashed along with them.",
	"conflict_bulk": "Someone changed one of the selected tasks since you loaded the page, so none was changed. " +
		"They are shown as they are now; try again.",
	"conflict_project": "Someone changed this project since you loaded the page, so your change was not saved. " +
		"It is shown as it is now; try again.",
	"conflict_document": "Someone changed this document since you loaded it, so your edit was not saved. Your text is kept in the form, " +
		"with how it differs from what was saved meanwhile; save again to replace that with yours.",
	"test_queued": "A test notification is on its way; the channel's last success or failure shows below once it went.",
}

func withNotice(to, key string) string {
	u, err := url.Parse(to)
	if err != nil {
		return to
	}
	q := u.Query()
	q.Set("notice", key)
	u.RawQuery = q.Encode()
	return u.String()
}
