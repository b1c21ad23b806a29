package wire

import "tend/app"

// Status is a status as GET /v1/statuses and /v1/meta show it.
type Status struct {
	ID         string `json:"id"`
	EntityType string `json:"entity_type"`
	Key        string `json:"key"`
	Label      string `json:"label"`
	Category   string `json:"category"`
	Position   int    `json:"position"`
	IsDefault  bool   `json:"is_default"`
}

// NewStatus is st as the wire shows it.
func NewStatus(st app.Status) Status {
	return Status{ID: st.ID, EntityType: st.EntityType, Key: st.Key, Label: st.Label, Category: st.Category,
		Position: st.Position, IsDefault: st.IsDefault}
}

// Tag is a tag entry as GET /v1/tags shows it: the name and its meaning,
// no usage counts.
type Tag struct {
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Meaning *string `json:"meaning"`
}

// NewTag is t as the wire shows it.
func NewTag(t app.Tag) Tag { return Tag{ID: t.ID, Name: t.Name, Meaning: OrNull(t.Description)} }
