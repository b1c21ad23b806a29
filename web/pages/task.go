package pages

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// pageTask shows a task with everything around it, read in one
// transaction (Service.ShowItem), and the forms that act on it, with the
// workspace's vocabulary, projects and members they offer. A ref that
// names a document answers 303 to the document's page.
func (s *Server) pageTask(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"), app.ShowQuery{History: true, Named: true})
	if err != nil {
		return err
	}
	if show.Kind == "document" {
		return seeOther(w, r, "/documents/"+wire.Itoa64(show.Document.Ref))
	}
	d := taskPageData{ItemShow: show}
	if err := s.itemForms(r, a, show.Task.WorkspaceSlug, "task", &d.itemForms); err != nil {
		return err
	}
	zone := show.Task.Timezone
	if zone == "" {
		zone = show.Task.ReaderZone
	}
	d.Told = tell(show.History, show.Actors, d.Statuses, zone, nil)
	d.LinkQuery = r.URL.Query().Get("link_q")
	return s.render(w, http.StatusOK, "task", s.view(r, a, "#"+wire.Itoa64(show.Task.Ref)+" "+show.Task.Title, "tasks", d))
}

// taskPageData is an item page's data: the item, what its forms offer
// and its history in words.
type taskPageData struct {
	app.ItemShow
	itemForms
	Told      []toldEvent
	LinkQuery string
}

// itemForms is what an item page's forms offer: the workspace's statuses,
// types and link types for the item's kind, its projects and its members.
type itemForms struct {
	Statuses  []app.Status
	Types     []app.ItemType
	LinkTypes []linkChoice
	Projects  []app.ProjectView
	Members   []app.Member
}

// linkChoice is one way to link, as the link form offers it: a type from
// this item's side ("blocks") or from the other's ("is blocked by").
type linkChoice struct{ Value, Label string }

// itemForms reads what an item page's forms offer.
func (s *Server) itemForms(r *http.Request, a app.Actor, ws, kind string, f *itemForms) error {
	meta, err := s.app.Meta(r.Context(), a, ws)
	if err != nil {
		return err
	}
	f.Statuses, f.Types = meta.Statuses[kind], meta.ItemTypes[kind]
	f.LinkTypes = []linkChoice{{"", "fits what you pick"}}
	for _, lt := range meta.LinkTypes {
		f.LinkTypes = append(f.LinkTypes, linkChoice{lt.Key, lt.Title})
		if !lt.IsSymmetric {
			f.LinkTypes = append(f.LinkTypes, linkChoice{lt.Key + ":incoming", lt.InverseTitle})
		}
	}
	if f.Projects, err = s.app.Projects(r.Context(), a, ws, false); err != nil {
		return err
	}
	f.Members, err = s.app.Members(r.Context(), a, ws)
	return err
}

// pageItem sends a mention (#42) to the page of whatever item 42 is.
func (s *Server) pageItem(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"), app.ShowQuery{})
	if err != nil {
		return err
	}
	if show.Kind == "document" {
		return seeOther(w, r, "/documents/"+wire.Itoa64(show.Document.Ref))
	}
	return seeOther(w, r, "/tasks/"+wire.Itoa64(show.Task.Ref))
}

// pageTaskEdit saves the task's edit form, with the version it was loaded
// at; a stale version shows the task as it is now and says so.
func (s *Server) pageTaskEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	if err := s.addReminder(r, a, f, ref); err != nil {
		return err
	}
	in, err := taskEdit(f)
	if err != nil {
		return err
	}
	_, err = s.app.UpdateTask(r.Context(), a, workspaceOf(r), ref, in.App())
	if app.CodeOf(err) == app.CodeVersionConflict {
		return seeOther(w, r, withNotice("/tasks/"+ref, "conflict"))
	}
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice("/tasks/"+ref, "edited"))
}

// addReminder reads the reminders list's add control: the words typed in
// its custom field (the line's remind grammar, app.ReadReminder), else the
// offset its select names, appended to the list the form
// carries, so that the same update writes it. A form without the control
// is left as it is.
func (s *Server) addReminder(r *http.Request, a app.Actor, f *pageForm, ref string) error {
	if !f.has("remind_add") {
		return nil
	}
	words := strings.TrimSpace(f.str("remind_custom"))
	if words == "" {
		words = f.str("remind_add")
	}
	add, err := s.app.ReadReminder(r.Context(), a, workspaceOf(r), ref, words)
	if err != nil {
		return app.Invalidf("form.remind_custom", "%s", app.AsError(err).Detail)
	}
	list := f.str("reminders")
	if list != "" {
		list += ", "
	}
	r.PostForm.Set("reminders", list+app.RemindersListText([]app.Reminder{add}))
	return nil
}

// pageTaskComment adds a comment to a task.
func (s *Server) pageTaskComment(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.pageComment(w, r, a, "task", "/tasks/")
}

// pageDocumentComment adds a comment to a document.
func (s *Server) pageDocumentComment(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.pageComment(w, r, a, "document", "/documents/")
}

func (s *Server) pageComment(w http.ResponseWriter, r *http.Request, a app.Actor, entity, back string) error {
	ref := wire.Param(r, "ref")
	return s.submit(w, r, back+ref+"#comments", func(f *pageForm) error {
		_, err := s.app.AddComment(r.Context(), a, workspaceOf(r), entity, ref, app.CommentCreate{Body: f.str("body")})
		return err
	})
}

// taskButton runs one of the task's actions (claim, release)
// from its button and shows the task again.
func (s *Server) taskButton(w http.ResponseWriter, r *http.Request, do func(ws, ref string) error) error {
	ref := wire.Param(r, "ref")
	return s.submit(w, r, "/tasks/"+ref, func(*pageForm) error { return do(workspaceOf(r), ref) })
}

// pageTaskClaim claims the task for the minutes the form names, or the
// instance's default lease without them.
func (s *Server) pageTaskClaim(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.taskButton(w, r, func(ws, ref string) error {
		var minutes *int
		if v := r.PostForm.Get("minutes"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return app.Invalidf("form.minutes", "minutes is a whole number")
			}
			minutes = &n
		}
		_, err := s.app.ClaimTask(r.Context(), a, ws, ref, minutes)
		return err
	})
}

func (s *Server) pageTaskRelease(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.taskButton(w, r, func(ws, ref string) error {
		_, err := s.app.ReleaseTask(r.Context(), a, ws, ref)
		return err
	})
}

// pageTaskComplete completes the task; a repeating one's page gives way to
// the next occurrence it brought (onToNext).
func (s *Server) pageTaskComplete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.onToNext(w, r, func(ws, ref string) (app.Completed, error) {
		return s.app.CompleteTask(r.Context(), a, ws, ref, app.Completion{})
	})
}

// onToNext runs a task page's Complete or Skip. When it brought the next
// occurrence of a repeating task, the person lands on that one, saying so,
// with the Undo toast of the one just finished (its status before, the
// form's was, to go back to); else on the task again.
func (s *Server) onToNext(w http.ResponseWriter, r *http.Request, do func(ws, ref string) (app.Completed, error)) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	c, err := do(workspaceOf(r), wire.Param(r, "ref"))
	if err != nil {
		return err
	}
	if c.Next == nil {
		return seeOther(w, r, "/tasks/"+wire.Itoa64(c.Task.Ref))
	}
	set := url.Values{"done": {wire.Itoa64(c.Task.Ref)}, "notice": {"next"}}
	if was := f.str("was"); was != "" {
		set.Set("was", was)
	}
	return seeOther(w, r, "/tasks/"+wire.Itoa64(c.Next.Ref)+"?"+set.Encode())
}
