package app

import (
	"context"
	"regexp"
)

type statusTx interface {
	StatusByID(ctx context.Context, id string) (Status, error)
	UpdateStatus(ctx context.Context, st *Status) error
	DeleteStatus(ctx context.Context, id string) error
	// StatusUses counts the tasks, projects and documents in a status.
	StatusUses(ctx context.Context, id string) (int, error)
}

// CreateStatus is a new status (POST /v1/statuses).
type CreateStatus struct {
	Category   string
	EntityType string
	IsDefault  bool
	Key        string
	Label      string
	Position   *int
}

// UpdateStatus renames or repositions a status (PATCH
// /v1/statuses/{which}); the category (the meaning) never changes.
type UpdateStatus struct {
	Key       Patch[string]
	Label     Patch[string]
	Position  Patch[int]
	IsDefault Patch[bool]
	Category  Patch[string]
}

var vocabKeyRe = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

func checkVocabKey(loc, key string) error {
	if !vocabKeyRe.MatchString(key) {
		return Invalidf(loc, "a key is 1-32 lower-case letters, digits or '_', starting with a letter")
	}
	return nil
}

func statusMap(ctx context.Context, tx Tx, workspaceID string) (map[string]Status, error) {
	sts, err := tx.Statuses(ctx, workspaceID)
	out := map[string]Status{}
	for _, st := range sts {
		out[st.ID] = st
	}
	return out, err
}

// Statuses lists a workspace's statuses for one entity type (or all) in display order.
func (s *Service) Statuses(ctx context.Context, a Actor, workspace, entity string) ([]Status, error) {
	if entity != "" && !has(EntityTypes, entity) {
		return nil, Invalidf("query.entity_type", "entity_type is task, project or document")
	}
	out := []Status{}
	err := s.store.View(ctx, func(tx Tx) error {
		sts, err := statusKind.listed(ctx, tx, a, workspace)
		for _, st := range sts {
			if entity == "" || st.EntityType == entity {
				out = append(out, st)
			}
		}
		return err
	})
	return out, err
}

// AddStatus adds a status at a position (the end when none is given).
func (s *Service) AddStatus(ctx context.Context, a Actor, workspace string, in CreateStatus) (Status, error) {
	errs := []error{checkVocabKey("body.key", in.Key), s.checkTitle("body.label", in.Label)}
	if !has(EntityTypes, in.EntityType) {
		errs = append(errs, Invalidf("body.entity_type", "entity_type is task, project or document"))
	}
	errs = append(errs, checkOneOf("body.category", "category", in.Category, StatusCategories))
	if err := joinErrors(errs...); err != nil {
		return Status{}, err
	}
	var out Status
	err := s.store.Update(ctx, func(tx Tx) error {
		w, err := vocabWorkspace(ctx, tx, a, workspace)
		if err != nil {
			return err
		}
		st := Status{VocabEntry: VocabEntry{ID: newID(), WorkspaceID: w.ID, EntityType: in.EntityType, Key: in.Key, Label: in.Label,
			Category: in.Category}, CreatedAt: tx.Now(), UpdatedAt: tx.Now()}
		siblings, err := entityStatuses(ctx, tx, w.ID, in.EntityType)
		if err != nil {
			return err
		}
		for _, x := range siblings {
			if x.Key == in.Key {
				return Errorf(CodeConflict, "%s status %q exists already", in.EntityType, in.Key)
			}
		}
		st.Position = len(siblings)
		if err := tx.InsertStatus(ctx, &st); err != nil {
			return err
		}
		if err := placeStatus(ctx, tx, append(siblings, st), st.ID, in.Position, in.IsDefault); err != nil {
			return err
		}
		if out, err = tx.StatusByID(ctx, st.ID); err != nil {
			return err
		}
		return statusKind.record(ctx, tx, a, out, "created", map[string]any{"key": st.Key, "entity_type": st.EntityType, "category": st.Category})
	})
	return out, err
}

func entityStatuses(ctx context.Context, tx Tx, workspaceID, entity string) ([]Status, error) {
	all, err := tx.Statuses(ctx, workspaceID)
	var out []Status
	for _, st := range all {
		if st.EntityType == entity {
			out = append(out, st)
		}
	}
	return out, err
}

