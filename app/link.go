package app

import (
	"context"
	"time"

	"github.com/google/uuid"
)

// Link is one stored typed link from a source item to a target item.
type Link struct {
	ID          string
	WorkspaceID string
	Type        LinkType
	SourceType  string
	SourceID    string
	TargetType  string
	TargetID    string
	CreatedBy   string
	CreatedAt   time.Time
}

// LinkView is a link seen from one of its ends: the direction and label
// are oriented for that end, and Other is the far end.
type LinkView struct {
	Link
	Direction string
	Label     string
	Other     Task
}

type linkTx interface {
	InsertLink(ctx context.Context, l *Link) error
	LinkByID(ctx context.Context, id string) (Link, error)
	DeleteLink(ctx context.Context, id string) error
	// LinksOf lists every link touching an item.
	LinksOf(ctx context.Context, itemID string) ([]Link, error)
	// LinksAmong lists the links whose both ends are among ids.
	LinksAmong(ctx context.Context, ids []string) ([]Link, error)
}

// LinkRequest is POST .../links.
type LinkRequest struct {
	Direction  string  `json:"direction"`
	LinkType   string  `json:"link_type"`
	Target     FlexRef `json:"target"`
	TargetType string  `json:"target_type"`
}

func (in *LinkRequest) validate() error {
	if in.Direction == "" {
		in.Direction = "outgoing"
	}
	if in.TargetType == "" {
		in.TargetType = "task"
	}
	var errs []error
	if in.Direction != "outgoing" && in.Direction != "incoming" {
		errs = append(errs, Invalidf("body.direction", "direction is outgoing or incoming"))
	}
	if in.LinkType == "" {
		errs = append(errs, Invalidf("body.link_type", "link_type is required"))
	}
	if in.Target == "" {
		errs = append(errs, Invalidf("body.target", "target is required: a ref or an id"))
	}
	if !has(LinkableTypes, in.TargetType) {
		errs = append(errs, Invalidf("body.target_type", "target_type is one of %s", joinWords(LinkableTypes)))
	}
	return joinErrors(errs...)
}

// orient shows a stored link from the end with id self.
func orient(l Link, self string) (direction, label, other string) {
	if l.SourceID == self {
		return "outgoing", l.Type.Title, l.TargetID
	}
	return "incoming", l.Type.InverseTitle, l.SourceID
}

// TaskLinks lists every link touching a task, labelled from its point of
// view. A link whose far end the caller may not see is left out entirely.
func (s *Service) TaskLinks(ctx context.Context, a Actor, workspace, idOrRef string) ([]LinkView, error) {
	out := []LinkView{}
	err := s.store.View(ctx, func(tx Tx) error {
		sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		loc, err := findTaskIn(ctx, tx, sc, idOrRef)
		if err != nil {
			return err
		}
		out, err = linkViews(ctx, tx, sc, loc.ID)
		return err
	})
	return out, err
}

func linkViews(ctx context.Context, tx Tx, sc *scope, self string) ([]LinkView, error) {
	ls, err := tx.LinksOf(ctx, self)
	if err != nil {
		return nil, err
	}
	var others []string
	for _, l := range ls {
		_, _, o := orient(l, self)
		others = append(others, o)
	}
	ends, err := sc.tasks(ctx, tx, sc.taskQuery(TaskQuery{IDs: others, Now: tx.Now()}))
	if err != nil {
		return nil, err
	}
	byID := map[string]Task{}
	for _, t := range ends {
		byID[t.ID] = t
	}
	out := []LinkView{}
	for _, l := range ls {
		dir, label, o := orient(l, self)
		if end, ok := byID[o]; ok {
			out = append(out, LinkView{Link: l, Direction: dir, Label: label, Other: end})
		}
	}
	return out, nil
}

// AddTaskLink links a task to another item. The caller must be able to
// change this task and see the other end; one the caller cannot see answers
// like one that does not exist.
func (s *Service) AddTaskLink(ctx context.Context, a Actor, workspace, idOrRef string, in LinkRequest) (LinkView, error) {
	if err := in.validate(); err != nil {
		return LinkView{}, err
	}
	var out LinkView
	err := s.store.Update(ctx, func(tx Tx) error {
		sc, t, err := writableTask(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		lt, err := linkTypeByKey(ctx, tx, t.WorkspaceID, in.LinkType, "body.link_type")
		if err != nil {
			return err
		}
		other, err := findTaskIn(ctx, tx, sc, string(in.Target))
		if err != nil || in.TargetType != "task" {
			return Invalidf("body.target", "no such %s: %s", in.TargetType, in.Target)
		}
		if other.ID == t.ID {
			return Invalidf("body.target", "an item cannot be linked to itself")
		}
		l := Link{ID: uuid.NewString(), WorkspaceID: t.WorkspaceID, Type: lt, SourceType: "task", SourceID: t.ID,
			TargetType: "task", TargetID: other.ID, CreatedBy: a.User.ID, CreatedAt: tx.Now()}
		if in.Direction == "incoming" {
			l.SourceID, l.TargetID = other.ID, t.ID
		}
		if err := checkNewLink(ctx, tx, l); err != nil {
			return err
		}
		if err := tx.InsertLink(ctx, &l); err != nil {
			return err
		}
		ref := t.Ref
		if err := record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: "link.created",
			ItemRef: &ref, ItemTitle: t.Title, SubjectType: "link", SubjectID: l.ID,
			Changes: map[string]any{"link_type": lt.Key, "direction": in.Direction, "other": other.Ref}}); err != nil {
			return err
		}
		views, err := linkViews(ctx, tx, sc, t.ID)
		for _, v := range views {
			if v.ID == l.ID {
				out = v
			}
		}
		return err
	})
	return out, err
}

// checkNewLink refuses a link that exists already, in either direction for
// a symmetric type.
func checkNewLink(ctx context.Context, tx Tx, l Link) error {
	ls, err := tx.LinksOf(ctx, l.SourceID)
	if err != nil {
		return err
	}
	for _, x := range ls {
		if x.Type.ID != l.Type.ID {
			continue
		}
		same := x.SourceID == l.SourceID && x.TargetID == l.TargetID
		mirrored := x.SourceID == l.TargetID && x.TargetID == l.SourceID
		if same || (mirrored && l.Type.IsSymmetric) {
			return Errorf(CodeConflict, "these items are already linked with %q", l.Type.Key)
		}
	}
	return nil
}

// RemoveTaskLink deletes a link touching a task.
func (s *Service) RemoveTaskLink(ctx context.Context, a Actor, workspace, idOrRef, linkID string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		sc, t, err := writableTask(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return err
		}
		views, err := linkViews(ctx, tx, sc, t.ID)
		if err != nil {
			return err
		}
		for _, v := range views {
			if v.ID != linkID {
				continue
			}
			if err := tx.DeleteLink(ctx, linkID); err != nil {
				return err
			}
			ref := t.Ref
			return record(ctx, tx, a, Event{WorkspaceID: t.WorkspaceID, EntityType: "task", EntityID: t.ID, Action: "link.deleted",
				ItemRef: &ref, ItemTitle: t.Title, SubjectType: "link", SubjectID: linkID,
				Changes: map[string]any{"link_type": v.Type.Key, "other": v.Other.Ref}})
		}
		return NotFound("link")
	})
}
