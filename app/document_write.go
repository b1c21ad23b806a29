package app

import (
	"context"
	"strings"

	"tend/app/background"
)

// UpdateDocument changes a document. A stale expected_version is refused.
func (s *Service) UpdateDocument(ctx context.Context, a Actor, workspace, idOrRef string, in DocumentUpdate) (Document, error) {
	if err := s.validateDocumentUpdate(&in); err != nil {
		return Document{}, err
	}
	// A new body's mentions are found before the transaction, as on
	// create: finding them in a large body takes longer than writing them.
	var bodyRefs []int64
	if in.Body.Set {
		bodyRefs = mentionedRefs(in.Body.Value)
	}
	var out Document
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableDocument, func(tx Tx, sc *scope, d Document) error {
		if err := checkVersion(in.ExpectedVersion, d.Version); err != nil {
			return err
		}
		changes, err := applyDocumentUpdate(ctx, tx, a, sc, &d, in, bodyRefs)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			out = d
			return nil
		}
		if err := saveDocument(ctx, tx, a, &d, "document.updated", changes); err != nil {
			return err
		}
		out, err = readDocument(ctx, tx, sc, d.ID, false)
		return err
	}))
	if err == nil && in.Body.Set && len(in.Body.Value) > background.DocumentChunkBytes {
		s.kick() // the body is indexed in steps (app/background)
	}
	return out, err
}

// applyDocumentUpdate applies in to d; bodyRefs are the refs in.Body
// mentions, when set.
func applyDocumentUpdate(ctx context.Context, tx Tx, a Actor, sc *scope, d *Document, in DocumentUpdate, bodyRefs []int64) (map[string]any, error) {
	changes := map[string]any{}
	content := false
	if title := strings.TrimSpace(in.Title.Value); in.Title.Set && title != d.Title {
		changes["title"] = map[string]any{"from": d.Title, "to": title}
		d.Title, content = title, true
	}
	if in.Body.Set && in.Body.Value != d.Body {
		// Only replacing a body that had words counts as a revision: a first
		// draft written onto an empty body does not.
		revised := d.Body != ""
		if revised {
			now := tx.Now()
			d.RevisionCount, d.RevisedAt, d.RevisedBy = d.RevisionCount+1, &now, a.User.ID
		}
		changes["body"] = map[string]any{"revised": revised, "size_bytes": len(in.Body.Value)}
		d.Body, content = in.Body.Value, true
	}
	if content {
		d.ContentUpdatedAt = tx.Now()
		// A new title alone is written with the stored body, whose
		// mentions are read here.
		if !in.Body.Set {
			bodyRefs = mentionedRefs(d.Body)
		}
		if err := noteRefs(ctx, tx, mentionSource{WorkspaceID: d.WorkspaceID, Type: "document", ID: d.ID, Self: d.ID},
			joinRefs(mentionedRefs(d.Title), bodyRefs)); err != nil {
			return nil, err
		}
	}
	if in.Type.Set {
		it, err := itemTypeFor(ctx, tx, d.WorkspaceID, "document", in.Type.Value, "body.type")
		if err != nil {
			return nil, err
		}
		if it.ID != d.TypeID {
			changes["type"] = map[string]any{"from": d.Type.Key, "to": in.Type.Value}
			d.TypeID = it.ID
		}
	}
	if in.Status.Set {
		if err := setDocumentStatus(ctx, tx, d, in.Status.Value, changes); err != nil {
			return nil, err
		}
	}
	if in.Tags.Set {
		names := in.Tags.Value
		if in.Tags.Null {
			names = []string{}
		}
		if !sameFold(names, d.Tags) {
			changes["tags"] = map[string]any{"from": d.Tags, "to": names}
			if err := applyTags(ctx, tx, a, d.WorkspaceID, d.ProjectID, d.ID, names, tx.SetDocumentTags); err != nil {
				return nil, err
			}
		}
	}
	if in.Project.Set || in.Parent.Set {
		if err := refileDocument(ctx, tx, sc, d, in.Project, in.Parent, changes); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// refileDocument nests a document under another (null: the top level of
// its project) and/or files it in another project, taking its
// sub-documents along. Nesting under a document in another project refiles
// the whole subtree into that project. A document cannot move under itself.
func refileDocument(ctx context.Context, tx Tx, sc *scope, d *Document, project Patch[string], parent Patch[FlexRef], changes map[string]any) error {
	at := ItemLocation{ID: d.ID, ProjectID: d.ProjectID, Ref: d.Ref, ParentID: d.ParentID}
	newParent, target, err := refileParent(ctx, tx, sc, "document", at, parent, findDocumentIn, tx.DocumentSubtree)
	if err != nil {
		return err
	}
	if project.Set {
		n, err := sc.project(project.Value)
		if err != nil {
			return bodyRef(err, "body.project", "no such project: "+project.Value)
		}
		if !n.canReadItems() {
			return bodyRef(NotFound("project"), "body.project", "no such project: "+project.Value)
		}
		if newParent != "" && parent.Set && n.ID != target.ID {
			return Invalidf("body.project", "a sub-document lives in its parent's project (%s)", target.Path)
		}
		if !parent.Set && n.ID != target.ID {
			newParent = ""
		}
		target = n
	}
	if err := target.requireItemWrite(); err != nil {
		return err
	}
	if newParent != d.ParentID {
		changes["parent"] = map[string]any{"from": d.ParentRef, "to": string(parent.Value)}
		d.ParentID = newParent
	}
	if target.ID == d.ProjectID {
		return nil
	}
	changes["project"] = map[string]any{"from": d.ProjectKey, "to": target.Key}
	sub, err := tx.DocumentSubtree(ctx, d.ID)
	if err != nil {
		return err
	}
	if err := tx.MoveDocuments(ctx, sub, target.ID, tx.Now()); err != nil {
		return err
	}
	if err := recordDocumentsAlong(ctx, tx, sc, sub[1:], "document.moved", d.Ref, map[string]any{"project": target.Key}); err != nil {
		return err
	}
	d.ProjectID = target.ID
	return nil
}

// DocumentMove is a new parent for a document, or null for the top level
// of its project.
type DocumentMove struct {
	Parent Patch[FlexRef]
}

// MoveDocument nests a document under another, or at the top level, with
// its sub-documents.
func (s *Service) MoveDocument(ctx context.Context, a Actor, workspace, idOrRef string, in DocumentMove) (Document, error) {
	if !in.Parent.Set {
		return Document{}, Invalidf("body.parent", "send parent: a document ref or id, or null for the top level")
	}
	var out Document
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableDocument, func(tx Tx, sc *scope, d Document) (err error) {
		changes := map[string]any{}
		if err := refileDocument(ctx, tx, sc, &d, Patch[string]{}, in.Parent, changes); err != nil {
			return err
		}
		if len(changes) > 0 {
			if err := saveDocument(ctx, tx, a, &d, "document.moved", changes); err != nil {
				return err
			}
		}
		out, err = readDocument(ctx, tx, sc, d.ID, false)
		return err
	}))
	return out, err
}

