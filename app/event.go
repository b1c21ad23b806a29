package app

import (
	"context"
	"time"
)

// Event is one recorded change. Seq is global, increasing, and the only
// field to order or resume on. WorkspaceID is empty for instance-level
// changes (accounts, credentials, calendar feeds, the instance itself), which belong to no
// workspace's feed.
type Event struct {
	Seq            int64
	ID             string
	WorkspaceID    string
	EntityType     string
	EntityID       string
	Action         string
	ActorUserID    string
	ActorTokenID   string
	ActorInterface string
	SubjectType    string
	SubjectID      string
	Changes        map[string]any
	ItemRef        *int64
	ItemTitle      string
	CreatedAt      time.Time
	// ProjectID is the project the event happened in; empty for
	// workspace-level events. When a writer leaves it empty the store works
	// it out from the entity or the subject, so no call site can forget it.
	ProjectID string
}

type eventTx interface {
	InsertEvent(ctx context.Context, e *Event) error
	// InsertEvents appends events in one statement, in the order given.
	InsertEvents(ctx context.Context, es []Event) error
	// InsertEventsAlong records e once for each item (of e.EntityType) in
	// itemIDs, under the event id at the same index, with each item's
	// workspace, project, ref and title, in ref order: one statement for a
	// subtree of any size.
	InsertEventsAlong(ctx context.Context, e Event, itemIDs, eventIDs []string) error
}

// Actions lists every event action this release records, for the docs and meta.
var Actions = []string{
	"instance.created", "instance.updated",
	"user.created", "user.updated", "session.started",
	"workspace.created", "workspace.updated", "workspace.deleted", "workspace.restored",
	"member.added", "member.regraded", "member.removed",
	"token.issued", "token.revoked",
	"calendar.issued", "calendar.revoked", "calendar.reset",
	"view.created", "view.updated", "view.deleted",
	"webhook.created", "webhook.updated", "webhook.deleted", "webhook.rotated", "webhook.disabled",
	"project.created", "project.updated", "project.moved", "project.deleted", "project.restored",
	"project.shared", "project.unshared", "project.role_set", "project.role_removed",
	"task.created", "task.updated", "task.moved", "task.deleted", "task.restored", "task.purged", "task.completed",
	"task.skipped",
	"task.claimed", "task.claim_renewed", "task.released", "task.verified",
	"link.created", "link.deleted",
	"document.created", "document.updated", "document.moved", "document.deleted", "document.restored",
	"document.purged",
	"comment.created", "comment.updated", "comment.deleted",
	"status.created", "status.updated", "status.deleted",
	"link_type.created", "link_type.updated", "link_type.deleted",
	"tag.created", "tag.updated", "tag.deleted",
}

// record stamps an event with the actor and the transaction's clock and stores it.
func record(ctx context.Context, tx Tx, a Actor, e Event) error {
	e = stamp(tx, a, e)
	return tx.InsertEvent(ctx, &e)
}

// stamp gives an event to record its id, the actor and the transaction's clock.
func stamp(tx Tx, a Actor, e Event) Event {
	e.ID = newID()
	e.CreatedAt = tx.Now()
	if !a.system {
		e.ActorUserID = a.User.ID
	}
	e.ActorTokenID = a.tokenID()
	e.ActorInterface = a.Interface
	return e
}
