package app

import (
	"context"
	"strings"
	"time"
)

// Comment is a remark on a task, document or project. Comments are flat and
// chronological: a comment has no parent.
type Comment struct {
	Seq         int64
	ID          string
	WorkspaceID string
	EntityType  string // task, document or project
	EntityID    string
	AuthorID    string
	Author      string // resolved on read
	Body        string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	DeletedAt   *time.Time
	Version     int
}

type commentTx interface {
	InsertComment(ctx context.Context, c *Comment) error
	// UpdateComment stores a comment's body, deletion, stamp and version.
	UpdateComment(ctx context.Context, c *Comment) error
	CommentByID(ctx context.Context, id string) (Comment, error)
	// Comments lists an item's live comments after a seq, oldest first.
	Comments(ctx context.Context, entityID string, afterSeq int64, limit int) ([]Comment, error)
	CountComments(ctx context.Context, entityID string) (int, error)
}

// refuseParent refuses an attempt to thread a comment.
func refuseParent(namesParent bool) error {
	if namesParent {
		return Invalidf("body.parent", "comments are flat and chronological; a comment has no parent")
	}
	return nil
}

// CommentCreate is a new comment. The JSON API reads it from
// wire.CommentCreate (POST .../comments).
type CommentCreate struct {
	Body string
	// NamesParent is whether the request named a parent comment (parent or
	// parent_id), which is refused: comments are flat.
	NamesParent bool
}

// CommentUpdate is a change to a comment's body. The JSON API reads it
// from wire.CommentUpdate (PATCH /v1/comments/{comment_id}).
type CommentUpdate struct {
	Body            Patch[string]
	ExpectedVersion *int
	// NamesParent is as CommentCreate's.
	NamesParent bool
}

// CommentQuery pages through an item's comments, oldest first.
type CommentQuery struct {
	Limit        int
	Cursor       string
	IncludeTotal bool
}

// CommentPage is one page of comments.
type CommentPage struct {
	Items []Comment
	Page  Page
}

func (s *Service) checkCommentBody(loc, body string) error {
	if strings.TrimSpace(body) == "" {
		return Invalidf(loc, "must not be empty")
	}
	return s.checkBody(loc, body)
}

// addressed is the item a comments or links route is addressed to, as the
// caller sees it.
type addressed struct {
	sc    *scope
	node  *projectNode // the project the item is filed in, or the project itself
	Type  string
	ID    string
	Ref   *int64
	Title string
	// ParentID is the parent task or document; empty at the top and for projects.
	ParentID string
}

// addressedItem resolves the item a comments or links route names: a task or
// document by id or ref, a project by id or key. An item the caller may not
// see answers like one that does not exist.
func addressedItem(ctx context.Context, tx Tx, a Actor, workspace, entity, idOrRef string) (addressed, error) {
	if entity == AnyItem {
		return eitherItem(ctx, tx, a, workspace, idOrRef)
	}
	var sc *scope
	var err error
	switch entity {
	case "task":
		sc, err = taskScope(ctx, tx, a, workspace, idOrRef)
	case "document":
		sc, err = documentScope(ctx, tx, a, workspace, idOrRef)
	default:
		sc, err = projectWorkspace(ctx, tx, a, workspace, idOrRef)
	}
	if err != nil {
		return addressed{}, err
	}
	return itemIn(ctx, tx, sc, entity, idOrRef)
}

// itemIn finds a live item of the given kind in the scope.
func itemIn(ctx context.Context, tx Tx, sc *scope, entity, idOrRef string) (addressed, error) {
	var loc ItemLocation
	var err error
	switch entity {
	case "task":
		loc, err = findTaskIn(ctx, tx, sc, idOrRef)
	case "document":
		loc, err = findDocumentIn(ctx, tx, sc, idOrRef)
	default:
		n, err := sc.project(idOrRef)
		if err != nil {
			return addressed{}, err
		}
		return addressed{sc: sc, node: n, Type: entity, ID: n.ID, Title: n.Title}, nil
	}
	if err != nil {
		return addressed{}, err
	}
	ref := loc.Ref
	return addressed{sc: sc, node: sc.byID[loc.ProjectID], Type: entity, ID: loc.ID, Ref: &ref, Title: loc.Title, ParentID: loc.ParentID}, nil
}