// DeleteDocument moves a document and its sub-documents to the trash and
// returns it.
func (s *Service) DeleteDocument(ctx context.Context, a Actor, workspace, idOrRef string) (Document, error) {
	var out Document
	err := s.store.Update(ctx, withFound(ctx, a, workspace, idOrRef, writableDocument, func(tx Tx, sc *scope, d Document) error {
		now := tx.Now()
		sub, err := tx.DocumentSubtree(ctx, d.ID)
		if err != nil {
			return err
		}
		under, err := tx.SetDocumentsDeleted(ctx, sub[1:], nil, &now, now)
		if err != nil {
			return err
		}
		if err := recordDocumentsAlong(ctx, tx, sc, under, "document.deleted", d.Ref, nil); err != nil {
			return err
		}
		d.DeletedAt = &now
		if err := saveDocument(ctx, tx, a, &d, "document.deleted", map[string]any{"sub_documents": len(under)}); err != nil {
			return err
		}
		out, err = readDocument(ctx, tx, sc, d.ID, true)
		return err
	}))
	return out, err
}

// RestoreDocument brings a document back from the trash, with the
// sub-documents trashed along with it, and records a restore event.
func (s *Service) RestoreDocument(ctx context.Context, a Actor, workspace, idOrRef string) (Document, error) {
	var out Document
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, err := documentScope(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		loc, err := tx.DocumentLocator(ctx, sc.ws.Workspace.ID, idOrRef)
		if err != nil {
			return notFoundAs(err, "document")
		}
		if loc.DeletedAt == nil || !sc.byID[loc.ProjectID].canReadItems() {
			return NotFound("document")
		}
		if err := sc.byID[loc.ProjectID].requireItemWrite(); err != nil {
			return err
		}
		d, err := readDocument(ctx, tx, sc, loc.ID, true)
		if err != nil {
			return err
		}
		sub, err := tx.DocumentSubtree(ctx, d.ID)
		if err != nil {
			return err
		}
		// What was trashed with it (the same instant) comes back with it.
		under, err := tx.SetDocumentsDeleted(ctx, sub[1:], d.DeletedAt, nil, tx.Now())
		if err != nil {
			return err
		}
		if err := recordDocumentsAlong(ctx, tx, sc, under, "document.restored", d.Ref, nil); err != nil {
			return err
		}
		d.DeletedAt = nil
		if err := saveDocument(ctx, tx, a, &d, "document.restored", map[string]any{"sub_documents": len(under)}); err != nil {
			return err
		}
		out, err = readDocument(ctx, tx, sc, d.ID, false)
		return err
	})
	return out, err
}

// recordDocumentsAlong is recordAlong for the sub-documents of a document
// moved, trashed or restored.
func recordDocumentsAlong(ctx context.Context, tx Tx, sc *scope, ids []string, action string, via int64, changes map[string]any) error {
	return recordEach(ctx, tx, sc.acc.actor, "document", ids, action, via, changes)
}

// DocumentEvents is a document's history, with the comments made on it.
func (s *Service) DocumentEvents(ctx context.Context, a Actor, workspace, idOrRef string, q EventQuery) (EventPage, error) {
	return s.history(ctx, q, func(tx Tx) (string, func(*Event) bool, error) {
		sc, err := documentScope(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return "", nil, err
		}
		loc, err := findDocumentIn(ctx, tx, sc, idOrRef)
		return loc.ID, linkEndSeen(ctx, tx, sc), err
	})
}
