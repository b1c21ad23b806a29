package wire

import "tend/app"

// Webhook is an endpoint as the API answers it: never its secret, which
// only IssuedWebhook carries, once. Notice says why it stopped when it was
// disabled for failing or for a 410 Gone.
type Webhook struct {
	ID           string   `json:"id"`
	URL          string   `json:"url"`
	Events       []string `json:"events"`
	Project      *string  `json:"project"`
	Description  string   `json:"description"`
	Active       bool     `json:"active"`
	Creator      string   `json:"creator"`
	FailingSince *string  `json:"failing_since"`
	DisabledAt   *string  `json:"disabled_at"`
	Notice       *string  `json:"notice"`
	// RotatingUntil is when the secret replaced by the last rotation
	// stops (or stopped) signing; null before any rotation.
	RotatingUntil *string `json:"rotating_until"`
	Version       int     `json:"version"`
	CreatedAt     string  `json:"created_at"`
	UpdatedAt     string  `json:"updated_at"`
}

// NewWebhook is the wire record of w, as of now.
func NewWebhook(w app.Webhook) Webhook {
	out := Webhook{ID: w.ID, URL: w.URL, Events: w.Events, Project: OrNull(w.ProjectKey), Description: w.Description,
		Active: w.Active, Creator: w.Creator, FailingSince: StampPtr(w.FailingSince), DisabledAt: StampPtr(w.DisabledAt),
		Version: w.Version, CreatedAt: Stamp(w.CreatedAt), UpdatedAt: Stamp(w.UpdatedAt)}
	if w.DisabledAt != nil {
		n := "disabled: " + w.DisabledReason + "; PATCH active=true turns it on again, and replay sends what it missed"
		out.Notice = &n
	}
	if w.PreviousSecret != "" {
		out.RotatingUntil = StampPtr(w.PreviousUntil)
	}
	return out
}

// IssuedWebhook is an endpoint with its secret: the answer of creating it
// and of rotating its secret, the only times the secret is shown.
type IssuedWebhook struct {
	Webhook
	Secret string `json:"secret"`
}

// NewIssuedWebhook is w with its new secret.
func NewIssuedWebhook(w app.Webhook) IssuedWebhook {
	return IssuedWebhook{Webhook: NewWebhook(w), Secret: w.Secret}
}

// WebhookCreate is the body of POST /v1/webhooks.
type WebhookCreate struct {
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Project     string   `json:"project,omitempty"`
	Description string   `json:"description,omitempty"`
}

// App is the endpoint as the Service takes it.
func (in WebhookCreate) App() app.WebhookCreate {
	return app.WebhookCreate{URL: in.URL, Events: in.Events, Project: in.Project, Description: in.Description}
}

// WebhookUpdate is the body of PATCH /v1/webhooks/{id}: omitted fields stay.
type WebhookUpdate struct {
	URL         *string   `json:"url,omitempty"`
	Events      *[]string `json:"events,omitempty"`
	Active      *bool     `json:"active,omitempty"`
	Description *string   `json:"description,omitempty"`
}

// App is the change as the Service takes it.
func (in WebhookUpdate) App() app.WebhookUpdate {
	return app.WebhookUpdate{URL: in.URL, Events: in.Events, Active: in.Active, Description: in.Description}
}

// WebhookAttempt is one entry of an endpoint's delivery log.
type WebhookAttempt struct {
	Delivery   int64   `json:"delivery"`
	EventSeq   int64   `json:"event_seq"`
	At         string  `json:"at"`
	Outcome    string  `json:"outcome"`
	Status     *int    `json:"status"`
	DurationMS int64   `json:"duration_ms"`
	Error      *string `json:"error"`
	Answer     *string `json:"answer"`
}

// NewWebhookAttempt is the wire record of an attempt.
func NewWebhookAttempt(a app.WebhookAttempt) WebhookAttempt {
	out := WebhookAttempt{Delivery: a.DeliverySeq, EventSeq: a.EventSeq, At: Stamp(a.At), Outcome: a.Outcome,
		DurationMS: a.Duration.Milliseconds(), Error: OrNull(a.Error), Answer: OrNull(a.Answer)}
	if a.Status != 0 {
		out.Status = &a.Status
	}
	return out
}

// WebhookDelivery is a delivery queued by a redelivery.
type WebhookDelivery struct {
	Delivery int64  `json:"delivery"`
	EventSeq int64  `json:"event_seq"`
	State    string `json:"state"`
	DueAt    string `json:"due_at"`
}

// NewWebhookDelivery is the wire record of a delivery.
func NewWebhookDelivery(d app.WebhookDelivery) WebhookDelivery {
	return WebhookDelivery{Delivery: d.Seq, EventSeq: d.EventSeq, State: d.State, DueAt: Stamp(d.DueAt)}
}

// WebhookReplay is what a replay queued; more is true when it stopped at
// its limit.
type WebhookReplay struct {
	Queued int  `json:"queued"`
	More   bool `json:"more"`
}

// NewWebhookReplay is the wire record of a replay.
func NewWebhookReplay(r app.WebhookReplay) WebhookReplay {
	return WebhookReplay{Queued: r.Queued, More: r.More}
}
