package wire

import (
	"tend/app"
)

// The wire shapes of items share their common parts, so that a field added
// to one part reaches every shape that carries it: Task, TaskPreview,
// LinkEnd and Document embed these (encoding/json flattens them in place,
// and so does the encoder taskgen generates from Task, task_encode_gen.go).

// itemHeadJSON opens every item: a task, a document, a link's far end.
type itemHeadJSON struct {
	ID    string `json:"id"`
	Ref   int64  `json:"ref"`
	Title string `json:"title"`
}

// itemStateJSON is an item's type and status, resolved.
type itemStateJSON struct {
	Type            string `json:"type"`
	TypeLabel       string `json:"type_label"`
	TypeCategory    string `json:"type_category"`
	TypeIsDefault   bool   `json:"type_is_default"`
	Status          string `json:"status"`
	StatusLabel     string `json:"status_label"`
	StatusCategory  string `json:"status_category"`
	StatusIsDefault bool   `json:"status_is_default"`
	IsComplete      bool   `json:"is_complete"`
}

// taskWhenJSON is what a task and a link's far end both say of when the task
// is to be done, past its due date: deferral, recurrence and timezone.
type taskWhenJSON struct {
	SnoozedUntil          *string `json:"snoozed_until"`
	SnoozedIsAllDay       bool    `json:"snoozed_is_all_day"`
	RecurrenceDescription *string `json:"recurrence_description"`
	Timezone              *string `json:"timezone"`
}

// taskClaimJSON is who holds a task's claim, if anyone does: the full task
// and a link's far end both say it. (When it ends follows it in both; the
// full task also says, between the two, when it began.)
type taskClaimJSON struct {
	ClaimedBy          *string `json:"claimed_by"`
	ClaimedByID        *string `json:"claimed_by_id"`
	ClaimedByAnswersTo *string `json:"claimed_by_answers_to"`
	ClaimedByIsAgent   bool    `json:"claimed_by_is_agent"`
}

// taskPlanJSON is what a task and its preview both say of the work it
// takes and when it is due and planned.
type taskPlanJSON struct {
	EstimateMinutes *int    `json:"estimate_minutes"`
	DueAt           *string `json:"due_at"`
	DueIsAllDay     bool    `json:"due_is_all_day"`
	StartsAt        *string `json:"starts_at"`
	StartsIsAllDay  bool    `json:"starts_is_all_day"`
}

// itemStampsJSON closes a task and a document: who made and last changed
// it and when, when its content last changed, when it was trashed, and its
// version.
type itemStampsJSON struct {
	CreatedAt        string  `json:"created_at"`
	CreatedBy        *string `json:"created_by"`
	UpdatedAt        string  `json:"updated_at"`
	UpdatedBy        *string `json:"updated_by"`
	ContentUpdatedAt string  `json:"content_updated_at"`
	DeletedAt        *string `json:"deleted_at"`
	Version          int     `json:"version"`
}

// Task is the full task record.
type Task struct {
	itemHeadJSON
	Description *string `json:"description"`
	itemStateJSON
	Project           string         `json:"project"`
	ProjectID         string         `json:"project_id"`
	ProjectPath       string         `json:"project_path"`
	Workspace         *string        `json:"workspace"`
	WorkspaceID       string         `json:"workspace_id"`
	Parent            *string        `json:"parent"`
	ParentRef         *int64         `json:"parent_ref"`
	Tags              []string       `json:"tags"`
	Reminders         []TaskReminder `json:"reminders"`
	Assignee          *string        `json:"assignee"`
	AssigneeID        *string        `json:"assignee_id"`
	AssigneeAnswersTo *string        `json:"assignee_answers_to"`
	AssigneeIsAgent   bool           `json:"assignee_is_agent"`
	taskClaimJSON
	ClaimedAt      *string  `json:"claimed_at"`
	ClaimExpiresAt *string  `json:"claim_expires_at"`
	Importance     *int     `json:"importance"`
	Urgency        *int     `json:"urgency"`
	PriorityScore  float64  `json:"priority_score"`
	Relevance      *float64 `json:"relevance"`
	taskPlanJSON
	taskWhenJSON
	RepeatRule   *string `json:"repeat_rule"` // the rule's canonical text (DTSTART, RRULE), as the repeat field accepts it
	SeriesID     *string `json:"series_id"`   // shared by the occurrences of one repeat
	Occurrence   *int    `json:"occurrence"`  // this occurrence's number in its series, from 1
	Blocked      bool    `json:"blocked"`
	Blocking     bool    `json:"blocking"`
	SubTasks     int     `json:"sub_tasks"`
	SubTasksDone bool    `json:"sub_tasks_done"`
	SubDocuments int     `json:"sub_documents"`
	CompletedAt  *string `json:"completed_at"`
	itemStampsJSON

	// readerZone is the reader's zone, for a compact line's timed due; it
	// is no field of the record.
	readerZone string
}

// NewTask is the full record of t: the fields copyTask copies, and those
// the wire names or writes otherwise.
func NewTask(t app.Task) Task {
	out := Task{itemStateJSON: newItemState(t.Type, t.Status, t.IsComplete()), Project: t.ProjectKey,
		Workspace: OrNull(t.WorkspaceSlug), Parent: OrNull(t.ParentID), Occurrence: nonZero(t.Occurrence),
		SubTasksDone: t.SubTasksDone(), readerZone: t.ReaderZone}
	copyTask(&out, &t)
	return out
}

