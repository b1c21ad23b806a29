package wire

import (
	"time"

	"tend/app"
)

// TaskCreate is the body of POST /v1/tasks: a captured line (text), the
// structured fields, or both.
type TaskCreate struct {
	Text            string     `json:"text"`
	Title           string     `json:"title"`
	Description     string     `json:"description"`
	Project         string     `json:"project"`
	Parent          FlexRef    `json:"parent"`
	Type            string     `json:"type"`
	Status          string     `json:"status"`
	Tags            []string   `json:"tags"`
	Assignee        string     `json:"assignee"`
	Importance      *int       `json:"importance"`
	Urgency         *int       `json:"urgency"`
	DueAt           *time.Time `json:"due_at"`
	DueIsAllDay     bool       `json:"due_is_all_day"`
	StartsAt        *time.Time `json:"starts_at"`
	StartsIsAllDay  bool       `json:"starts_is_all_day"`
	EstimateMinutes *int       `json:"estimate_minutes"`
	Repeat          string     `json:"repeat"`
	Timezone        string     `json:"timezone"`
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
	Title           Patch[string]    `json:"title"`
	Description     Patch[string]    `json:"description"`
	Project         Patch[string]    `json:"project"`
	Parent          Patch[FlexRef]   `json:"parent"`
	Type            Patch[string]    `json:"type"`
	Status          Patch[string]    `json:"status"`
	Tags            Patch[[]string]  `json:"tags"`
	Assignee        Patch[string]    `json:"assignee"`
	Importance      Patch[int]       `json:"importance"`
	Urgency         Patch[int]       `json:"urgency"`
	DueAt           Patch[time.Time] `json:"due_at"`
	DueIsAllDay     Patch[bool]      `json:"due_is_all_day"`
	StartsAt        Patch[time.Time] `json:"starts_at"`
	StartsIsAllDay  Patch[bool]      `json:"starts_is_all_day"`
	SnoozedUntil    Patch[time.Time] `json:"snoozed_until"`
	SnoozedIsAllDay Patch[bool]      `json:"snoozed_is_all_day"`
	EstimateMinutes Patch[int]       `json:"estimate_minutes"`
	Repeat          Patch[string]    `json:"repeat"`
	Timezone        Patch[string]    `json:"timezone"`
	AppliesTo       Patch[string]    `json:"applies_to"`
	Defer           Patch[string]    `json:"defer"`
	Plan            Patch[string]    `json:"plan"`
	Until           Patch[string]    `json:"until"`
	ExpectedVersion *int             `json:"expected_version"`
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

// Completion is the body of POST /v1/tasks/{id_or_ref}/complete: the
// evidence, if any, to record with the completion.
type Completion struct {
	Verification *RecordVerification `json:"verification"`
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
	Passed        *bool   `json:"passed"`
	Summary       *string `json:"summary"`
	CommitSHA     *string `json:"commit_sha"`
	TreeHash      *string `json:"tree_hash"`
	OutputExcerpt *string `json:"output_excerpt"`
}

// App is the verification as the Service takes it.
func (in RecordVerification) App() app.RecordVerification { return app.RecordVerification(in) }
