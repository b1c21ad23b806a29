package pages

import (
	"bytes"
	"html/template"
	"net/http"
	"net/url"
	"strconv"

	"tend/app"
	"tend/web/wire"
)

// A task row is the same partial on every list (rows.html): Today, Tasks,
// Board cards, Search and a project's tasks. Its checkbox and the list keys
// post to the row actions below. Without the script a row action answers
// 303 back to the list it came from; with it, the script sends
// X-Tend-Fragment naming the row's kind and the action answers the row
// rendered again (and, for a completed occurrence, the next one), which the
// script puts in place. Each action calls one Service method, as the API
// does.

// rowTemplates are the row partials a row action can answer with, by the
// X-Tend-Fragment value the page's script sends.
var rowTemplates = map[string]string{"li": "row_li", "tr": "row_tr", "card": "row_card"}

// taskRow is what a row partial shows: the task, and where the row's forms
// send the person back to. What a row writes more than once is read from
// the task here, once: a list renders hundreds of rows, and each field or
// method the template reaches on a Task (some fifty fields) is a lookup by
// name.
type taskRow struct {
	T    *app.Task // a Task is over a kilobyte: pointed at, not copied
	Back string    // the list's URL, where a form without the script returns
	// Near is the ref of the row after this one (else before it): the list
	// scrolls back there once a completed task has left it.
	Near     int64
	Statuses []app.Status // a board card's status menu

	Ref              int64
	Version          int
	Title            string
	Done             bool
	Status, Category string        // the status's key and category
	Due              string        // the due as the due prompt takes it back
	DueText          template.HTML // and as shown (in an attribute, as text)
}

// rowOf is a row of a list at back.
func rowOf(back string, t *app.Task) taskRow {
	return taskRow{T: t, Back: back, Near: t.Ref, Ref: t.Ref, Version: t.Version, Title: t.Title, Done: t.IsComplete(),
		Status: t.Status.Key, Category: t.Status.Category,
		Due: isoDate(t.DueAt, t.DueIsAllDay, t.Timezone), DueText: showWhen(t.DueAt, t.DueIsAllDay, t.Timezone)}
}

// rowAt is the i-th row of list, shown at back.
func rowAt(back string, list []app.Task, i int) taskRow {
	r := rowOf(back, &list[i])
	switch {
	case i+1 < len(list):
		r.Near = list[i+1].Ref
	case i > 0:
		r.Near = list[i-1].Ref
	}
	return r
}

// cardOf is a board card: a row with the status menu of its move form.
func cardOf(back string, t *app.Task, statuses []app.Status) taskRow {
	r := rowOf(back, t)
	r.Statuses = statuses
	return r
}

// rowFuncs are the template functions of the row partials.
var rowFuncs = map[string]any{"rowAt": rowAt, "card": cardOf}

// fragmentKind is the row kind a request asks to be answered with, "" for
// a plain form post.
func fragmentKind(r *http.Request) string {
	k := r.Header.Get("X-Tend-Fragment")
	if _, ok := rowTemplates[k]; ok {
		return k
	}
	return ""
}

// localBack is where a page action returns: back when it is a path on this
// site, else def, so a form can never send the person elsewhere.
func localBack(back, def string) string {
	if back == "" || back[0] != '/' || (len(back) > 1 && (back[1] == '/' || back[1] == '\\')) {
		return def
	}
	return back
}

// backTo is back with the query set added and the fragment #t-anchor.
func backTo(back string, set url.Values, anchor int64) string {
	u, err := url.Parse(back)
	if err != nil {
		return back
	}
	q := u.Query()
	for k, vs := range set {
		q[k] = vs
	}
	u.RawQuery = q.Encode()
	if anchor != 0 {
		u.Fragment = "t-" + strconv.FormatInt(anchor, 10)
	}
	return u.String()
}

// rowAction runs a row action: do changes the task and answers the rows
// to show (the task first); without the script the person goes back to
// the list (the form's back, else def), to the row that anchor names.
func (s *Server) rowAction(w http.ResponseWriter, r *http.Request, a app.Actor, def string,
	do func(f *pageForm, ws, ref string) ([]app.Task, error), after func(f *pageForm, rows []app.Task) (url.Values, int64)) error {
	kind := fragmentKind(r)
	f, err := s.form(w, r)
	var rows []app.Task
	if err == nil {
		rows, err = do(f, workspaceOf(r), wire.Param(r, "ref"))
	}
	back := def
	if f != nil {
		back = localBack(f.str("back"), def)
	}
	switch {
	case err != nil && kind != "":
		wire.WriteProblem(s.log, w, r, err)
		return nil
	case app.CodeOf(err) == app.CodeVersionConflict:
		return seeOther(w, r, backTo(back, url.Values{"notice": {"conflict"}}, refOf(r)))
	case err != nil:
		return err
	case kind != "":
		return s.rowFragment(w, r, a, kind, back, rows)
	}
	set, anchor := after(f, rows)
	return seeOther(w, r, backTo(back, set, anchor))
}

func refOf(r *http.Request) int64 {
	n, _ := strconv.ParseInt(wire.Param(r, "ref"), 10, 64)
	return n
}

