package wire

import (
	"tend/app"
)

// NewLink is the link v from the end it is read from.
func NewLink(v app.LinkView) Link {
	return Link{ID: v.ID, Direction: v.Direction, Label: v.Label, LinkType: v.Type.Key, LinkCategory: OrNull(v.Type.Category),
		Other: NewLinkEnd(v.Other)}
}

// NewLinkEnd is a task or document seen as the far end of a link.
func NewLinkEnd(e app.LinkEnd) LinkEnd {
	if e.EntityType == "document" {
		return documentLinkEnd(NewDocument(e.Document))
	}
	return taskLinkEnd(NewTask(e.Task))
}

// newDocumentLinkEnd is a document as the far end of a link: the task-only
// fields stay at their defaults and the body is never carried.
func documentLinkEnd(d Document) LinkEnd {
	state := itemStateJSON{Type: d.Type, TypeLabel: d.TypeLabel, TypeCategory: d.TypeCategory, TypeIsDefault: d.TypeIsDefault,
		Status: d.Status, StatusLabel: d.StatusLabel, StatusCategory: d.StatusCategory, StatusIsDefault: d.StatusIsDefault}
	return LinkEnd{EntityType: "document", itemHeadJSON: d.itemHeadJSON, itemStateJSON: state, ProjectPath: d.ProjectPath, Workspace: d.Workspace,
		Tags: d.Tags, SubDocuments: d.SubDocuments, DeletedAt: d.DeletedAt}
}
