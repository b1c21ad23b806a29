package web

import (
	"net/http"

	"tend/app"
)

// pageDocument shows a document with its body rendered, its links,
// comments and history; a ref that names a task answers 303 to its page.
func (s *Server) pageDocument(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), param(r, "ref"), app.ShowQuery{History: true})
	if err != nil {
		return err
	}
	if show.Kind != "document" {
		return seeOther(w, r, "/tasks/"+itoa64(show.Task.Ref))
	}
	return s.render(w, http.StatusOK, "document", s.view(r, a, "#"+itoa64(show.Document.Ref)+" "+show.Document.Title, "search", show))
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
