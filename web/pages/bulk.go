package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// pageBulk makes one change to the tasks a list's rows selected (the
// bulkbar form, which their boxes belong to; or the toast's Undo of a
// bulk delete, which restores them), all or nothing, through the
// Service's bulk change as POST /v1/tasks/bulk does, and goes back to the
// list. Each box carries the version its row was shown at: a task changed
// meanwhile refuses the whole change, and the list comes back to say so.
func (s *Server) pageBulk(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	back := localBack(f.str("back"), "/tasks")
	change, err := bulkChangeOf(f.str("action"), f.str("value"))
	if err != nil {
		return err
	}
	var targets []app.BulkTarget
	for _, v := range f.r.PostForm["ref"] {
		ref, version, _ := strings.Cut(v, "@")
		t := app.BulkTarget{Ref: app.FlexRef(ref)}
		if n, err := strconv.Atoi(version); err == nil {
			t.ExpectedVersion = &n
		}
		targets = append(targets, t)
	}
	ts, err := s.app.BulkTasks(r.Context(), a, workspaceOf(r), targets, change)
	switch {
	case app.CodeOf(err) == app.CodeVersionConflict:
		return seeOther(w, r, withNotice(back, "conflict_bulk"))
	case err != nil:
		return err
	case change.Delete:
		// The list comes back with the toast's Undo, which restores
		// every task trashed here in one bulk change.
		q := url.Values{}
		for _, t := range ts {
			q.Add("trashed", wire.Itoa64(t.Ref))
		}
		return seeOther(w, r, backTo(back, q, 0))
	case change.Restore:
		return seeOther(w, r, withNotice(back, "restored_bulk"))
	}
	return seeOther(w, r, withNotice(back, "bulk"))
}

// bulkChangeOf is the change the bar's action and value ask for: a tag
// (or several, apart by spaces or commas), a username ("" for nobody), a
// project key or a day in words ("" for none).
func bulkChangeOf(action, value string) (app.BulkChange, error) {
	value = strings.TrimSpace(value)
	patch := app.Patch[string]{Set: true, Null: value == "", Value: value}
	tags := strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
	switch action {
	case "complete":
		return app.BulkChange{Complete: true}, nil
	case "delete":
		return app.BulkChange{Delete: true}, nil
	case "restore":
		return app.BulkChange{Restore: true}, nil
	case "tag":
		return app.BulkChange{Tags: &app.TagChange{Add: tags}}, nil
	case "untag":
		return app.BulkChange{Tags: &app.TagChange{Remove: tags}}, nil
	case "assignee":
		return app.BulkChange{Assignee: patch}, nil
	case "project":
		return app.BulkChange{Project: app.PatchOf(value)}, nil
	case "due":
		return app.BulkChange{Due: patch}, nil
	}
	return app.BulkChange{}, app.Invalidf("form.action", "complete, tag, untag, assignee, project, due, delete or restore")
}
