package wire

import "tend/app"

// ItemShow is GET /v1/items/{ref}: one task or document with what
// surrounds it (app.ItemShow), read in one transaction. Kind says which of
// task and document is set.
type ItemShow struct {
	Kind               string         `json:"kind"`
	Task               *Task          `json:"task,omitempty"`
	Document           *Document      `json:"document,omitempty"`
	Links              []Link         `json:"links"`
	Governing          []Governing    `json:"governing"`
	Subtasks           []Task         `json:"subtasks"`
	SubtasksMore       bool           `json:"subtasks_more"`
	Comments           []Comment      `json:"comments"`
	CommentsTotal      int            `json:"comments_total"`
	Verifications      []Verification `json:"verifications"`
	VerificationsTotal int            `json:"verifications_total"`
	History            []Event        `json:"history,omitempty"`
	HistoryMore        bool           `json:"history_more,omitempty"`
	Tree               []Beneath      `json:"tree,omitempty"`
}

// NewItemShow is it as the wire shows it.
func NewItemShow(it app.ItemShow) ItemShow {
	out := ItemShow{Kind: it.Kind, Links: NewLinks(it.Links), Governing: []Governing{}, Subtasks: NewTasks(it.Subtasks),
		SubtasksMore: it.SubtasksMore, Comments: []Comment{}, CommentsTotal: it.CommentsTotal, Verifications: []Verification{},
		VerificationsTotal: it.VerificationsTotal, HistoryMore: it.HistoryMore}
	if it.Kind == "document" {
		d := NewDocument(it.Document)
		out.Document = &d
	} else {
		t := NewTask(it.Task)
		out.Task = &t
	}
	for _, g := range it.Governing {
		out.Governing = append(out.Governing, Governing{Document: NewLinkEnd(g.Document), LinkType: g.LinkType})
	}
	for _, c := range it.Comments {
		out.Comments = append(out.Comments, NewComment(c))
	}
	for _, v := range it.Verifications {
		out.Verifications = append(out.Verifications, NewVerification(v))
	}
	for _, e := range it.History {
		out.History = append(out.History, NewEvent(e))
	}
	for _, b := range it.Tree {
		out.Tree = append(out.Tree, Beneath{Depth: b.Depth, Item: NewLinkEnd(b.Item), Stopped: OrNull(b.Stopped)})
	}
	return out
}

// ItemSearch is GET /v1/search: the best matches of each kind, best first,
// and whether each kind has more.
type ItemSearch struct {
	Tasks         []Task     `json:"tasks"`
	TasksMore     bool       `json:"tasks_more"`
	Documents     []Document `json:"documents"`
	DocumentsMore bool       `json:"documents_more"`
}

// NewItemSearch is res as the wire shows it.
func NewItemSearch(res app.ItemSearch) ItemSearch {
	return ItemSearch{Tasks: NewTasks(res.Tasks), TasksMore: res.TasksMore, Documents: Map(res.Documents, NewDocument),
		DocumentsMore: res.DocumentsMore}
}
