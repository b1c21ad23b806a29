package wire

import "tend/app"

// Purged answers a delete forever: the item named (its kind, ref and
// title, which nothing can read any more) and how many items of its
// subtree went with it.
type Purged struct {
	EntityType string `json:"entity_type"`
	Ref        int64  `json:"ref"`
	Title      string `json:"title"`
	Along      int    `json:"along"`
}

// NewPurged is the wire form of what app's Purge removed.
func NewPurged(p app.Purged) Purged {
	return Purged{EntityType: p.EntityType, Ref: p.Ref, Title: p.Title, Along: p.Along}
}
