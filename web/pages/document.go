package pages

import (
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// pageDocument shows a document with its body rendered, its links,
// comments and history; a ref that names a task answers 303 to its page.
func (s *Server) pageDocument(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"), app.ShowQuery{History: true})
	if err != nil {
		return err
	}
	if show.Kind != "document" {
		return seeOther(w, r, "/tasks/"+wire.Itoa64(show.Task.Ref))
	}
	statuses, err := s.app.Statuses(r.Context(), a, workspaceOf(r), "document")
	if err != nil {
		return err
	}
	return s.render(w, http.StatusOK, "document", s.view(r, a, "#"+wire.Itoa64(show.Document.Ref)+" "+show.Document.Title, "search",
		taskPageData{ItemShow: show, Statuses: statuses}))
}

// pageDocumentEdit saves the document's edit form with the version it was
// loaded at; a stale version shows the document as it is now and says so.
func (s *Server) pageDocumentEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in := app.DocumentUpdate{}
	if in.ExpectedVersion, err = f.version(); err != nil {
		return err
	}
	for name, p := range map[string]*app.Patch[string]{"title": &in.Title, "body": &in.Body, "status": &in.Status} {
		if f.has(name) {
			*p = app.Patch[string]{Set: true, Value: f.str(name)}
		}
	}
	if f.has("tags") {
		in.Tags = app.Patch[[]string]{Set: true, Value: strings.Fields(strings.ReplaceAll(f.str("tags"), ",", " "))}
	}
	ref := wire.Param(r, "ref")
	_, err = s.app.UpdateDocument(r.Context(), a, workspaceOf(r), ref, in)
	if app.CodeOf(err) == app.CodeVersionConflict {
		return seeOther(w, r, withNotice("/documents/"+ref, "conflict_document"))
	}
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice("/documents/"+ref, "edited"))
}

type searchData struct {
	Q      string
	Result *app.ItemSearch
}

// pageSearch searches tasks and documents with the q grammar (type:,
// tag:, status: terms and words), best matches of each kind first.
func (s *Server) pageSearch(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d := searchData{Q: r.URL.Query().Get("q")}
	if d.Q != "" {
		res, err := s.app.SearchItems(r.Context(), a, app.ItemSearchQuery{Workspace: workspaceOf(r), Q: d.Q, Limit: 50})
		if err != nil {
			return err
		}
		d.Result = &res
	}
	return s.render(w, http.StatusOK, "search", s.view(r, a, "Search", "search", d))
}

type projectsData struct {
	Projects []app.ProjectView
	Open     map[string]int // open tasks by project key, the project itself only
}

// pageProjects is the project tree with each project's open work, counted
// in one grouped read of the open tasks.
func (s *Server) pageProjects(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := workspaceOf(r)
	ps, err := s.app.Projects(r.Context(), a, ws, false)
	if err != nil {
		return err
	}
	open, err := s.app.OpenTaskCounts(r.Context(), a, ws)
	if err != nil {
		return err
	}
	return s.render(w, http.StatusOK, "projects", s.view(r, a, "Projects", "projects", projectsData{Projects: ps, Open: open}))
}
