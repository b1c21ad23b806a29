package app

import "context"

// How much ShowItem gathers around the item: enough to start work on it
// in one read; the full listings have their own routes.
const (
	showSubtasks      = 50
	showLastComments  = 5
	showVerifications = 5
	showHistory       = 50
)

// ShowQuery asks ShowItem for the history or the tree as well.
type ShowQuery struct {
	History bool // every change, newest first (at most showHistory; the events route pages the rest)
	Named   bool // with History, the actors' usernames in ItemShow.Actors
	Tree    bool // what follows the item through sequencing links, at the default depth
}

// ItemShow is one task or document with what surrounds it, all read in one
// transaction and filtered through what the caller may read.
type ItemShow struct {
	Kind               string // "task" or "document"
	Task               Task
	Document           Document
	Links              []LinkView
	Governing          []Governing
	Subtasks           []Task
	SubtasksMore       bool
	Comments           []Comment // the last few, oldest first
	CommentsTotal      int
	Verifications      []Verification // the last few, newest first
	VerificationsTotal int
	History            []Event
	HistoryMore        bool
	Actors             map[string]string // the history's actors by user id, when asked
	Tree               []Beneath
}

// ShowItem reads the task or document a ref (or id) names, with its links,
// governing documents, subtasks, last comments and verifications, and the
// history and tree when asked. Refs are shared by tasks and documents, so
// the ref alone says which it is. Anything the caller may not see answers
// not_found, exactly like something absent.
func (s *Service) ShowItem(ctx context.Context, a Actor, workspace, idOrRef string, q ShowQuery) (ItemShow, error) {
	var out ItemShow
	err := s.store.View(ctx, withLinked(ctx, a, workspace, AnyItem, idOrRef, func(tx Tx, self linkSelf) (err error) {
		out.Kind = self.Type
		if err := s.showRecord(ctx, tx, self, &out); err != nil {
			return err
		}
		if out.Links, err = linkViews(ctx, tx, self.sc, self.ID); err != nil {
			return err
		}
		if out.Governing, err = governingOf(ctx, tx, self); err != nil {
			return err
		}
		if err := showComments(ctx, tx, self, &out); err != nil {
			return err
		}
		if q.Tree {
			if out.Tree, err = treeOf(ctx, tx, self, s.limits.DefaultTreeDepth); err != nil {
				return err
			}
		}
		if !q.History {
			return nil
		}
		if err := showEvents(ctx, tx, self, &out); err != nil || !q.Named {
			return err
		}
		out.Actors, err = actorNames(ctx, tx, out.History)
		return err
	}))
	return out, err
}

// showEvents reads the item's last changes, newest first, leaving out those
// about links whose far end the caller may not see.
func showEvents(ctx context.Context, tx Tx, self linkSelf, out *ItemShow) error {
	evs, err := tx.EntityEvents(ctx, self.ID, 0, false, showHistory+1)
	if err != nil {
		return err
	}
	if out.HistoryMore = len(evs) > showHistory; out.HistoryMore {
		evs = evs[:showHistory]
	}
	keep := linkEndSeen(ctx, tx, self.sc)
	out.History = []Event{}
	for _, e := range evs {
		if keep(&e) {
			out.History = append(out.History, e)
		}
	}
	return nil
}

// showRecord reads the item itself, and a task's subtasks and verifications.
func (s *Service) showRecord(ctx context.Context, tx Tx, self linkSelf, out *ItemShow) error {
	if self.Type == "document" {
		ds, err := self.sc.documents(ctx, tx, DocumentQuery{IDs: []string{self.ID}})
		if err != nil {
			return err
		}
		if len(ds) == 0 {
			return NotFound("task or document")
		}
		ds[0].resolveRevisions()
		out.Document = ds[0]
		return nil
	}
	t, err := readTask(ctx, tx, self.sc, self.ID)
	if err != nil {
		return err
	}
	out.Task = t
	order, err := parseOrder("ref")
	if err != nil {
		return err
	}
	subs, err := self.sc.tasks(ctx, tx, self.sc.taskQuery(TaskQuery{ParentID: self.ID, Order: order, Now: tx.Now(), Limit: showSubtasks + 1}))
	if err != nil {
		return err
	}
	if out.SubtasksMore = len(subs) > showSubtasks; out.SubtasksMore {
		subs = subs[:showSubtasks]
	}
	out.Subtasks = subs
	vs, err := tx.Verifications(ctx, self.ID)
	if err != nil {
		return err
	}
	out.VerificationsTotal = len(vs)
	out.Verifications = vs[:min(len(vs), showVerifications)]
	return nil
}

// showComments reads the last few comments, oldest first, and the count.
func showComments(ctx context.Context, tx Tx, self linkSelf, out *ItemShow) error {
	n, err := tx.CountComments(ctx, self.ID)
	if err != nil {
		return err
	}
	out.CommentsTotal = n
	cs, err := tx.Comments(ctx, self.ID, 0, maxCommentsSearched)
	if err != nil {
		return err
	}
	out.Comments = cs[max(0, len(cs)-showLastComments):]
	return nil
}
