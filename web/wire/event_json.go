package wire

import (
	"tend/app"
)

// Event is one recorded change of an item.
type Event struct {
	Seq            int64          `json:"seq"`
	ID             string         `json:"id"`
	Action         string         `json:"action"`
	EntityType     string         `json:"entity_type"`
	EntityID       string         `json:"entity_id"`
	WorkspaceID    *string        `json:"workspace_id"`
	ActorUserID    *string        `json:"actor_user_id"`
	ActorTokenID   *string        `json:"actor_token_id"`
	ActorInterface *string        `json:"actor_interface"`
	SubjectType    *string        `json:"subject_type"`
	SubjectID      *string        `json:"subject_id"`
	Changes        map[string]any `json:"changes"`
	ItemRef        *int64         `json:"item_ref"`
	ItemTitle      *string        `json:"item_title"`
	CreatedAt      string         `json:"created_at"`
}

// NewEvent is e as the wire shows it.
func NewEvent(e app.Event) Event {
	return Event{Seq: e.Seq, ID: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		WorkspaceID: OrNull(e.WorkspaceID), ActorUserID: OrNull(e.ActorUserID), ActorTokenID: OrNull(e.ActorTokenID),
		ActorInterface: OrNull(e.ActorInterface), SubjectType: OrNull(e.SubjectType), SubjectID: OrNull(e.SubjectID),
		Changes: e.Changes, ItemRef: e.ItemRef, ItemTitle: OrNull(e.ItemTitle), CreatedAt: Stamp(e.CreatedAt)}
}

// JournalEntry is one entry of the journal: who did what, with what they said and the values before and after.
type JournalEntry struct {
	Seq        int64        `json:"seq"`
	ID         string       `json:"id"`
	Action     string       `json:"action"`
	EntityType string       `json:"entity_type"`
	EntityID   string       `json:"entity_id"`
	ItemRef    *int64       `json:"item_ref"`
	ItemTitle  *string      `json:"item_title"`
	Actor      *string      `json:"actor"`
	Said       *string      `json:"said"`
	Changed    []changeJSON `json:"changed"`
	CreatedAt  string       `json:"created_at"`
}

type changeJSON struct {
	Field  string  `json:"field"`
	Before *string `json:"before"`
	After  *string `json:"after"`
	Said   string  `json:"said"`
}

// NewJournalEntry is e as the wire shows it.
func NewJournalEntry(e app.JournalEntry) JournalEntry {
	out := JournalEntry{Seq: e.Seq, ID: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		ItemRef: e.ItemRef, ItemTitle: OrNull(e.ItemTitle), Actor: OrNull(e.Actor), Said: e.Said,
		Changed: make([]changeJSON, len(e.Changed)), CreatedAt: Stamp(e.CreatedAt)}
	for i, c := range e.Changed {
		out.Changed[i] = changeJSON{Field: c.Field, Before: c.Before, After: c.After, Said: c.Said}
	}
	return out
}
