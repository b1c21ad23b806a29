package app

import "context"

type linkTypeTx interface {
	LinkTypeByID(ctx context.Context, id string) (LinkType, error)
	UpdateLinkType(ctx context.Context, lt *LinkType) error
	DeleteLinkType(ctx context.Context, id string) error
	// LinkTypeUses counts the links of a type.
	LinkTypeUses(ctx context.Context, id string) (int, error)
}

// CreateLinkType is a new link type (POST /v1/link-types).
type CreateLinkType struct {
	Category     string
	InverseTitle string
	IsSymmetric  bool
	Key          string
	Title        string
}

// UpdateLinkType renames a link type, or rewords either end (PATCH
// /v1/link-types/{which}).
type UpdateLinkType struct {
	Key          Patch[string]
	Title        Patch[string]
	InverseTitle Patch[string]
	Category     Patch[string]
}

// LinkCategories are the categories a link type may have.
var LinkCategories = []string{LinkSequencing, LinkAssociation, LinkGoverning, LinkProvenance}

// LinkTypes lists a workspace's link types.
func (s *Service) LinkTypes(ctx context.Context, a Actor, workspace string) ([]LinkType, error) {
	var out []LinkType
	err := s.store.View(ctx, func(tx Tx) (err error) {
		out, err = linkTypeKind.listed(ctx, tx, a, workspace)
		return err
	})
	return out, err
}

// AddLinkType adds a link type to a workspace's vocabulary.
func (s *Service) AddLinkType(ctx context.Context, a Actor, workspace string, in CreateLinkType) (LinkType, error) {
	errs := []error{checkVocabKey("body.key", in.Key), s.checkTitle("body.title", in.Title), s.checkTitle("body.inverse_title", in.InverseTitle)}
	errs = append(errs, checkOneOf("body.category", "category", in.Category, LinkCategories))
	if in.IsSymmetric && in.InverseTitle != in.Title {
		errs = append(errs, Invalidf("body.inverse_title", "a symmetric link reads the same from both ends: inverse_title equals title"))
	}
	if err := joinErrors(errs...); err != nil {
		return LinkType{}, err
	}
	var out LinkType
	err := s.store.Update(ctx, func(tx Tx) error {
		w, err := vocabWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return err
		}
		out = LinkType{ID: newID(), WorkspaceID: w.ID, Key: in.Key, Title: in.Title, InverseTitle: in.InverseTitle,
			IsSymmetric: in.IsSymmetric, Category: in.Category, CreatedAt: tx.Now()}
		if err := tx.InsertLinkType(ctx, &out); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeConflict, "link type %q exists already", in.Key)
			}
			return err
		}
		return linkTypeKind.record(ctx, tx, a, out, "created", map[string]any{"key": out.Key})
	})
	return out, err
}

// ChangeLinkType renames a link type or rewords either end.
func (s *Service) ChangeLinkType(ctx context.Context, a Actor, id string, in UpdateLinkType) (LinkType, error) {
	var errs []error
	if in.Key.Set {
		errs = append(errs, checkVocabKey("body.key", in.Key.Value))
	}
	if in.Title.Set {
		errs = append(errs, s.checkTitle("body.title", in.Title.Value))
	}
	if in.InverseTitle.Set {
		errs = append(errs, s.checkTitle("body.inverse_title", in.InverseTitle.Value))
	}
	if in.Category.Set {
		errs = append(errs, checkOneOf("body.category", "category", in.Category.Value, LinkCategories))
	}
	if err := joinErrors(errs...); err != nil {
		return LinkType{}, err
	}
	var out LinkType
	err := s.store.Update(ctx, func(tx Tx) error {
		lt, err := linkTypeKind.writable(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if in.Key.Set && lt.Key == "blocks" && in.Key.Value != "blocks" {
			return Invalidf("body.key", "readiness and blocking read the blocks link type by its key; rename its titles instead")
		}
		changes := map[string]any{}
		setChange(changes, "key", &lt.Key, in.Key)
		setChange(changes, "title", &lt.Title, in.Title)
		setChange(changes, "inverse_title", &lt.InverseTitle, in.InverseTitle)
		setChange(changes, "category", &lt.Category, in.Category)
		if lt.IsSymmetric && in.Title.Set && !in.InverseTitle.Set {
			lt.InverseTitle = lt.Title
		}
		if lt.IsSymmetric && lt.InverseTitle != lt.Title {
			return Invalidf("body.inverse_title", "a symmetric link reads the same from both ends")
		}
		if err := tx.UpdateLinkType(ctx, &lt); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeConflict, "link type %q exists already", lt.Key)
			}
			return err
		}
		out = lt
		return linkTypeKind.record(ctx, tx, a, lt, "updated", changes)
	})
	return out, err
}

// RemoveLinkType deletes a link type nothing is joined by.
func (s *Service) RemoveLinkType(ctx context.Context, a Actor, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		lt, err := linkTypeKind.writable(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if lt.Key == "blocks" {
			return Errorf(CodeLinkTypeInUse, "readiness and blocking read the blocks link type; it stays")
		}
		n, err := tx.LinkTypeUses(ctx, id)
		if err != nil {
			return err
		}
		if n > 0 {
			return Errorf(CodeLinkTypeInUse, "%d links are of type %q; remove them first", n, lt.Key)
		}
		if err := tx.DeleteLinkType(ctx, id); err != nil {
			return err
		}
		return linkTypeKind.record(ctx, tx, a, lt, "deleted", map[string]any{"key": lt.Key})
	})
}
