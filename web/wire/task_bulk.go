package wire

import "tend/app"

// TaskBulk is the body of POST /v1/tasks/bulk: the tasks to change and the
// one change to make to each.
type TaskBulk struct {
	Tasks  []BulkTarget `json:"tasks"`
	Change BulkChange   `json:"change"`
}

// BulkTarget is one task of a bulk change: its ref (42, "42", "#42") or
// id, and the version it was read at, which refuses the change if the
// task has moved on since.
type BulkTarget struct {
	Ref             FlexRef `json:"ref"`
	ExpectedVersion *int    `json:"expected_version,omitempty"`
}

// BulkChange is the one change of a bulk request: exactly one member.
type BulkChange struct {
	Status     Patch[string] `json:"status,omitzero"`
	Complete   bool          `json:"complete,omitempty"`
	Tags       *TagChange    `json:"tags,omitempty"`
	Assignee   Patch[string] `json:"assignee,omitzero"`
	Project    Patch[string] `json:"project,omitzero"`
	Due        Patch[string] `json:"due,omitzero"`
	Defer      Patch[string] `json:"defer,omitzero"`
	Importance Patch[int]    `json:"importance,omitzero"`
	Delete     bool          `json:"delete,omitempty"`
	Restore    bool          `json:"restore,omitempty"`
}

// TagChange is a bulk change's tags: names to add and to remove, with or
// without their '#'.
type TagChange struct {
	Add    []string `json:"add,omitempty"`
	Remove []string `json:"remove,omitempty"`
}

// TaskBulkResult answers a bulk change: the tasks as it left them, in the
// order named, and how many.
type TaskBulkResult struct {
	Count int    `json:"count"`
	Tasks []Task `json:"tasks"`
}

// App is the request as the Service takes it.
func (in TaskBulk) App() ([]app.BulkTarget, app.BulkChange) {
	targets := make([]app.BulkTarget, len(in.Tasks))
	for i, t := range in.Tasks {
		targets[i] = app.BulkTarget{Ref: app.FlexRef(t.Ref), ExpectedVersion: t.ExpectedVersion}
	}
	c := in.Change
	out := app.BulkChange{Status: c.Status.App(), Complete: c.Complete, Assignee: c.Assignee.App(), Project: c.Project.App(),
		Due: c.Due.App(), Defer: c.Defer.App(), Importance: c.Importance.App(), Delete: c.Delete, Restore: c.Restore}
	if c.Tags != nil {
		out.Tags = &app.TagChange{Add: c.Tags.Add, Remove: c.Tags.Remove}
	}
	return targets, out
}

// NewTaskBulkResult is the answer of a bulk change that left ts.
func NewTaskBulkResult(ts []app.Task) TaskBulkResult {
	out := TaskBulkResult{Count: len(ts), Tasks: make([]Task, len(ts))}
	for i, t := range ts {
		out.Tasks[i] = NewTask(t)
	}
	return out
}
