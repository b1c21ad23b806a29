package pages

import (
	"net/http"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// documentsPageFilters are the listing parameters the Documents page
// offers and carries from page to page, as GET /v1/documents reads them.
var documentsPageFilters = []string{"project", "type", "status", "tag", "q"}

type documentsData struct {
	Query url.Values
	Items []app.Document
	Next  string // the next page's URL, "" on the last
	Paged bool   // this is not the first page
	New   docNew
}

// docNew is what the form that writes a new document offers.
type docNew struct {
	Types      []app.ItemType
	Statuses   []app.Status
	Projects   []app.ProjectView
	NewProject string // the project a new document goes in unless the person picks another
}

// pageDocuments lists documents, newest change first, with the filters
// people use and the form that writes a new one.
func (s *Server) pageDocuments(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	ws := workspaceOf(r)
	in := app.DocumentListQuery{Workspace: ws, Project: q.Str("project"), Type: q.Str("type"), Status: q.Str("status"),
		Tag: q.Str("tag"), Q: q.Str("q"), Order: "-updated_at", Limit: 50, Cursor: q.Str("cursor")}
	if err := q.Err(); err != nil {
		return err
	}
	list, err := s.app.Documents(r.Context(), a, in)
	if err != nil {
		return err
	}
	d := documentsData{Query: url.Values{}, Items: list.Items, Paged: in.Cursor != "", New: docNew{NewProject: in.Project}}
	for _, k := range documentsPageFilters {
		if v := r.URL.Query().Get(k); v != "" {
			d.Query.Set(k, v)
		}
	}
	if list.Page.NextCursor != "" {
		next := cloneValues(d.Query)
		next.Set("cursor", list.Page.NextCursor)
		d.Next = "/documents?" + next.Encode()
	}
	meta, err := s.app.Meta(r.Context(), a, ws)
	if err != nil {
		return err
	}
	d.New.Types, d.New.Statuses = meta.ItemTypes["document"], meta.Statuses["document"]
	if d.New.Projects, err = s.app.Projects(r.Context(), a, ws, false); err != nil {
		return err
	}
	return s.render(w, http.StatusOK, "documents", s.view(r, a, "Documents", "documents", d))
}

// pageDocumentCreate writes a new document of the type the person picked
// and opens it.
func (s *Server) pageDocumentCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	in := app.DocumentCreate{Title: f.str("title"), Type: f.str("type"), Status: f.str("status"), Project: f.str("project")}
	if body := f.str("body"); body != "" {
		in.Body = &body
	}
	if tags := f.tags("tags"); tags.Set && len(tags.Value) > 0 {
		in.Tags = tags.Value
	}
	if parent := strings.TrimPrefix(strings.TrimSpace(f.str("parent")), "#"); parent != "" {
		in.Parent = app.FlexRef(parent)
	}
	doc, err := s.app.CreateDocument(r.Context(), a, workspaceOf(r), in)
	if err != nil {
		return err
	}
	return seeOther(w, r, "/documents/"+wire.Itoa64(doc.Ref))
}
