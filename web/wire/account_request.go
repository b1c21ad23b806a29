package wire

import (
	"time"

	"tend/app"
)

// UserCreate is the body of POST /v1/users.
type UserCreate struct {
	Username         string `json:"username"`
	DisplayName      string `json:"display_name"`
	Email            string `json:"email"`
	Timezone         string `json:"timezone"`
	IsServiceAccount bool   `json:"is_service_account"`
	AnswersTo        string `json:"answers_to"`
	IsSuperuser      bool   `json:"is_superuser"`
}

// App is the new account as the Service takes it.
func (in UserCreate) App() app.UserCreate { return app.UserCreate(in) }

// UserUpdate is the body of PATCH /v1/users/{username}.
type UserUpdate struct {
	Active      Patch[bool]   `json:"active"`
	AnswersTo   Patch[string] `json:"answers_to"`
	Timezone    Patch[string] `json:"timezone"`
	DisplayName Patch[string] `json:"display_name"`
	IsSuperuser Patch[bool]   `json:"is_superuser"`
	// ReminderTime and DefaultReminders are the account's own reminder
	// settings: the time of day an all-day due reminds at ("09:00") and
	// what a new dated task takes when it names no reminders.
	ReminderTime     Patch[string]     `json:"reminder_time"`
	DefaultReminders Patch[[]Reminder] `json:"default_reminders"`
	// DigestTime is when the daily digest comes ("07:30"); null is off.
	DigestTime Patch[string] `json:"digest_time"`
	// TailscaleLogin links the account to a Tailscale login (an
	// administrator's change); null unlinks it.
	TailscaleLogin Patch[string] `json:"tailscale_login"`
}

// App is the change as the Service takes it.
func (in UserUpdate) App() app.UserUpdate {
	return app.UserUpdate{Active: in.Active.App(), AnswersTo: in.AnswersTo.App(), Timezone: in.Timezone.App(),
		DisplayName: in.DisplayName.App(), IsSuperuser: in.IsSuperuser.App(), ReminderTime: in.ReminderTime.App(), DigestTime: in.DigestTime.App(),
		TailscaleLogin: in.TailscaleLogin.App(),
		DefaultReminders: app.Patch[[]app.Reminder]{Set: in.DefaultReminders.Set, Null: in.DefaultReminders.Null,
			Value: appReminders(in.DefaultReminders.Value)}}
}

// TokenCreate is the body of POST /v1/tokens. Omitted fields inherit from
// the issuing credential; null asks for "no limit" on that axis.
type TokenCreate struct {
	Title             string           `json:"title"`
	Scopes            []string         `json:"scopes"`
	ExpiresAt         Patch[time.Time] `json:"expires_at"`
	Workspace         Patch[string]    `json:"workspace"`
	ProjectScope      Patch[[]string]  `json:"project_scope"`
	ProjectWriteScope Patch[[]string]  `json:"project_write_scope"`
	Username          string           `json:"username"`
	AnswersTo         string           `json:"answers_to"`
}

// App is the credential to issue as the Service takes it.
func (in TokenCreate) App() app.TokenCreate {
	return app.TokenCreate{Title: in.Title, Scopes: in.Scopes, ExpiresAt: in.ExpiresAt.App(), Workspace: in.Workspace.App(),
		ProjectScope: in.ProjectScope.App(), ProjectWriteScope: in.ProjectWriteScope.App(), Username: in.Username,
		AnswersTo: in.AnswersTo}
}

// LoginLinkCreate is the body of POST /v1/login-links.
type LoginLinkCreate struct {
	Username string `json:"username"`
}

// App is the link to mint as the Service takes it.
func (in LoginLinkCreate) App() app.LoginLinkCreate { return app.LoginLinkCreate(in) }

// InstanceUpdate is the body of PATCH /v1/instance.
type InstanceUpdate struct {
	Name            Patch[string] `json:"name"`
	Timezone        Patch[string] `json:"timezone"`
	SessionIdleDays Patch[int]    `json:"session_idle_days"`
}

// App is the change as the Service takes it.
func (in InstanceUpdate) App() app.InstanceUpdate {
	return app.InstanceUpdate{Name: in.Name.App(), Timezone: in.Timezone.App(), SessionIdleDays: in.SessionIdleDays.App()}
}
