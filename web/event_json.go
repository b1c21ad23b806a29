package web

import (
	"tend/app"
)

type eventJSON struct {
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

func newEventJSON(e app.Event) eventJSON {
	return eventJSON{Seq: e.Seq, ID: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		WorkspaceID: orNull(e.WorkspaceID), ActorUserID: orNull(e.ActorUserID), ActorTokenID: orNull(e.ActorTokenID),
		ActorInterface: orNull(e.ActorInterface), SubjectType: orNull(e.SubjectType), SubjectID: orNull(e.SubjectID),
		Changes: e.Changes, ItemRef: e.ItemRef, ItemTitle: orNull(e.ItemTitle), CreatedAt: stamp(e.CreatedAt)}
}

type journalEntryJSON struct {
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

func newJournalEntryJSON(e app.JournalEntry) journalEntryJSON {
	out := journalEntryJSON{Seq: e.Seq, ID: e.ID, Action: e.Action, EntityType: e.EntityType, EntityID: e.EntityID,
		ItemRef: e.ItemRef, ItemTitle: orNull(e.ItemTitle), Actor: orNull(e.Actor), Said: e.Said,
		Changed: make([]changeJSON, len(e.Changed)), CreatedAt: stamp(e.CreatedAt)}
	for i, c := range e.Changed {
		out.Changed[i] = changeJSON{Field: c.Field, Before: c.Before, After: c.After, Said: c.Said}
	}
	return out
}
