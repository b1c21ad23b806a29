package pages

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"tend/app"
	"tend/web/wire"
)

// The trash, in the web app: a task is deleted from its page or from its
// row's menu on a list (it goes to the trash with its subtasks, and the
// toast offers Undo); the Trash page lists what is in the trash, newest
// first, each with Restore and, for the workspace's owners and
// administrators, Delete forever. Without the script every action is a
// form post answered 303; with it, a row's delete and its Undo are put in
// place (X-Tend-Fragment, as the other row actions).

// trashShown is how many tasks and how many documents the Trash page
// lists: the newest of each.
const trashShown = 200

// trashItem is one row of the Trash page.
type trashItem struct {
	Kind      string // "task" or "document"
	Ref       int64
	Title     string
	Project   string
	DeletedAt time.Time
}

// trashData is the Trash page: what is in it, newest first, and whether
// the person may delete forever.
type trashData struct {
	Items    []trashItem
	More     bool // either list held more than trashShown
	CanPurge bool
	Purged   *deletedToast // what the person just deleted forever
}

// pageTrash lists the workspace's trashed tasks and documents.
func (s *Server) pageTrash(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := workspaceOf(r)
	ts, err := s.app.Tasks(r.Context(), a, app.TaskListQuery{Workspace: ws, Deleted: true, Limit: trashShown})
	if err != nil {
		return err
	}
	ds, err := s.app.Documents(r.Context(), a, app.DocumentListQuery{Workspace: ws, Deleted: true, Limit: trashShown})
	if err != nil {
		return err
	}
	me, err := s.app.Me(r.Context(), a)
	if err != nil {
		return err
	}
	d := trashData{More: ts.Page.HasMore || ds.Page.HasMore, CanPurge: mayPurge(me, ws), Purged: refParam(r, "purged")}
	for _, t := range ts.Items {
		d.Items = append(d.Items, trashItem{"task", t.Ref, t.Title, t.ProjectPath, deref(t.DeletedAt)})
	}
	for _, doc := range ds.Items {
		d.Items = append(d.Items, trashItem{"document", doc.Ref, doc.Title, doc.ProjectPath, deref(doc.DeletedAt)})
	}
	// Newest first; refs are given out in order, so the newer item first
	// among those trashed at one instant.
	slices.SortFunc(d.Items, func(x, y trashItem) int {
		if c := y.DeletedAt.Compare(x.DeletedAt); c != 0 {
			return c
		}
		return int(y.Ref - x.Ref)
	})
	return s.render(w, http.StatusOK, "trash", s.view(r, a, "Trash", "trash", d))
}

// mayPurge reports whether the person may delete forever in the workspace
// shown (ws, else their only one): the Service's rule, read from their
// permissions there, so the button shows only where the route would act.
func mayPurge(me app.Me, ws string) bool {
	w, ok := shownWorkspace(me, ws)
	return ok && slices.Contains(w.Permissions, app.PermWorkspaceWrite)
}

// shownWorkspace is the workspace a page shows, ws (a slug or an id), else
// the person's only one; false when that names none of theirs.
func shownWorkspace(me app.Me, ws string) (app.WorkspaceView, bool) {
	for _, w := range me.Workspaces {
		if w.Slug == ws || w.ID == ws || (ws == "" && len(me.Workspaces) == 1) {
			return w, true
		}
	}
	return app.WorkspaceView{}, false
}

func deref(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// pageTaskDelete moves a task, with its subtasks, to the trash. With the
// script it answers 204 and the script takes the row away; without it the
// person goes back (to the form's back, else the task's project) with the
// toast's Undo.
func (s *Server) pageTaskDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	var t app.Task
	if err == nil {
		t, err = s.app.DeleteTask(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"))
	}
	if fragmentKind(r) != "" {
		if err != nil {
			wire.WriteProblem(s.log, w, r, err)
			return nil
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	if err != nil {
		return err
	}
	back := localBack(f.str("back"), projectURL(t.ProjectKey))
	return seeOther(w, r, backTo(back, withAlong(url.Values{"trashed": {wire.Itoa64(t.Ref)}}, f.str("subtasks")), 0))
}

// pageTrashRestore brings a task or document (the form's kind) back from
// the trash: the Trash page's Restore and the toast's Undo. With the script
// (Undo on a list) it answers the task's row to put back in place.
func (s *Server) pageTrashRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	kind := fragmentKind(r)
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	ws, ref := workspaceOf(r), wire.Param(r, "ref")
	to := ""
	if f.str("kind") == "document" {
		var d app.Document
		d, err = s.app.RestoreDocument(r.Context(), a, ws, ref)
		to = "/documents/" + wire.Itoa64(d.Ref)
	} else {
		var t app.Task
		t, err = s.app.RestoreTask(r.Context(), a, ws, ref)
		if err == nil && kind != "" {
			return s.rowFragment(w, r, a, kind, localBack(f.str("back"), "/"), []app.Task{t})
		}
		to = "/tasks/" + wire.Itoa64(t.Ref)
	}
	switch {
	case err != nil && kind != "":
		wire.WriteProblem(s.log, w, r, err)
		return nil
	case err != nil:
		return err
	}
	return seeOther(w, r, localBack(f.str("back"), to))
}

// pageTrashPurge deletes a task or document (the form's kind) forever,
// from the Trash page.
func (s *Server) pageTrashPurge(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	kind := "task"
	if f.str("kind") == "document" {
		kind = "document"
	}
	p, err := s.app.Purge(r.Context(), a, workspaceOf(r), kind, wire.Param(r, "ref"))
	if err != nil {
		return err
	}
	return seeOther(w, r, backTo("/trash", withAlong(url.Values{"purged": {wire.Itoa64(p.Ref)}}, strconv.Itoa(p.Along)), 0))
}

// withAlong adds to a page's query how many items went with the one
// acted on, when any did.
func withAlong(q url.Values, n string) url.Values {
	if n != "" && n != "0" {
		q.Set("along", n)
	}
	return q
}

// deletedToast is what a page says after a delete without the script:
// the item's ref and how many items went with it (the toast adds Undo).
type deletedToast struct {
	Ref   string
	Along int
	// Refs are the tasks a bulk delete trashed, when it trashed more than
	// one: the toast's Undo restores them all in one bulk change.
	Refs []string
}

// refParam reads the ref a page was sent back with (?trashed=REF after a
// delete, ?purged=REF after a delete forever) with the count of items
// that went with it (?along=N), or the refs a bulk delete trashed
// (?trashed=REF&trashed=REF…); nil without one.
func refParam(r *http.Request, name string) *deletedToast {
	q := r.URL.Query()
	refs := q[name]
	if len(refs) == 0 || len(refs) > app.MaxBulkTasks || r.Method != http.MethodGet {
		return nil
	}
	for _, ref := range refs {
		if _, err := strconv.ParseInt(ref, 10, 64); err != nil {
			return nil
		}
	}
	n, _ := strconv.Atoi(q.Get("along"))
	d := &deletedToast{Ref: refs[0], Along: n}
	if len(refs) > 1 {
		d.Refs = refs
	}
	return d
}

// trashRoutes mounts the trash's pages and actions.
func (s *Server) trashRoutes(rt Router) {
	s.page(rt, http.MethodGet, "/trash", s.pageTrash)
	s.page(rt, http.MethodPost, "/tasks/:ref/delete", s.pageTaskDelete)
	s.page(rt, http.MethodPost, "/trash/:ref/restore", s.pageTrashRestore)
	s.page(rt, http.MethodPost, "/trash/:ref/purge", s.pageTrashPurge)
}