// placeStatus moves one status to a position (shifting the rest) and makes
// it the default if asked, keeping exactly one default per entity type. The
// old default is cleared before the new one is set: a unique index allows
// only one at a time.
func placeStatus(ctx context.Context, tx Tx, sts []Status, id string, pos *int, makeDefault bool) error {
	var moving Status
	rest := []Status{}
	defaultID := ""
	for _, st := range sts {
		if st.IsDefault {
			defaultID = st.ID
		}
		if st.ID == id {
			moving = st
		} else {
			rest = append(rest, st)
		}
	}
	if makeDefault {
		defaultID = id
	}
	at := min(moving.Position, len(rest))
	if pos != nil {
		at = min(max(*pos, 0), len(rest))
	}
	order := append(append(append([]Status{}, rest[:at]...), moving), rest[at:]...)
	var last *Status
	for i := range order {
		st := order[i]
		want := st.ID == defaultID
		if st.Position == i && st.IsDefault == want {
			continue
		}
		st.Position, st.IsDefault, st.UpdatedAt = i, want, tx.Now()
		if want {
			last = &st
			continue
		}
		if err := tx.UpdateStatus(ctx, &st); err != nil {
			return err
		}
	}
	if last != nil {
		return tx.UpdateStatus(ctx, last)
	}
	return nil
}

// ChangeStatus renames or repositions a status, or makes it the default.
func (s *Service) ChangeStatus(ctx context.Context, a Actor, id string, in UpdateStatus) (Status, error) {
	var errs []error
	if in.Category.Set {
		errs = append(errs, Invalidf("body.category", "a status keeps its category; add a new status instead"))
	}
	if in.Key.Set {
		errs = append(errs, checkVocabKey("body.key", in.Key.Value))
	}
	if in.Label.Set {
		errs = append(errs, s.checkTitle("body.label", in.Label.Value))
	}
	if in.IsDefault.Set && !in.IsDefault.Value {
		errs = append(errs, Invalidf("body.is_default", "make another status the default instead"))
	}
	if err := joinErrors(errs...); err != nil {
		return Status{}, err
	}
	var out Status
	err := s.store.Update(ctx, func(tx Tx) error {
		st, err := statusKind.writable(ctx, tx, a, id)
		if err != nil {
			return err
		}
		changes := map[string]any{}
		setChange(changes, "key", &st.Key, in.Key)
		setChange(changes, "label", &st.Label, in.Label)
		st.UpdatedAt = tx.Now()
		if err := tx.UpdateStatus(ctx, &st); err != nil {
			if CodeOf(err) == CodeConflict {
				return Errorf(CodeConflict, "%s status %q exists already", st.EntityType, st.Key)
			}
			return err
		}
		if in.Position.Set || in.IsDefault.Set {
			siblings, err := entityStatuses(ctx, tx, st.WorkspaceID, st.EntityType)
			if err != nil {
				return err
			}
			var pos *int
			if in.Position.Set {
				pos = &in.Position.Value
				changes["position"] = in.Position.Value
			}
			if in.IsDefault.Set {
				changes["is_default"] = true
			}
			if err := placeStatus(ctx, tx, siblings, st.ID, pos, in.IsDefault.Set); err != nil {
				return err
			}
		}
		if out, err = tx.StatusByID(ctx, id); err != nil {
			return err
		}
		return statusKind.record(ctx, tx, a, out, "updated", changes)
	})
	return out, err
}

// RemoveStatus deletes a status nothing is in and that is not the default.
func (s *Service) RemoveStatus(ctx context.Context, a Actor, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		st, err := statusKind.writable(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if st.IsDefault {
			return Errorf(CodeStatusIsDefault, "%q is the default %s status; make another the default first", st.Key, st.EntityType)
		}
		n, err := tx.StatusUses(ctx, id)
		if err != nil {
			return err
		}
		if n > 0 {
			return Errorf(CodeStatusInUse, "%d items are in %q (the trash counts); move them first", n, st.Key)
		}
		if err := tx.DeleteStatus(ctx, id); err != nil {
			return err
		}
		siblings, err := entityStatuses(ctx, tx, st.WorkspaceID, st.EntityType)
		if err != nil {
			return err
		}
		for i, x := range siblings {
			if x.Position != i {
				x.Position, x.UpdatedAt = i, tx.Now()
				if err := tx.UpdateStatus(ctx, &x); err != nil {
					return err
				}
			}
		}
		return statusKind.record(ctx, tx, a, st, "deleted", map[string]any{"key": st.Key})
	})
}
