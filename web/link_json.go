package web

import (
	"tend/app"
)

func newLinkJSON(v app.LinkView) linkJSON {
	return linkJSON{ID: v.ID, Direction: v.Direction, Label: v.Label, LinkType: v.Type.Key, LinkCategory: orNull(v.Type.Category),
		Other: newEndJSON(v.Other)}
}

// newEndJSON is a task or document seen as the far end of a link.
func newEndJSON(e app.LinkEnd) linkEndJSON {
	if e.EntityType == "document" {
		return newDocumentLinkEnd(newDocumentJSON(e.Document))
	}
	return newLinkEnd(newTaskJSON(e.Task))
}

// newDocumentLinkEnd is a document as the far end of a link: the task-only
// fields stay at their defaults and the body is never carried.
func newDocumentLinkEnd(d documentJSON) linkEndJSON {
	state := itemStateJSON{Type: d.Type, TypeLabel: d.TypeLabel, TypeCategory: d.TypeCategory, TypeIsDefault: d.TypeIsDefault,
		Status: d.Status, StatusLabel: d.StatusLabel, StatusCategory: d.StatusCategory, StatusIsDefault: d.StatusIsDefault}
	return linkEndJSON{EntityType: "document", itemHeadJSON: d.itemHeadJSON, itemStateJSON: state, ProjectPath: d.ProjectPath, Workspace: d.Workspace,
		Tags: d.Tags, SubDocuments: d.SubDocuments, DeletedAt: d.DeletedAt}
}
