package app

import (
	"context"
	"fmt"
	"strconv"
)

// EventQuery pages through one entity's history.
type EventQuery struct {
	Oldest bool // order=seq; newest first otherwise
	Limit  int
	Cursor string
	Named  bool // resolve the actors' usernames into EventPage.Actors
}

// EventPage is one page of events.
type EventPage struct {
	Items []Event
	Page  Page
	// Actors names the page's actors by user id, when the query asked.
	Actors map[string]string
}

type historyTx interface {
	// EntityEvents lists events of an entity after (or before, newest first) a seq.
	EntityEvents(ctx context.Context, entityID string, afterSeq int64, oldest bool, limit int) ([]Event, error)
}

// TaskEvents is a task's history.
func (s *Service) TaskEvents(ctx context.Context, a Actor, workspace, idOrRef string, q EventQuery) (EventPage, error) {
	return s.history(ctx, q, func(tx Tx) (string, func(*Event) bool, error) {
		sc, loc, err := locatedTask(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return "", nil, err
		}
		return loc.ID, linkEndSeen(ctx, tx, sc), nil
	})
}

// linkEndSeen keeps an event unless it is about a link whose far end the
// reader cannot see: such an end is never reported, not even by its ref.
// What the events it keeps say about unseen projects is blanked.
func linkEndSeen(ctx context.Context, tx Tx, sc *scope) func(*Event) bool {
	return func(e *Event) bool {
		sc.redact(e)
		if e.SubjectType != "link" {
			return true
		}
		other, ok := e.Changes["other"]
		if !ok {
			return true
		}
		ref := fmt.Sprint(other)
		if f, ok := other.(float64); ok { // a ref read back from JSON
			ref = strconv.FormatInt(int64(f), 10)
		}
		// Refs are shared by tasks and documents, so the ref alone names the
		// end; events written before documents existed carry no other_type.
		locate := tx.TaskLocator
		if e.Changes["other_type"] == "document" {
			locate = tx.DocumentLocator
		}
		loc, err := locate(ctx, sc.ws.Workspace.ID, ref)
		return err == nil && sc.byID[loc.ProjectID].canReadItems()
	}
}

// ProjectEvents is a project's history.
func (s *Service) ProjectEvents(ctx context.Context, a Actor, workspace, idOrKey string, q EventQuery) (EventPage, error) {
	return s.history(ctx, q, func(tx Tx) (string, func(*Event) bool, error) {
		sc, n, err := findProject(ctx, tx, a, workspace, idOrKey)
		if err != nil {
			return "", nil, err
		}
		return n.ID, func(e *Event) bool { sc.redact(e); return true }, nil
	})
}

// history pages through an entity's events; keep (when not nil) leaves out
// events the reader may not see, after paging, so cursors stay on raw seqs,
// and blanks what the others may not say.
func (s *Service) history(ctx context.Context, q EventQuery, find func(Tx) (string, func(*Event) bool, error)) (EventPage, error) {
	limit, err := s.pageLimit(q.Limit)
	if err != nil {
		return EventPage{}, err
	}
	var out EventPage
	err = s.store.View(ctx, func(tx Tx) error {
		id, keep, err := find(tx)
		if err != nil {
			return err
		}
		filter := id
		if q.Oldest {
			filter += "/oldest"
		}
		cur, err := decodeCursor(q.Cursor, "events", filter)
		if err != nil {
			return err
		}
		evs, err := tx.EntityEvents(ctx, id, cur.Seq, q.Oldest, limit+1)
		if err != nil {
			return err
		}
		evs, out.Page = cutPage(evs, limit, "events", filter, func(e Event) cursorKey { return cursorKey{Seq: e.Seq} })
		out.Items = []Event{}
		for _, e := range evs {
			if keep == nil || keep(&e) {
				out.Items = append(out.Items, e)
			}
		}
		if q.Named {
			out.Actors, err = actorNames(ctx, tx, out.Items)
		}
		return err
	})
	return out, err
}

// actorNames reads the username of each account that acted in evs, one
// read per account however many events it made. An account that cannot be
// read is left out and said as "someone".
func actorNames(ctx context.Context, tx Tx, evs []Event) (map[string]string, error) {
	out := map[string]string{}
	for _, e := range evs {
		if _, seen := out[e.ActorUserID]; seen || e.ActorUserID == "" {
			continue
		}
		u, err := tx.UserByID(ctx, e.ActorUserID)
		if err != nil && CodeOf(err) != CodeNotFound {
			return nil, err
		}
		out[e.ActorUserID] = u.Username
	}
	return out, nil
}
