package wire

import (
	"encoding/json"

	"tend/app"
)

// notOnDocuments are the fields of a task a document has not. They are
// read, so that sending one is refused saying why (app.DocumentCreate's
// TaskFields) rather than as an unknown field.
type notOnDocuments struct {
	DueAt           json.RawMessage `json:"due_at,omitempty"`
	StartsAt        json.RawMessage `json:"starts_at,omitempty"`
	EstimateMinutes json.RawMessage `json:"estimate_minutes,omitempty"`
	Assignee        json.RawMessage `json:"assignee,omitempty"`
	AssigneeID      json.RawMessage `json:"assignee_id,omitempty"`
}

// named lists the fields that were sent, in the order they are refused.
func (n notOnDocuments) named() []string {
	var out []string
	for _, f := range []struct {
		name string
		v    json.RawMessage
	}{{"due_at", n.DueAt}, {"starts_at", n.StartsAt}, {"estimate_minutes", n.EstimateMinutes}, {"assignee", n.Assignee},
		{"assignee_id", n.AssigneeID}} {
		if f.v != nil {
			out = append(out, f.name)
		}
	}
	return out
}

// DocumentCreate is the body of POST /v1/documents.
type DocumentCreate struct {
	Title   string   `json:"title,omitempty"`
	Body    *string  `json:"body,omitempty"`
	Type    string   `json:"type,omitempty"`
	Status  string   `json:"status,omitempty"`
	Project string   `json:"project,omitempty"`
	Parent  FlexRef  `json:"parent,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	// Links file the document already linked, each from the new document.
	Links []LinkRequest `json:"links,omitempty"`
	notOnDocuments
}

// App is the new document as the Service takes it.
func (in DocumentCreate) App() app.DocumentCreate {
	out := app.DocumentCreate{Title: in.Title, Body: in.Body, Type: in.Type, Status: in.Status, Project: in.Project,
		Parent: app.FlexRef(in.Parent), Tags: in.Tags, TaskFields: in.named()}
	if in.Links != nil {
		out.Links = make([]app.LinkRequest, len(in.Links))
		for i, l := range in.Links {
			out.Links[i] = l.App()
		}
	}
	return out
}

// DocumentUpdate is the body of PATCH /v1/documents/{id_or_ref}: omitted
// fields stay, null clears where a field can be empty.
type DocumentUpdate struct {
	Title           Patch[string]   `json:"title"`
	Body            Patch[string]   `json:"body"`
	Type            Patch[string]   `json:"type"`
	Status          Patch[string]   `json:"status"`
	Project         Patch[string]   `json:"project"`
	Parent          Patch[FlexRef]  `json:"parent"`
	Tags            Patch[[]string] `json:"tags"`
	ExpectedVersion *int            `json:"expected_version"`
	notOnDocuments
}

// App is the change as the Service takes it.
func (in DocumentUpdate) App() app.DocumentUpdate {
	return app.DocumentUpdate{Title: in.Title.App(), Body: in.Body.App(), Type: in.Type.App(), Status: in.Status.App(),
		Project: in.Project.App(), Parent: refPatch(in.Parent), Tags: in.Tags.App(), ExpectedVersion: in.ExpectedVersion,
		TaskFields: in.named()}
}

// DocumentMove is the body of POST /v1/documents/{id_or_ref}/move: a new
// parent document, or null for the top level of its project.
type DocumentMove struct {
	Parent Patch[FlexRef] `json:"parent"`
}

// App is the move as the Service takes it.
func (in DocumentMove) App() app.DocumentMove { return app.DocumentMove{Parent: refPatch(in.Parent)} }

// LinkRequest is the body of POST .../links: one link from the item
// addressed (and each of a new document's links).
type LinkRequest struct {
	Direction  string  `json:"direction,omitempty"`
	LinkType   string  `json:"link_type,omitempty"`
	Target     FlexRef `json:"target,omitempty"`
	TargetType string  `json:"target_type,omitempty"`
}

// App is the link as the Service takes it.
func (in LinkRequest) App() app.LinkRequest {
	return app.LinkRequest{Direction: in.Direction, LinkType: in.LinkType, Target: app.FlexRef(in.Target), TargetType: in.TargetType}
}
