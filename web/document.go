package web

import (
	"net/http"
	"strings"

	"tend/app"
)

// documentJSON is the full document record.
type documentJSON struct {
	itemHeadJSON
	Body             *string        `json:"body"`
	SizeBytes        int            `json:"size_bytes"`
	Type             string         `json:"type"`
	TypeID           string         `json:"type_id"`
	TypeLabel        string         `json:"type_label"`
	TypeCategory     string         `json:"type_category"`
	TypeIsDefault    bool           `json:"type_is_default"`
	Status           string         `json:"status"`
	StatusID         string         `json:"status_id"`
	StatusLabel      string         `json:"status_label"`
	StatusCategory   string         `json:"status_category"`
	StatusIsDefault  bool           `json:"status_is_default"`
	ProjectID        string         `json:"project_id"`
	ProjectKey       string         `json:"project_key"`
	ProjectPath      string         `json:"project_path"`
	ProjectColour    *string        `json:"project_colour"`
	Workspace        *string        `json:"workspace"`
	WorkspaceID      string         `json:"workspace_id"`
	ParentID         *string        `json:"parent_id"`
	ParentRef        *int64         `json:"parent_ref"`
	ParentTitle      *string        `json:"parent_title"`
	SubDocuments     int            `json:"sub_documents"`
	Tags             []string       `json:"tags"`
	OwnerID          *string        `json:"owner_id"`
	Revisions        *revisionsJSON `json:"revisions"`
	Relevance        *float64       `json:"relevance"`
	ArchivedAt       *string        `json:"archived_at"`
	CreatedAt        string         `json:"created_at"`
	CreatedBy        *string        `json:"created_by"`
	UpdatedAt        string         `json:"updated_at"`
	UpdatedBy        *string        `json:"updated_by"`
	ContentUpdatedAt string         `json:"content_updated_at"`
	DeletedAt        *string        `json:"deleted_at"`
	Version          int            `json:"version"`
}

// revisionsJSON is Revisions: a count and a name, never a diff.
type revisionsJSON struct {
	Count  int     `json:"count"`
	LastAt string  `json:"last_at"`
	LastBy *string `json:"last_by"`
}

func newDocumentJSON(d app.Document) documentJSON {
	out := documentJSON{itemHeadJSON: itemHeadJSON{ID: d.ID, Ref: d.Ref, Title: d.Title}, Body: orNull(d.Body), SizeBytes: len(d.Body), Type: d.Type.Key,
		TypeID: d.TypeID, TypeLabel: d.Type.Label, TypeCategory: d.Type.Category, TypeIsDefault: d.Type.IsDefault,
		Status: d.Status.Key, StatusID: d.StatusID, StatusLabel: d.Status.Label, StatusCategory: d.Status.Category,
		StatusIsDefault: d.Status.IsDefault, ProjectID: d.ProjectID, ProjectKey: d.ProjectKey, ProjectPath: d.ProjectPath,
		ProjectColour: orNull(d.ProjectColour), Workspace: orNull(d.WorkspaceSlug), WorkspaceID: d.WorkspaceID,
		ParentID: orNull(d.ParentID), ParentRef: d.ParentRef, ParentTitle: orNull(d.ParentTitle), SubDocuments: d.SubDocuments,
		Tags: d.Tags, OwnerID: orNull(d.OwnerID), Relevance: d.Relevance, ArchivedAt: stampPtr(d.ArchivedAt),
		CreatedAt: stamp(d.CreatedAt), CreatedBy: orNull(d.CreatedBy), UpdatedAt: stamp(d.UpdatedAt), UpdatedBy: orNull(d.UpdatedBy),
		ContentUpdatedAt: stamp(d.ContentUpdatedAt), DeletedAt: stampPtr(d.DeletedAt), Version: d.Version}
	if r := d.Revisions; r != nil {
		out.Revisions = &revisionsJSON{Count: r.Count, LastAt: stamp(r.LastAt), LastBy: orNull(r.LastBy)}
	}
	return out
}

func documentLine(d documentJSON) []string {
	return []string{"#" + itoa64(d.Ref), d.Status, d.Type, d.ProjectPath, d.Title}
}

func shapeDocuments(ds []app.Document, q *query) (any, error) {
	items := make([]documentJSON, len(ds))
	for i, d := range ds {
		items[i] = newDocumentJSON(d)
	}
	return shapeItems(items, q.str("format"), q.str("fields"), func(d documentJSON) string { return d.ID }, documentLine)
}

// writeDocument answers with one document, honouring format and fields.
func writeDocument(w http.ResponseWriter, r *http.Request, status int, d app.Document) error {
	q := newQuery(r)
	if q.str("format") == "" && q.str("fields") == "" {
		return writeJSON(w, status, newDocumentJSON(d))
	}
	shaped, err := shapeDocuments([]app.Document{d}, q)
	if err != nil {
		return err
	}
	return writeJSON(w, status, firstOf(shaped))
}

// documentRef is the {id_or_ref} path parameter.
func documentRef(r *http.Request) string { return param(r, "document") }

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := newQuery(r)
	in := app.DocumentListQuery{Workspace: wsParam(r), Project: q.str("project"), Type: q.str("type"), Status: q.str("status"),
		StatusCategory: q.str("status_category"), Tag: q.str("tag"), Parent: strings.TrimPrefix(q.str("parent"), "#"),
		Subtree: q.bool("subtree"), Q: q.str("q"), Deleted: q.bool("deleted"), Order: q.str("order"), Limit: q.limit(), Cursor: q.str("cursor"),
		IncludeTotal: q.bool("include_total")}
	if err := q.err(); err != nil {
		return err
	}
	list, err := s.app.Documents(r.Context(), a, in)
	if err != nil {
		return err
	}
	items, err := shapeDocuments(list.Items, q)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, listJSON{Items: items, Page: newPage(list.Page)})
}

func (s *Server) handleDocumentCreate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentCreate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.CreateDocument(r.Context(), a, wsParam(r), in)
	if err != nil {
		return err
	}
	if len(d.Links) == 0 {
		return writeJSON(w, http.StatusCreated, newDocumentJSON(d))
	}
	return writeJSON(w, http.StatusCreated, filedDocumentJSON{newDocumentJSON(d), linksJSON(d.Links)})
}

// filedDocumentJSON is a document created with links: the document and,
// beside its fields, the links it was filed with, seen from it.
type filedDocumentJSON struct {
	documentJSON
	Links []linkJSON `json:"links"`
}

func linksJSON(ls []app.LinkView) []linkJSON {
	out := make([]linkJSON, len(ls))
	for i, l := range ls {
		out[i] = newLinkJSON(l)
	}
	return out
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DocumentGet(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeDocument(w, r, http.StatusOK, d)
}

func (s *Server) handleDocumentUpdate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentUpdate
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.UpdateDocument(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	d, err := s.app.DeleteDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentRestore(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if err := s.decodeActionBody(w, r, &struct{}{}); err != nil {
		return err
	}
	d, err := s.app.RestoreDocument(r.Context(), a, wsParam(r), documentRef(r))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentMove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	var in app.DocumentMove
	if err := s.decodeJSON(w, r, &in, false); err != nil {
		return err
	}
	d, err := s.app.MoveDocument(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, newDocumentJSON(d))
}

func (s *Server) handleDocumentEvents(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	in, q, err := eventQuery(r)
	if err != nil {
		return err
	}
	page, err := s.app.DocumentEvents(r.Context(), a, wsParam(r), documentRef(r), in)
	if err != nil {
		return err
	}
	return writeEvents(w, q, page)
}
