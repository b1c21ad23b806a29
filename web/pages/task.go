package pages

import (
	"net/http"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// pageTask shows a task with everything around it, read in one
// transaction (Service.ShowItem), and the forms that act on it. A ref that
// names a document answers 303 to the document's page.
func (s *Server) pageTask(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"), app.ShowQuery{History: true})
	if err != nil {
		return err
	}
	if show.Kind == "document" {
		return seeOther(w, r, "/documents/"+wire.Itoa64(show.Document.Ref))
	}
	statuses, err := s.app.Statuses(r.Context(), a, workspaceOf(r), "task")
	if err != nil {
		return err
	}
	return s.render(w, http.StatusOK, "task", s.view(r, a, "#"+wire.Itoa64(show.Task.Ref)+" "+show.Task.Title, "tasks",
		taskPageData{ItemShow: show, Statuses: statuses}))
}

// taskPageData is an item page's data: the item and the statuses its
// edit form offers.
type taskPageData struct {
	app.ItemShow
	Statuses []app.Status
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
	in, err := taskEdit(f)
	if err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	_, err = s.app.UpdateTask(r.Context(), a, workspaceOf(r), ref, in)
	if app.CodeOf(err) == app.CodeVersionConflict {
		return seeOther(w, r, withNotice("/tasks/"+ref, "conflict"))
	}
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice("/tasks/"+ref, "edited"))
}

// taskEdit reads the edit form into an update of the fields it carries.
func taskEdit(f *pageForm) (app.TaskUpdate, error) {
	var in app.TaskUpdate
	var err error
	if in.ExpectedVersion, err = f.version(); err != nil {
		return in, err
	}
	text := func(name string, p *app.Patch[string]) {
		if f.has(name) {
			*p = app.Patch[string]{Set: true, Value: f.str(name)}
		}
	}
	text("title", &in.Title)
	text("description", &in.Description)
	text("status", &in.Status)
	text("until", &in.Until)
	text("repeat", &in.Repeat)
	text("applies_to", &in.AppliesTo)
	if f.has("tags") {
		in.Tags = app.Patch[[]string]{Set: true, Value: strings.Fields(strings.ReplaceAll(f.str("tags"), ",", " "))}
	}
	for _, lv := range []struct {
		name string
		p    *app.Patch[int]
	}{{"importance", &in.Importance}, {"urgency", &in.Urgency}} {
		if !f.has(lv.name) {
			continue
		}
		if v := f.str(lv.name); v == "" {
			*lv.p = app.Patch[int]{Set: true, Null: true}
		} else if n, err := strconv.Atoi(v); err == nil {
			*lv.p = app.Patch[int]{Set: true, Value: n}
		} else {
			return in, app.Invalidf("form."+lv.name, "%s is a number from 1 to 5", lv.name)
		}
	}
	return in, nil
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
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	if _, err := s.app.AddComment(r.Context(), a, workspaceOf(r), entity, ref, app.CommentCreate{Body: f.str("body")}); err != nil {
		return err
	}
	return seeOther(w, r, back+ref+"#comments")
}

// taskButton runs one of the task's actions (claim, release, complete)
// from its button and shows the task again.
func (s *Server) taskButton(w http.ResponseWriter, r *http.Request, do func(ws, ref string) error) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	if err := do(workspaceOf(r), ref); err != nil {
		return err
	}
	return seeOther(w, r, "/tasks/"+ref)
}

func (s *Server) pageTaskClaim(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.taskButton(w, r, func(ws, ref string) error {
		_, err := s.app.ClaimTask(r.Context(), a, ws, ref, nil)
		return err
	})
}

func (s *Server) pageTaskRelease(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.taskButton(w, r, func(ws, ref string) error {
		_, err := s.app.ReleaseTask(r.Context(), a, ws, ref)
		return err
	})
}

func (s *Server) pageTaskComplete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.taskButton(w, r, func(ws, ref string) error {
		_, err := s.app.CompleteTask(r.Context(), a, ws, ref, app.Completion{})
		return err
	})
}