// TaskPreview is what POST /v1/tasks would make of a body: the task as it
// would be stored, without an id or ref, and how its line was read.
type TaskPreview struct {
	Title       string         `json:"title"`
	Description *string        `json:"description"`
	Project     string         `json:"project"`
	ProjectPath string         `json:"project_path"`
	ParentRef   *int64         `json:"parent_ref"`
	Type        string         `json:"type"`
	Status      string         `json:"status"`
	Tags        []string       `json:"tags"`
	Reminders   []TaskReminder `json:"reminders"`
	Assignee    *string        `json:"assignee"`
	Importance  *int           `json:"importance"`
	Urgency     *int           `json:"urgency"`
	taskPlanJSON
	Timezone string  `json:"timezone"`
	Repeat   *Repeat `json:"repeat"`
	Spans    []Span  `json:"spans"`
}

// newItemState resolves an item's type and status for the wire.
func newItemState(typ app.ItemType, st app.Status, complete bool) itemStateJSON {
	return itemStateJSON{Type: typ.Key, TypeLabel: typ.Label, TypeCategory: typ.Category, TypeIsDefault: typ.IsDefault,
		Status: st.Key, StatusLabel: st.Label, StatusCategory: st.Category, StatusIsDefault: st.IsDefault, IsComplete: complete}
}

// TaskLine is t's compact line: ref, status, project, title, who has it and its due.
func TaskLine(t Task) []string {
	who := ""
	if t.ClaimedBy != nil {
		who = "@" + *t.ClaimedBy + " (claimed)"
	} else if t.Assignee != nil {
		who = "@" + *t.Assignee
	}
	due := ""
	if t.DueAt != nil {
		due = "due " + dueText(*t.DueAt, t.DueIsAllDay, Deref(t.Timezone), t.readerZone)
	}
	return []string{"#" + Itoa64(t.Ref), t.Status, t.ProjectPath, t.Title, who, due}
}

// LinkEnd is the far end of a link: enough to act on, never a description.
type LinkEnd struct {
	EntityType string `json:"entity_type"`
	itemHeadJSON
	itemStateJSON
	ProjectPath       string   `json:"project_path"`
	Workspace         *string  `json:"workspace"`
	Tags              []string `json:"tags"`
	Assignee          *string  `json:"assignee"`
	AssigneeAnswersTo *string  `json:"assignee_answers_to"`
	AssigneeIsAgent   bool     `json:"assignee_is_agent"`
	taskClaimJSON
	ClaimExpiresAt *string `json:"claim_expires_at"`
	DueAt          *string `json:"due_at"`
	DueIsAllDay    bool    `json:"due_is_all_day"`
	taskWhenJSON
	Blocked      bool    `json:"blocked"`
	Blocking     bool    `json:"blocking"`
	SubTasksDone bool    `json:"sub_tasks_done"`
	SubDocuments int     `json:"sub_documents"`
	DeletedAt    *string `json:"deleted_at"`
}

func taskLinkEnd(t Task) LinkEnd {
	return LinkEnd{EntityType: "task", itemHeadJSON: t.itemHeadJSON, itemStateJSON: t.itemStateJSON, ProjectPath: t.ProjectPath,
		Workspace: t.Workspace, Tags: t.Tags, Assignee: t.Assignee, AssigneeAnswersTo: t.AssigneeAnswersTo,
		AssigneeIsAgent: t.AssigneeIsAgent, taskClaimJSON: t.taskClaimJSON, ClaimExpiresAt: t.ClaimExpiresAt,
		DueAt: t.DueAt, DueIsAllDay: t.DueIsAllDay, taskWhenJSON: t.taskWhenJSON, Blocked: t.Blocked, Blocking: t.Blocking,
		SubTasksDone: t.SubTasksDone, SubDocuments: t.SubDocuments, DeletedAt: t.DeletedAt}
}

// Link is a link as read from one end: its type, label and the far end.
type Link struct {
	ID           string  `json:"id"`
	Direction    string  `json:"direction"`
	Label        string  `json:"label"`
	LinkType     string  `json:"link_type"`
	LinkCategory *string `json:"link_category"`
	Other        LinkEnd `json:"other"`
}

// PageLink is one link among a page's items, for include=links.
type PageLink struct {
	ID       string `json:"id"`
	LinkType string `json:"link_type"`
	Label    string `json:"label"`
	Source   int64  `json:"source"`
	Target   int64  `json:"target"`
}

// Verification is a recorded check of a task: its verdict and what it checked.
type Verification struct {
	ID            string  `json:"id"`
	TaskID        string  `json:"task_id"`
	Passed        bool    `json:"passed"`
	Summary       *string `json:"summary"`
	CommitSHA     *string `json:"commit_sha"`
	TreeHash      *string `json:"tree_hash"`
	OutputExcerpt *string `json:"output_excerpt"`
	RanAt         string  `json:"ran_at"`
	Actor         *string `json:"actor"`
	ActorUserID   *string `json:"actor_user_id"`
	ActorTokenID  *string `json:"actor_token_id"`
}

// NewVerification is v as the wire shows it.
func NewVerification(v app.Verification) Verification {
	return Verification{ID: v.ID, TaskID: v.TaskID, Passed: v.Passed, Summary: OrNull(v.Summary), CommitSHA: OrNull(v.CommitSHA),
		TreeHash: OrNull(v.TreeHash), OutputExcerpt: OrNull(v.OutputExcerpt), RanAt: Stamp(v.RanAt), Actor: OrNull(v.Actor),
		ActorUserID: OrNull(v.ActorUserID), ActorTokenID: OrNull(v.ActorTokenID)}
}

// nonZero is n, or null for 0 (a count that starts at 1 when there is one).
func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
