package pages

import (
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// pageDocument shows a document with its body rendered, its links,
// comments and history in words, and the forms that change it; a ref that
// names a task answers 303 to its page.
func (s *Server) pageDocument(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.renderDocument(w, r, a, http.StatusOK, nil)
}

// renderDocument renders the document page; draft, when not nil, is an
// edit being previewed or refused, shown in the form instead of the saved
// document.
func (s *Server) renderDocument(w http.ResponseWriter, r *http.Request, a app.Actor, status int, draft *docForm) error {
	show, err := s.app.ShowItem(r.Context(), a, workspaceOf(r), wire.Param(r, "ref"), app.ShowQuery{History: true, Named: true})
	if err != nil {
		return err
	}
	if show.Kind != "document" {
		return seeOther(w, r, "/tasks/"+wire.Itoa64(show.Task.Ref))
	}
	d := docPageData{ItemShow: show, Form: savedDocForm(show.Document), LinkQuery: r.URL.Query().Get("link_q")}
	if draft != nil && draft.Conflict {
		// Set against the document as it is now, so saving again replaces
		// what was saved meanwhile with what the person sees.
		draft.Version, draft.Was = d.Form.Version, d.Form.Was
		draft.Diff, draft.DiffFrom = lineDiff(show.Document.Body, draft.Body), "the body saved meanwhile"
	}
	if draft != nil {
		d.Form = *draft
	}
	if err := s.itemForms(r, a, show.Document.WorkspaceSlug, "document", &d.itemForms); err != nil {
		return err
	}
	d.Told = tell(show.History, show.Actors, d.Statuses, "", nil)
	v := s.view(r, a, "#"+wire.Itoa64(show.Document.Ref)+" "+show.Document.Title, "documents", d)
	if draft != nil && draft.Conflict {
		v.Notice = notices["conflict_document"]
	}
	return s.render(w, status, "document", v)
}

// docPageData is the document page's data.
type docPageData struct {
	app.ItemShow
	itemForms
	Form      docForm
	Told      []toldEvent
	LinkQuery string
}

// docForm is what the document's edit form shows: the saved document, or
// a draft with its preview and how it differs from the text it started
// from.
type docForm struct {
	Version                                  string
	Title, Body, Status, Type, Tags, Project string
	Parent                                   string            // the document it sits under, "#12", or ""
	Was                                      map[string]string // the was.<name> fields (edit.go)
	Open, Conflict                           bool
	Preview                                  template.HTML
	Diff                                     []diffLine
	DiffFrom                                 string // what the diff compares the draft with
}

var docFields = []string{"title", "body", "status", "type", "tags", "project", "parent"}

func savedDocForm(d app.Document) docForm {
	f := docForm{Version: strconv.Itoa(d.Version), Title: d.Title, Body: d.Body, Status: d.Status.Key, Type: d.Type.Key,
		Tags: strings.Join(d.Tags, " "), Project: d.ProjectKey}
	if d.ParentRef != nil {
		f.Parent = "#" + wire.Itoa64(*d.ParentRef)
	}
	f.Was = map[string]string{"title": f.Title, "body": f.Body, "status": f.Status, "type": f.Type, "tags": f.Tags, "project": f.Project,
		"parent": f.Parent}
	return f
}

// draftDocForm is the posted edit form as the page shows it again.
func draftDocForm(f *pageForm) docForm {
	d := docForm{Version: f.str("expected_version"), Title: f.str("title"), Body: f.str("body"), Status: f.str("status"),
		Type: f.str("type"), Tags: f.str("tags"), Project: f.str("project"), Parent: f.str("parent"), Was: map[string]string{}, Open: true}
	for _, n := range docFields {
		d.Was[n] = f.str("was." + n)
	}
	d.Preview = renderMarkdown(d.Body)
	return d
}

// pageDocumentEdit saves the document's edit form with the version it was
// loaded at. With preview set it saves nothing and shows the draft: the
// body rendered and what it changes. A stale version saves nothing either
// (409): the page shows the document as it is now, the person's draft kept
// in the form, and how their body differs from the one saved meanwhile.
func (s *Server) pageDocumentEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	if f.str("preview") != "" {
		draft := draftDocForm(f)
		draft.Diff, draft.DiffFrom = lineDiff(draft.Was["body"], draft.Body), "the saved body"
		return s.renderDocument(w, r, a, http.StatusOK, &draft)
	}
	in := app.DocumentUpdate{Title: f.text("title"), Body: f.text("body"), Status: f.text("status"), Type: f.text("type"),
		Project: f.text("project"), Tags: f.tags("tags"), Parent: f.ref("parent")}
	if in.ExpectedVersion, err = f.version(); err != nil {
		return err
	}
	ref := wire.Param(r, "ref")
	_, err = s.app.UpdateDocument(r.Context(), a, workspaceOf(r), ref, in)
	if app.CodeOf(err) == app.CodeVersionConflict {
		draft := draftDocForm(f)
		draft.Conflict = true
		return s.renderDocument(w, r, a, http.StatusConflict, &draft)
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
