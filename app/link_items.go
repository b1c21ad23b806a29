package app

import (
	"context"
	"strings"
)

// AnyItem, given where an entity is named, addresses a task or a document
// by its ref alone: refs are shared by both, so the ref says which.
const AnyItem = "item"

// eitherItem resolves a ref (or id) to the live task or document it names.
func eitherItem(ctx context.Context, tx Tx, a Actor, workspace, idOrRef string) (addressed, error) {
	it, err := addressedItem(ctx, tx, a, workspace, "task", idOrRef)
	if CodeOf(err) != CodeNotFound {
		return it, err
	}
	it, err = addressedItem(ctx, tx, a, workspace, "document", idOrRef)
	if CodeOf(err) == CodeNotFound {
		return addressed{}, NotFound("task or document")
	}
	return it, err
}

// LinkItems is service_link: every ref joined to (or parted from) every
// other with one link type.
type LinkItems struct {
	Workspace string
	Refs      []string
	Others    []string
	Type      string // a link type key; relates_to when empty
	Remove    bool
}

// LinkItems links (or unlinks) each of Refs with each of Others, tasks or
// documents alike, in one transaction: all of it happens or none. It
// returns the links made, or those removed, each seen from its ref's end.
// Removing a link that is not there is not found, naming the pair.
func (s *Service) LinkItems(ctx context.Context, a Actor, in LinkItems) ([]LinkView, error) {
	if in.Type == "" {
		in.Type = "relates_to"
	}
	switch {
	case len(in.Refs) == 0 || len(in.Others) == 0:
		return nil, Invalidf("arguments.ref", "name at least one ref and one other")
	case len(in.Refs)*len(in.Others) > s.limits.MaxLinksPerRequest:
		return nil, FieldErrorf(CodeOverLimit, "arguments.other", "at most %d links in one call (max_links_per_request); this asks for %d",
			s.limits.MaxLinksPerRequest, len(in.Refs)*len(in.Others))
	}
	out := []LinkView{}
	err := s.store.Update(ctx, func(tx Tx) error {
		for _, ref := range in.Refs {
			self, err := linkedItem(ctx, tx, a, in.Workspace, AnyItem, ref, true)
			if err != nil {
				return err
			}
			lt, err := linkTypeByKey(ctx, tx, self.sc.ws.Workspace.ID, in.Type, "arguments.type")
			if err != nil {
				return err
			}
			if !in.Remove {
				made, err := linkOthers(ctx, tx, a, self, lt, in.Others)
				if err != nil {
					return err
				}
				out = append(out, made...)
				continue
			}
			for _, o := range in.Others {
				v, err := unlinkPair(ctx, tx, a, self, lt, o)
				if err != nil {
					return err
				}
				out = append(out, v)
			}
		}
		return nil
	})
	return out, err
}

// linkOthers makes a link of type lt from self to each of others, tasks or
// documents, and returns them seen from self, in the order asked.
func linkOthers(ctx context.Context, tx Tx, a Actor, self linkSelf, lt LinkType, others []string) ([]LinkView, error) {
	batch, err := newLinkBatch(ctx, tx, self)
	if err != nil {
		return nil, err
	}
	for _, other := range others {
		other = strings.TrimPrefix(other, "#")
		kind := "task"
		loc, err := findTaskIn(ctx, tx, self.sc, other)
		if CodeOf(err) == CodeNotFound {
			kind = "document"
			loc, err = findDocumentIn(ctx, tx, self.sc, other)
		}
		if err != nil {
			return nil, bodyRef(err, "arguments.other", "no such task or document: "+other)
		}
		if loc.ID == self.ID {
			return nil, Invalidf("arguments.other", "an item cannot be linked to itself")
		}
		if _, err := batch.add(tx, a, lt, "outgoing", loc, kind); err != nil {
			return nil, err
		}
	}
	return batch.stored(ctx, tx)
}

// unlinkPair removes the link of type lt between self and other.
func unlinkPair(ctx context.Context, tx Tx, a Actor, self linkSelf, lt LinkType, other string) (LinkView, error) {
	other = strings.TrimPrefix(other, "#")
	views, err := linkViews(ctx, tx, self.sc, self.ID)
	if err != nil {
		return LinkView{}, err
	}
	for _, v := range views {
		if v.Type.ID == lt.ID && (itoa(int(v.Other.Ref())) == other || v.Other.Task.ID == other || v.Other.Document.ID == other) {
			return v, deleteLink(ctx, tx, a, self, v)
		}
	}
	return LinkView{}, &Error{Code: CodeNotFound, Detail: "#" + itoa(int(self.Ref)) + " has no " + lt.Key + " link with " + other}
}
