package pages

import (
	"net/http"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

type projectsData struct {
	Projects []app.ProjectView
	Archived []app.ProjectView // finished, listed apart
	Trashed  []app.ProjectView
	Open     map[string]int // open tasks by project key, the project itself only
}

// pageProjects is the project tree with each project's open work, counted
// in one grouped read of the open tasks, the form that starts a project,
// the archived projects (those finished) and the projects in the trash.
func (s *Server) pageProjects(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ws := workspaceOf(r)
	ps, err := s.app.Projects(r.Context(), a, ws, false)
	if err != nil {
		return err
	}
	trashed, err := s.app.Projects(r.Context(), a, ws, true)
	if err != nil {
		return err
	}
	open, err := s.app.OpenTaskCounts(r.Context(), a, ws)
	if err != nil {
		return err
	}
	d := projectsData{Trashed: trashed, Open: open}
	for _, p := range ps {
		if finished(p.Status.Category) {
			d.Archived = append(d.Archived, p)
		} else {
			d.Projects = append(d.Projects, p)
		}
	}
	return s.render(w, http.StatusOK, "projects", s.view(r, a, "Projects", "projects", d))
}

// projectShown is how many tasks and documents the project page lists;
// the listings behind its links page through the rest.
const projectShown = 50

type projectData struct {
	Project   app.ProjectView
	Ancestors []app.ProjectView
	Sub       []app.ProjectView
	MoveTo    []app.ProjectView // where it may move: anywhere but itself and beneath it
	Tasks     []app.Task
	TasksMore bool
	Docs      []app.Document
	DocsMore  bool
	Members   []app.ProjectMember
	People    []app.Member
	// RoleHolders hold a role of the project's own; RoleOf says, by user
	// id, the role each person has inside the project and where it comes
	// from.
	RoleHolders []app.ProjectRoleHolder
	RoleOf      map[string]string
	Statuses    []app.Status
	Roles       []app.Role
	New         docNew
	// Closed: the project's status is finished (done or cancelled), which
	// is how a project is archived; Archive and Reopen are the statuses
	// the one-click buttons set: the first finished, the first active.
	Closed          bool
	Archive, Reopen app.Status
	Told            []toldEvent
	HistoryMore     bool
}

// pageProject is a project's own page: its open tasks, documents and
// subprojects, who may see it, its history in words, and the forms that
// change it.
func (s *Server) pageProject(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	ctx, ws, key := r.Context(), workspaceOf(r), wire.Param(r, "key")
	p, err := s.app.ProjectGet(ctx, a, ws, key)
	if err != nil {
		return err
	}
	d := projectData{Project: p, Roles: app.Roles}
	all, err := s.app.Projects(ctx, a, ws, false)
	if err != nil {
		return err
	}
	d.Ancestors, d.Sub, d.MoveTo = placeOf(p, all)
	tasks, err := s.app.Tasks(ctx, a, app.TaskListQuery{Workspace: ws, Project: p.Key, Limit: projectShown})
	if err != nil {
		return err
	}
	d.Tasks, d.TasksMore = tasks.Items, tasks.Page.HasMore
	docs, err := s.app.Documents(ctx, a, app.DocumentListQuery{Workspace: ws, Project: p.Key, Order: "-updated_at", Limit: projectShown})
	if err != nil {
		return err
	}
	d.Docs, d.DocsMore = docs.Items, docs.Page.HasMore
	if d.Members, err = s.app.ProjectMembers(ctx, a, ws, p.Key); err != nil {
		return err
	}
	if d.People, err = s.app.Members(ctx, a, p.WorkspaceID); err != nil {
		return err
	}
	if d.RoleHolders, err = s.app.ProjectRoleHolders(ctx, a, ws, p.Key); err != nil {
		return err
	}
	d.RoleOf = rolesHere(d.People, d.RoleHolders)
	meta, err := s.app.Meta(ctx, a, p.WorkspaceID)
	if err != nil {
		return err
	}
	d.Statuses = meta.Statuses["project"]
	d.Closed = finished(p.Status.Category)
	for _, st := range d.Statuses {
		if d.Archive.Key == "" && st.Category == app.CategoryDone {
			d.Archive = st
		}
		if d.Reopen.Key == "" && st.Category == app.CategoryInProgress {
			d.Reopen = st
		}
	}
	d.New = docNew{Types: meta.ItemTypes["document"], Statuses: meta.Statuses["document"], Projects: all, NewProject: p.Key}
	hist, err := s.app.ProjectEvents(ctx, a, ws, p.Key, app.EventQuery{Limit: 20, Named: true})
	if err != nil {
		return err
	}
	paths := make(map[string]string, 2*len(all))
	for _, q := range all {
		paths[q.ID], paths[q.Key] = q.Path, q.Path
	}
	d.Told, d.HistoryMore = tell(hist.Items, hist.Actors, d.Statuses, "", paths), hist.Page.HasMore
	return s.render(w, http.StatusOK, "project", s.view(r, a, p.Title, "projects", d))
}

// rolesHere says the role each member of the workspace has inside a
// project, by user id: the project's own where they hold one, else their
// workspace role.
func rolesHere(people []app.Member, holders []app.ProjectRoleHolder) map[string]string {
	out := make(map[string]string, len(people))
	for _, m := range people {
		out[m.UserID] = "workspace role: " + m.Role
	}
	for _, h := range holders {
		out[h.User.ID] = "role here: " + h.Role
	}
	return out
}

// placeOf places p in the tree of all (in tree order): the projects above
// it, nearest last; those directly beneath it; and every project it may
// move under.
func placeOf(p app.ProjectView, all []app.ProjectView) (above, beneath, moveTo []app.ProjectView) {
	byID := make(map[string]app.ProjectView, len(all))
	for _, q := range all {
		byID[q.ID] = q
	}
	for id := p.ParentID; id != ""; id = byID[id].ParentID {
		q, ok := byID[id]
		if !ok {
			break
		}
		above = append([]app.ProjectView{q}, above...)
	}
	for _, q := range all {
		if q.ParentID == p.ID {
			beneath = append(beneath, q)
		}
		if q.ID != p.ID && !strings.HasPrefix(q.Path+"/", p.Path+"/") {
			moveTo = append(moveTo, q)
		}
	}
	return above, beneath, moveTo
}

// pageProjectCreate starts a project (under another when the form names a
// parent) and opens it.
func (s *Server) pageProjectCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	p, err := s.app.CreateProject(r.Context(), a, workspaceOf(r), app.ProjectCreate{Key: strings.TrimSpace(f.str("key")),
		Title: f.str("title"), Description: f.str("description"), Parent: f.str("parent"), Visibility: f.str("visibility")})
	if err != nil {
		return err
	}
	return seeOther(w, r, "/projects/"+url.PathEscape(p.Key))
}

