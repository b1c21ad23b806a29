package app

import "context"

// Purged is what deleting an item forever removed: the item named, and
// how many items of its subtree went with it.
type Purged struct {
	EntityType string
	Ref        int64
	Title      string
	Along      int
}

type purgeTx interface {
	// PurgeTasks removes the tasks ids for good, with what hangs on them
	// alone: tags, verifications, comments, links, mentions and importer
	// ids. Their events stay: the history says what happened.
	PurgeTasks(ctx context.Context, ids []string) error
	// PurgeDocuments is PurgeTasks for documents.
	PurgeDocuments(ctx context.Context, ids []string) error
}

// Purge deletes forever a task or a document (entity "task" or
// "document") that is in the trash, with its whole subtree, and records
// a purge event. Only the workspace's owners and administrators may
// (workspace:write): the trash is everyone's safety net, and emptying it
// cannot be undone. An item the caller cannot see is not_found, as if
// absent; a live one is refused with not_in_trash, so that nothing is
// deleted forever without first going through the trash.
func (s *Service) Purge(ctx context.Context, a Actor, workspace, entity, idOrRef string) (Purged, error) {
	if entity != "task" && entity != "document" {
		return Purged{}, Invalidf("path.entity", "only tasks and documents are deleted forever, not %q", entity)
	}
	var out Purged
	err := s.store.Update(ctx, func(tx Tx) error {
		scopeOf, locate, subtree, remove := taskScope, tx.TaskLocator, tx.TaskSubtree, tx.PurgeTasks
		if entity == "document" {
			scopeOf, locate, subtree, remove = documentScope, tx.DocumentLocator, tx.DocumentSubtree, tx.PurgeDocuments
		}
		sc, err := scopeOf(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		loc, err := locate(ctx, sc.ws.Workspace.ID, idOrRef)
		if err != nil {
			return notFoundAs(err, entity)
		}
		n := sc.byID[loc.ProjectID]
		if !n.canReadItems() {
			return NotFound(entity)
		}
		if err := n.requireItemWrite(); err != nil {
			return err
		}
		if !sc.ws.can(PermWorkspaceWrite) {
			return Errorf(CodeForbidden, "only the owners and administrators of workspace %q delete forever; restore it, or ask one of them",
				sc.ws.Workspace.Slug)
		}
		if loc.DeletedAt == nil {
			return Errorf(CodeNotInTrash, "#%d is not in the trash: delete it first (it can be restored from there), then delete it forever", loc.Ref)
		}
		if entity == "task" {
			near, err := tx.TaskJobNear(ctx, loc.ID)
			if err != nil {
				return err
			}
			if near {
				return Errorf(CodeConflict, "#%d's subtree, or one it is part of, is still being trashed, restored or refiled; try again in a moment", loc.Ref)
			}
		}
		ids, err := subtree(ctx, loc.ID)
		if err != nil {
			return err
		}
		out = Purged{EntityType: entity, Ref: loc.Ref, Title: loc.Title, Along: len(ids) - 1}
		ref := loc.Ref
		// Recorded first: the store reads the event's project from the item.
		if err := record(ctx, tx, a, Event{WorkspaceID: loc.WorkspaceID, EntityType: entity, EntityID: loc.ID,
			Action: entity + ".purged", ItemRef: &ref, ItemTitle: loc.Title, Changes: map[string]any{"along": out.Along}}); err != nil {
			return err
		}
		return remove(ctx, ids)
	})
	return out, err
}