// requireRead refuses reading comments on a project the caller sees but
// whose work it may not read.
func (c addressed) requireRead() error {
	if !c.node.canReadItems() {
		return Errorf(CodeForbidden, "you may see but not read the work in project %s", c.node.Path)
	}
	return nil
}

// record records a comment event in the addressed item's history.
func (c addressed) record(ctx context.Context, tx Tx, a Actor, cm Comment, action string, changes map[string]any) error {
	return record(ctx, tx, a, Event{WorkspaceID: cm.WorkspaceID, EntityType: "comment", EntityID: cm.ID, Action: action,
		SubjectType: c.Type, SubjectID: c.ID, ItemRef: c.Ref, ItemTitle: c.Title, Changes: changes})
}

// ItemComments lists the live comments on a task, document or project,
// oldest first.
func (s *Service) ItemComments(ctx context.Context, a Actor, workspace, entity, idOrRef string, q CommentQuery) (CommentPage, error) {
	limit, err := s.pageLimit(q.Limit)
	if err != nil {
		return CommentPage{}, err
	}
	var out CommentPage
	err = s.store.View(ctx, func(tx Tx) error {
		it, err := addressedItem(ctx, tx, a, workspace, entity, idOrRef)
		if err != nil {
			return err
		}
		if err := it.requireRead(); err != nil {
			return err
		}
		cur, err := decodeCursor(q.Cursor, "comments", it.ID)
		if err != nil {
			return err
		}
		cs, err := tx.Comments(ctx, it.ID, cur.Seq, limit+1)
		if err != nil {
			return err
		}
		cs, out.Page = cutPage(cs, limit, "comments", it.ID, func(c Comment) cursorKey { return cursorKey{Seq: c.Seq} })
		if out.Items = cs; cs == nil {
			out.Items = []Comment{}
		}
		if q.IncludeTotal {
			n, err := tx.CountComments(ctx, it.ID)
			if err != nil {
				return err
			}
			out.Page.Total = &n
		}
		return nil
	})
	return out, err
}

// AddComment comments on a task, document or project; it needs item:write
// where the item is filed (for a project, in the project itself).
func (s *Service) AddComment(ctx context.Context, a Actor, workspace, entity, idOrRef string, in CommentCreate) (Comment, error) {
	if err := joinErrors(refuseParent(in.NamesParent), s.checkCommentBody("body.body", in.Body)); err != nil {
		return Comment{}, err
	}
	var out Comment
	err := s.store.Update(ctx, func(tx Tx) error {
		it, err := addressedItem(ctx, tx, a, workspace, entity, idOrRef)
		if err != nil {
			return err
		}
		if err := it.node.requireItemWrite(); err != nil {
			return err
		}
		c, err := insertComment(ctx, tx, a, it, in.Body)
		if err != nil {
			return err
		}
		out, err = tx.CommentByID(ctx, c.ID)
		return err
	})
	return out, err
}

// insertComment writes a checked comment on an item the caller may write,
// noting its mentions and recording it in the item's history.
func insertComment(ctx context.Context, tx Tx, a Actor, it addressed, body string) (Comment, error) {
	c := Comment{ID: newID(), WorkspaceID: it.sc.ws.Workspace.ID, EntityType: it.Type, EntityID: it.ID, AuthorID: a.User.ID,
		Body: body, CreatedAt: tx.Now(), UpdatedAt: tx.Now(), Version: 1}
	if err := tx.InsertComment(ctx, &c); err != nil {
		return Comment{}, err
	}
	if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: c.WorkspaceID, Type: "comment", ID: c.ID, Self: it.ID, New: true}, c.Body); err != nil {
		return Comment{}, err
	}
	return c, it.record(ctx, tx, a, c, "comment.created", map[string]any{"size_bytes": len(c.Body)})
}

