package wire

import (
	"time"

	"tend/app"
)

// CalendarCreate is the body of POST /v1/calendars.
type CalendarCreate struct {
	Title     string     `json:"title"`
	Audience  string     `json:"audience"`
	Project   string     `json:"project"`
	ItemTypes []string   `json:"item_types"`
	ExpiresAt *time.Time `json:"expires_at"`
}

// App is the new feed as the Service takes it, in the workspace the
// request names (its workspace_id).
func (in CalendarCreate) App(workspace string) app.CalendarCreate {
	return app.CalendarCreate{Title: in.Title, Audience: in.Audience, Project: in.Project, ItemTypes: in.ItemTypes,
		ExpiresAt: in.ExpiresAt, Workspace: workspace}
}

// RecurrenceParse is the body of POST /v1/recurrence/parse.
type RecurrenceParse struct {
	Text     string     `json:"text"`
	From     *time.Time `json:"from"`
	Timezone string     `json:"timezone"`
}

// App is the repeat to read as the Service takes it.
func (in RecurrenceParse) App() app.RecurrenceParse { return app.RecurrenceParse(in) }