// rowFragment writes rows as the partial of kind, for the script to put in
// place of the row it acted on.
func (s *Server) rowFragment(w http.ResponseWriter, r *http.Request, a app.Actor, kind, back string, rows []app.Task) error {
	var statuses []app.Status
	if kind == "card" {
		var err error
		if statuses, err = s.app.Statuses(r.Context(), a, workspaceOf(r), "task"); err != nil {
			wire.WriteProblem(s.log, w, r, err)
			return nil
		}
	}
	var b bytes.Buffer
	for i := range rows {
		if err := templates().ExecuteTemplate(&b, rowTemplates[kind], cardOf(back, &rows[i], statuses)); err != nil {
			return err
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, err := b.WriteTo(w)
	return err
}

// pageRowDone completes a task from its row's checkbox. Without the script
// the list shows again with the Undo toast, scrolled to the next
// occurrence the completion brought, else to the row's neighbour.
func (s *Server) pageRowDone(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.rowAction(w, r, a, "/", func(f *pageForm, ws, ref string) ([]app.Task, error) {
		c, err := s.app.CompleteTask(r.Context(), a, ws, ref, app.Completion{})
		if c.Next != nil {
			return []app.Task{c.Task, *c.Next}, err
		}
		return []app.Task{c.Task}, err
	}, func(f *pageForm, rows []app.Task) (url.Values, int64) {
		set := url.Values{"done": {wire.Itoa64(rows[0].Ref)}}
		if was := f.str("was"); was != "" {
			set.Set("was", was)
		}
		anchor, _ := strconv.ParseInt(f.str("near"), 10, 64)
		if len(rows) > 1 {
			anchor = rows[1].Ref
		}
		return set, anchor
	})
}

// pageRowReopen reopens a finished task (its checkbox clicked again, or
// Undo) with the version the person saw: to the status it had before, when
// the form names it, else to the workspace's default status.
func (s *Server) pageRowReopen(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.rowUpdate(w, r, a, "/", func(f *pageForm, in *app.TaskUpdate) error {
		status := f.str("status")
		if status == "" {
			sts, err := s.app.Statuses(r.Context(), a, workspaceOf(r), "task")
			if err != nil {
				return err
			}
			status = reopenStatus(sts)
		}
		in.Status = app.Patch[string]{Set: true, Value: status}
		return nil
	})
}

// reopenStatus is where a task goes back to without a status named: the
// default, or the first open status if the default is a finished one.
func reopenStatus(sts []app.Status) string {
	first := ""
	for _, st := range sts {
		open := st.Category == app.CategoryTodo || st.Category == app.CategoryInProgress
		if st.IsDefault && open {
			return st.Key
		}
		if first == "" && open {
			first = st.Key
		}
	}
	return first
}

// pageRowAssign assigns the task to the person (the list key a).
func (s *Server) pageRowAssign(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.rowUpdate(w, r, a, "/", func(f *pageForm, in *app.TaskUpdate) error {
		in.Assignee = app.Patch[string]{Set: true, Value: a.User.Username}
		return nil
	})
}

// pageRowDue sets the task's due from a date or phrase (the list key t),
// read by the server's own parser as the API's until is; empty clears it.
func (s *Server) pageRowDue(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.rowUpdate(w, r, a, "/", func(f *pageForm, in *app.TaskUpdate) error {
		in.Until = app.Patch[string]{Set: true, Value: f.str("until")}
		return nil
	})
}

// rowUpdate is a row action that is one update of the task, with the
// version the row was shown at.
func (s *Server) rowUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, def string,
	set func(f *pageForm, in *app.TaskUpdate) error) error {
	return s.rowAction(w, r, a, def, func(f *pageForm, ws, ref string) ([]app.Task, error) {
		var in app.TaskUpdate
		var err error
		if in.ExpectedVersion, err = f.version(); err != nil {
			return nil, err
		}
		if err := set(f, &in); err != nil {
			return nil, err
		}
		t, err := s.app.UpdateTask(r.Context(), a, ws, ref, in)
		return []app.Task{t}, err
	}, func(_ *pageForm, rows []app.Task) (url.Values, int64) { return nil, rows[0].Ref })
}

// doneToast is the Undo toast a list shows after a completion without the
// script: the task as it is now and the status it had before.
type doneToast struct {
	Task app.Task
	Was  string
}

// doneOf reads the task a list was sent back with (?done=REF) for its
// Undo toast; nil without one or when it cannot be read.
func (s *Server) doneOf(r *http.Request, a app.Actor) *doneToast {
	q := r.URL.Query()
	ref := q.Get("done")
	if ref == "" || r.Method != http.MethodGet {
		return nil
	}
	t, err := s.app.TaskGet(r.Context(), a, workspaceOf(r), ref)
	if err != nil || !t.IsComplete() {
		return nil
	}
	return &doneToast{Task: t, Was: q.Get("was")}
}

// hereOf is the page's own URL for its forms to return to, without what
// only one showing of it carries (a notice, an Undo toast).
func hereOf(r *http.Request) string {
	q := r.URL.Query()
	for _, k := range []string{"notice", "done", "was", "trashed", "purged", "along"} {
		q.Del(k)
	}
	if len(q) == 0 {
		return r.URL.Path
	}
	return r.URL.Path + "?" + q.Encode()
}

// rowRoutes mounts the row actions.
func (s *Server) rowRoutes(rt Router) {
	s.page(rt, http.MethodPost, "/tasks/:ref/done", s.pageRowDone)
	s.page(rt, http.MethodPost, "/tasks/:ref/reopen", s.pageRowReopen)
	s.page(rt, http.MethodPost, "/tasks/:ref/assign", s.pageRowAssign)
	s.page(rt, http.MethodPost, "/tasks/:ref/due", s.pageRowDue)
}