// pageProjectEdit saves the project's edit form: what the person changed,
// with the version they saw.
func (s *Server) pageProjectEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in := app.ProjectUpdate{Title: f.text("title"), Description: f.text("description"), Status: f.text("status"), Visibility: f.text("visibility")}
	if in.ExpectedVersion, err = f.version(); err != nil {
		return err
	}
	key := wire.Param(r, "key")
	_, err = s.app.UpdateProject(r.Context(), a, workspaceOf(r), key, in)
	if app.CodeOf(err) == app.CodeVersionConflict {
		return seeOther(w, r, withNotice(projectURL(key), "conflict_project"))
	}
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice(projectURL(key), "edited"))
}

// pageProjectMove moves the project, with everything beneath it, under
// another project or to the top level.
func (s *Server) pageProjectMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	parent := app.Patch[string]{Set: true, Null: f.str("parent") == "", Value: f.str("parent")}
	p, err := s.app.MoveProject(r.Context(), a, workspaceOf(r), wire.Param(r, "key"), parent)
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice(projectURL(p.Key), "edited"))
}

// pageProjectTrash moves the project and everything filed in it to the
// trash; the Projects page lists it there to restore.
func (s *Server) pageProjectTrash(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	if _, err := s.app.DeleteProject(r.Context(), a, workspaceOf(r), wire.Param(r, "key")); err != nil {
		return err
	}
	return seeOther(w, r, withNotice("/projects", "trashed")+"#trash")
}

// pageProjectRestore brings a project and what was filed in it back.
func (s *Server) pageProjectRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	p, err := s.app.RestoreProject(r.Context(), a, workspaceOf(r), wire.Param(r, "key"))
	if err != nil {
		return err
	}
	return seeOther(w, r, projectURL(p.Key))
}

// pageProjectTaskAdd adds a task to the project from a captured line.
func (s *Server) pageProjectTaskAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	key := wire.Param(r, "key")
	return s.submit(w, r, projectURL(key)+"#tasks", func(f *pageForm) error {
		_, err := s.app.CreateTask(r.Context(), a, workspaceOf(r), app.TaskCreate{Text: f.str("text"), Project: key})
		return err
	})
}

// pageProjectShare gives one more workspace member sight of the project.
func (s *Server) pageProjectShare(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	key := wire.Param(r, "key")
	return s.submit(w, r, projectURL(key)+"#members", func(f *pageForm) error {
		_, err := s.app.ShareProject(r.Context(), a, workspaceOf(r), key, strings.TrimSpace(f.str("username")))
		return err
	})
}

// pageProjectUnshare takes a member's sight of the project away.
func (s *Server) pageProjectUnshare(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	key := wire.Param(r, "key")
	return s.submit(w, r, projectURL(key)+"#members", func(*pageForm) error {
		return s.app.UnshareProject(r.Context(), a, workspaceOf(r), key, wire.Param(r, "username"))
	})
}

// pageProjectRole gives a person a role of the project's own, or with no
// role takes it away (their workspace role applies again).
func (s *Server) pageProjectRole(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	ctx, ws, key, user := r.Context(), workspaceOf(r), wire.Param(r, "key"), strings.TrimSpace(f.str("username"))
	if role := f.str("role"); role != "" {
		_, err = s.app.SetProjectRole(ctx, a, ws, key, user, app.ProjectRoleGrant{Role: role})
	} else {
		err = s.app.RemoveProjectRole(ctx, a, ws, key, user)
	}
	if err != nil {
		return err
	}
	return seeOther(w, r, withNotice(projectURL(key), "edited")+"#members")
}

// finished reports whether a status category ends the work: a project in
// one is archived.
func finished(category string) bool {
	return category == app.CategoryDone || category == app.CategoryCancelled
}

func projectURL(key string) string { return "/projects/" + url.PathEscape(key) }