// commentFor finds a live comment on an item the caller may read. One on
// an item the caller may not see answers like a comment that does not exist.
func commentFor(ctx context.Context, tx Tx, a Actor, id string) (Comment, addressed, error) {
	c, err := tx.CommentByID(ctx, id)
	if err != nil {
		return Comment{}, addressed{}, notFoundAs(err, "comment")
	}
	if c.DeletedAt != nil {
		return Comment{}, addressed{}, NotFound("comment")
	}
	sc, err := inWorkspace(ctx, tx, a, c.WorkspaceID)
	if err != nil {
		return Comment{}, addressed{}, notFoundAs(err, "comment")
	}
	it, err := itemIn(ctx, tx, sc, c.EntityType, c.EntityID)
	if err != nil {
		return Comment{}, addressed{}, notFoundAs(err, "comment")
	}
	if !it.node.canReadItems() {
		return Comment{}, addressed{}, NotFound("comment")
	}
	return c, it, nil
}

// UpdateComment changes a comment's body. Only its author may, and only
// while able to change the item it is on.
func (s *Service) UpdateComment(ctx context.Context, a Actor, id string, in CommentUpdate) (Comment, error) {
	errs := []error{refuseParent(in.NamesParent)}
	if in.Body.Set {
		errs = append(errs, s.checkCommentBody("body.body", in.Body.Value))
	}
	if err := joinErrors(errs...); err != nil {
		return Comment{}, err
	}
	var out Comment
	err := s.store.Update(ctx, func(tx Tx) error {
		c, it, err := commentFor(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if c.AuthorID != a.User.ID {
			return Errorf(CodeNotCommentAuthor, "only its author may change a comment")
		}
		if err := it.node.requireItemWrite(); err != nil {
			return err
		}
		if err := checkVersion(in.ExpectedVersion, c.Version); err != nil {
			return err
		}
		if in.Body.Set {
			err = reviseComment(ctx, tx, a, it, &c, in.Body.Value)
		}
		out = c
		return err
	})
	return out, err
}

// reviseComment replaces a comment's body, if it differs, noting its
// mentions and recording the change.
func reviseComment(ctx context.Context, tx Tx, a Actor, it addressed, c *Comment, body string) error {
	if body == c.Body {
		return nil
	}
	c.Body, c.UpdatedAt, c.Version = body, tx.Now(), c.Version+1
	if err := tx.UpdateComment(ctx, c); err != nil {
		return err
	}
	if err := noteMentions(ctx, tx, mentionSource{WorkspaceID: c.WorkspaceID, Type: "comment", ID: c.ID, Self: it.ID}, c.Body); err != nil {
		return err
	}
	return it.record(ctx, tx, a, *c, "comment.updated", map[string]any{"size_bytes": len(c.Body)})
}

// DeleteComment withdraws a comment: its author may, and so may anybody
// able to change the item it is on. The comment leaves every listing.
func (s *Service) DeleteComment(ctx context.Context, a Actor, id string) error {
	return s.store.Update(ctx, func(tx Tx) error {
		c, it, err := commentFor(ctx, tx, a, id)
		if err != nil {
			return err
		}
		if c.AuthorID != a.User.ID {
			if err := it.node.requireItemWrite(); err != nil {
				return err
			}
		}
		return withdraw(ctx, tx, a, it, &c)
	})
}

// withdraw takes a comment out of every listing and records it.
func withdraw(ctx context.Context, tx Tx, a Actor, it addressed, c *Comment) error {
	now := tx.Now()
	c.DeletedAt, c.UpdatedAt, c.Version = &now, now, c.Version+1
	if err := tx.UpdateComment(ctx, c); err != nil {
		return err
	}
	// A withdrawn comment no longer mentions anything.
	if err := tx.SetMentions(ctx, MentionWrite{WorkspaceID: c.WorkspaceID, SourceType: "comment", SourceID: c.ID, Clear: true}); err != nil {
		return err
	}
	return it.record(ctx, tx, a, *c, "comment.deleted", nil)
}
