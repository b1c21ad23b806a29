package wire

import (
	"tend/app"
)

// Document is the full document record.
type Document struct {
	itemHeadJSON
	Body            *string        `json:"body"`
	SizeBytes       int            `json:"size_bytes"`
	Type            string         `json:"type"`
	TypeID          string         `json:"type_id"`
	TypeLabel       string         `json:"type_label"`
	TypeCategory    string         `json:"type_category"`
	TypeIsDefault   bool           `json:"type_is_default"`
	Status          string         `json:"status"`
	StatusID        string         `json:"status_id"`
	StatusLabel     string         `json:"status_label"`
	StatusCategory  string         `json:"status_category"`
	StatusIsDefault bool           `json:"status_is_default"`
	ProjectID       string         `json:"project_id"`
	ProjectKey      string         `json:"project_key"`
	ProjectPath     string         `json:"project_path"`
	ProjectColour   *string        `json:"project_colour"`
	Workspace       *string        `json:"workspace"`
	WorkspaceID     string         `json:"workspace_id"`
	ParentID        *string        `json:"parent_id"`
	ParentRef       *int64         `json:"parent_ref"`
	ParentTitle     *string        `json:"parent_title"`
	SubDocuments    int            `json:"sub_documents"`
	Tags            []string       `json:"tags"`
	OwnerID         *string        `json:"owner_id"`
	Revisions       *revisionsJSON `json:"revisions"`
	Relevance       *float64       `json:"relevance"`
	ArchivedAt      *string        `json:"archived_at"`
	itemStampsJSON
}

// revisionsJSON is Revisions: a count and a name, never a diff.
type revisionsJSON struct {
	Count  int     `json:"count"`
	LastAt string  `json:"last_at"`
	LastBy *string `json:"last_by"`
}

// NewDocument is the full record of d.
func NewDocument(d app.Document) Document {
	out := Document{itemHeadJSON: itemHeadJSON{ID: d.ID, Ref: d.Ref, Title: d.Title}, Body: OrNull(d.Body), SizeBytes: len(d.Body), Type: d.Type.Key,
		TypeID: d.TypeID, TypeLabel: d.Type.Label, TypeCategory: d.Type.Category, TypeIsDefault: d.Type.IsDefault,
		Status: d.Status.Key, StatusID: d.StatusID, StatusLabel: d.Status.Label, StatusCategory: d.Status.Category,
		StatusIsDefault: d.Status.IsDefault, ProjectID: d.ProjectID, ProjectKey: d.ProjectKey, ProjectPath: d.ProjectPath,
		ProjectColour: OrNull(d.ProjectColour), Workspace: OrNull(d.WorkspaceSlug), WorkspaceID: d.WorkspaceID,
		ParentID: OrNull(d.ParentID), ParentRef: d.ParentRef, ParentTitle: OrNull(d.ParentTitle), SubDocuments: d.SubDocuments,
		Tags: d.Tags, OwnerID: OrNull(d.OwnerID), Relevance: d.Relevance, ArchivedAt: StampPtr(d.ArchivedAt),
		itemStampsJSON: itemStampsJSON{CreatedAt: Stamp(d.CreatedAt), CreatedBy: OrNull(d.CreatedBy), UpdatedAt: Stamp(d.UpdatedAt),
			UpdatedBy: OrNull(d.UpdatedBy), ContentUpdatedAt: Stamp(d.ContentUpdatedAt), DeletedAt: StampPtr(d.DeletedAt), Version: d.Version}}
	if r := d.Revisions; r != nil {
		out.Revisions = &revisionsJSON{Count: r.Count, LastAt: Stamp(r.LastAt), LastBy: OrNull(r.LastBy)}
	}
	return out
}

// DocumentLine is d's compact line: ref, status, project, title.
func DocumentLine(d Document) []string {
	return []string{"#" + Itoa64(d.Ref), d.Status, d.Type, d.ProjectPath, d.Title}
}

// NewLinks is the links ls from the end they are read from.
func NewLinks(ls []app.LinkView) []Link {
	return Map(ls, NewLink)
}

// FiledDocument is a document as POST /v1/documents answers: the document
// and, when it was filed with links, beside its fields the links it was
// filed with, seen from it.
type FiledDocument struct {
	Document
	Links []Link `json:"links,omitempty"`
}

// NewFiledDocument is the new document d as the wire shows it.
func NewFiledDocument(d app.Document) FiledDocument {
	out := FiledDocument{Document: NewDocument(d)}
	if len(d.Links) > 0 {
		out.Links = NewLinks(d.Links)
	}
	return out
}
