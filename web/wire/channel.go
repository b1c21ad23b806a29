package wire

import "tend/app"

// Channel is a channel as the API answers it: never its token or a push
// subscription's keys, and of a push endpoint (itself a capability) only
// the push service's origin.
type Channel struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Name         string  `json:"name"`
	URL          string  `json:"url"`
	HasToken     bool    `json:"has_token"`
	CreatedAt    string  `json:"created_at"`
	LastOKAt     *string `json:"last_ok_at"`
	FailingSince *string `json:"failing_since"`
	LastError    *string `json:"last_error"`
}

// NewChannel is the wire record of c.
func NewChannel(c app.Channel) Channel {
	out := Channel{ID: c.ID, Type: c.Type, Name: c.Name, URL: c.URL, HasToken: c.Token != "", CreatedAt: Stamp(c.CreatedAt),
		LastOKAt: StampPtr(c.LastOKAt), FailingSince: StampPtr(c.FailingSince), LastError: OrNull(c.LastError)}
	if c.Type == "webpush" {
		out.URL = c.Origin()
	}
	return out
}

// ChannelCreate is the body of POST /v1/me/channels: an ntfy topic, or
// what a browser's PushSubscription.toJSON() gives plus type and name.
type ChannelCreate struct {
	Type     string      `json:"type"`
	Name     string      `json:"name,omitempty"`
	URL      string      `json:"url,omitempty"`
	Token    string      `json:"token,omitempty"`
	Endpoint string      `json:"endpoint,omitempty"`
	Keys     ChannelKeys `json:"keys,omitzero"`
	// ExpirationTime is read and ignored: browsers send it, null.
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
}

// ChannelKeys are a push subscription's keys.
type ChannelKeys struct {
	P256dh string `json:"p256dh,omitempty"`
	Auth   string `json:"auth,omitempty"`
}

// App is the create the Service takes.
func (c ChannelCreate) App() app.ChannelCreate {
	return app.ChannelCreate{Type: c.Type, Name: c.Name, URL: c.URL, Token: c.Token, Endpoint: c.Endpoint,
		P256dh: c.Keys.P256dh, Auth: c.Keys.Auth}
}

// Notification is one notification as the API answers it.
type Notification struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind"`
	ChannelID *string `json:"channel_id"`
	TaskID    *string `json:"task_id"`
	Title     string  `json:"title"`
	State     string  `json:"state"`
	Attempts  int     `json:"attempts"`
	Late      bool    `json:"late"`
	CreatedAt string  `json:"created_at"`
	SentAt    *string `json:"sent_at"`
	LastError *string `json:"last_error"`
}

// NewNotification is the wire record of n.
func NewNotification(n app.Notification) Notification {
	return Notification{ID: n.ID, Kind: n.Kind, ChannelID: OrNull(n.ChannelID), TaskID: OrNull(n.TaskID), Title: n.Title,
		State: n.State, Attempts: n.Attempts, Late: n.Late, CreatedAt: Stamp(n.CreatedAt), SentAt: StampPtr(n.SentAt),
		LastError: OrNull(n.LastError)}
}
