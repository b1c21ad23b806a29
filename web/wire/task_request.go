package wire

import (
	"time"

	"tend/app"
)

// TaskCreate is the body of POST /v1/tasks: a captured line (text), the
// structured fields, or both.
type TaskCreate struct {
	Text            string     `json:"text,omitempty"`
	Title           string     `json:"title,omitempty"`
	Description     string     `json:"description,omitempty"`
	Project         string     `json:"project,omitempty"`
	Parent          FlexRef    `json:"parent,omitempty"`
	Type            string     `json:"type,omitempty"`
	Status          string     `json:"status,omitempty"`
	Tags            []string   `json:"tags,omitempty"`
	Assignee        string     `json:"assignee,omitempty"`
	Importance      *int       `json:"importance,omitempty"`
	Urgency         *int       `json:"urgency,omitempty"`
	DueAt           *time.Time `json:"due_at,omitempty"`
	DueIsAllDay     bool       `json:"due_is_all_day,omitempty"`
	StartsAt        *time.Time `json:"starts_at,omitempty"`
	StartsIsAllDay  bool       `json:"starts_is_all_day,omitempty"`
	EstimateMinutes *int       `json:"estimate_minutes,omitempty"`
	Repeat          string     `json:"repeat,omitempty"`
	Timezone        string     `json:"timezone,omitempty"`
}

// App is the new task as the Service takes it.
func (in TaskCreate) App() app.TaskCreate {
	return app.TaskCreate{Text: in.Text, Title: in.Title, Description: in.Description, Project: in.Project,
		Parent: app.FlexRef(in.Parent), Type: in.Type, Status: in.Status, Tags: in.Tags, Assignee: in.Assignee,
		Importance: in.Importance, Urgency: in.Urgency, DueAt: in.DueAt, DueIsAllDay: in.DueIsAllDay, StartsAt: in.StartsAt,
		StartsIsAllDay: in.StartsIsAllDay, EstimateMinutes: in.EstimateMinutes, Repeat: in.Repeat, Timezone: in.Timezone}
}

// TaskUpdate is the body of PATCH /v1/tasks/{id_or_ref}: omitted fields
// stay, null clears.
type TaskUpdate struct {
	Title           Patch[string]    `json:"title,omitzero"`
	Description     Patch[string]    `json:"description,omitzero"`
	Project         Patch[string]    `json:"project,omitzero"`
	Parent          Patch[FlexRef]   `json:"parent,omitzero"`
	Type            Patch[string]    `json:"type,omitzero"`
	Status          Patch[string]    `json:"status,omitzero"`
	Tags            Patch[[]string]  `json:"tags,omitzero"`
	Assignee        Patch[string]    `json:"assignee,omitzero"`
	Importance      Patch[int]       `json:"importance,omitzero"`
	Urgency         Patch[int]       `json:"urgency,omitzero"`
	DueAt           Patch[time.Time] `json:"due_at,omitzero"`
	DueIsAllDay     Patch[bool]      `json:"due_is_all_day,omitzero"`
	StartsAt        Patch[time.Time] `json:"starts_at,omitzero"`
	StartsIsAllDay  Patch[bool]      `json:"starts_is_all_day,omitzero"`
	SnoozedUntil    Patch[time.Time] `json:"snoozed_until,omitzero"`
	SnoozedIsAllDay Patch[bool]      `json:"snoozed_is_all_day,omitzero"`
	EstimateMinutes Patch[int]       `json:"estimate_minutes,omitzero"`
	Repeat          Patch[string]    `json:"repeat,omitzero"`
	Timezone        Patch[string]    `json:"timezone,omitzero"`
	AppliesTo       Patch[string]    `json:"applies_to,omitzero"`
	Defer           Patch[string]    `json:"defer,omitzero"`
	Plan            Patch[string]    `json:"plan,omitzero"`
	Until           Patch[string]    `json:"until,omitzero"`
	ExpectedVersion *int             `json:"expected_version,omitempty"`
}

// App is the change as the Service takes it.
func (in TaskUpdate) App() app.TaskUpdate {
	return app.TaskUpdate{Title: in.Title.App(), Description: in.Description.App(), Project: in.Project.App(),
		Parent: refPatch(in.Parent), Type: in.Type.App(), Status: in.Status.App(), Tags: in.Tags.App(),
		Assignee: in.Assignee.App(), Importance: in.Importance.App(), Urgency: in.Urgency.App(), DueAt: in.DueAt.App(),
		DueIsAllDay: in.DueIsAllDay.App(), StartsAt: in.StartsAt.App(), StartsIsAllDay: in.StartsIsAllDay.App(),
		SnoozedUntil: in.SnoozedUntil.App(), SnoozedIsAllDay: in.SnoozedIsAllDay.App(),
		EstimateMinutes: in.EstimateMinutes.App(), Repeat: in.Repeat.App(), Timezone: in.Timezone.App(),
		AppliesTo: in.AppliesTo.App(), Defer: in.Defer.App(), Plan: in.Plan.App(), Until: in.Until.App(),
		ExpectedVersion: in.ExpectedVersion}
}

// Move is the body of POST /v1/tasks/{id_or_ref}/move and
// /v1/projects/{key}/move: a new parent, or null for the top level, and
// (for a task) a project to refile it into.
type Move struct {
	Parent  Patch[FlexRef] `json:"parent"`
	Project Patch[string]  `json:"project"`
}

// Task is the move of a task as the Service takes it.
func (in Move) Task() app.TaskMove {
	return app.TaskMove{Parent: refPatch(in.Parent), Project: in.Project.App()}
}

// ProjectParent is the move of a project: the parent it names, which a
// project's move must, and no project (a project is not refiled into
// another as a task is).
func (in Move) ProjectParent() (app.Patch[string], error) {
	if !in.Parent.Set || in.Project.Set {
		return app.Patch[string]{}, app.Invalidf("body.parent", "send parent: a project key or id, or null for the top level")
	}
	return app.Patch[string]{Set: true, Null: in.Parent.Null, Value: string(in.Parent.Value)}, nil
}

// Claim is the body of POST /v1/tasks/{id_or_ref}/claim: how long the
// claim lasts, the claim_minutes setting when omitted.
type Claim struct {
	Minutes *int `json:"minutes,omitempty"`
}

// Completion is the body of POST /v1/tasks/{id_or_ref}/complete: the
// evidence, if any, to record with the completion.
type Completion struct {
	Verification *RecordVerification `json:"verification,omitempty"`
}

// App is the completion as the Service takes it.
func (in Completion) App() app.Completion {
	var c app.Completion
	if v := in.Verification; v != nil {
		rv := v.App()
		c.Verification = &rv
	}
	return c
}

// RecordVerification is the body of POST
// /v1/tasks/{id_or_ref}/verifications. There is no ran_at: the service
// stamps it.
type RecordVerification struct {
	Passed        *bool   `json:"passed,omitempty"`
	Summary       *string `json:"summary,omitempty"`
	CommitSHA     *string `json:"commit_sha,omitempty"`
	TreeHash      *string `json:"tree_hash,omitempty"`
	OutputExcerpt *string `json:"output_excerpt,omitempty"`
}

// App is the verification as the Service takes it.
func (in RecordVerification) App() app.RecordVerification { return app.RecordVerification(in) }
