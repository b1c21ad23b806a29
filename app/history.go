package app

import "context"

// EventQuery pages through one entity's history.
type EventQuery struct {
	Oldest bool // order=seq; newest first otherwise
	Limit  int
	Cursor string
}

// EventPage is one page of events.
type EventPage struct {
	Items []Event
	Page  Page
}

type historyTx interface {
	// EntityEvents lists events of an entity after (or before, newest first) a seq.
	EntityEvents(ctx context.Context, entityID string, afterSeq int64, oldest bool, limit int) ([]Event, error)
}

// TaskEvents is a task's history.
func (s *Service) TaskEvents(ctx context.Context, a Actor, workspace, idOrRef string, q EventQuery) (EventPage, error) {
	return s.history(ctx, q, func(tx Tx) (string, error) {
		sc, err := taskScope(ctx, tx, a, workspace, idOrRef)
		if err != nil {
			return "", err
		}
		loc, err := findTaskIn(ctx, tx, sc, idOrRef)
		return loc.ID, err
	})
}

// ProjectEvents is a project's history.
func (s *Service) ProjectEvents(ctx context.Context, a Actor, workspace, idOrKey string, q EventQuery) (EventPage, error) {
	return s.history(ctx, q, func(tx Tx) (string, error) {
		_, n, err := findProject(ctx, tx, a, workspace, idOrKey)
		if err != nil {
			return "", err
		}
		return n.ID, nil
	})
}

func (s *Service) history(ctx context.Context, q EventQuery, find func(Tx) (string, error)) (EventPage, error) {
	limit, err := s.pageLimit(q.Limit)
	if err != nil {
		return EventPage{}, err
	}
	var out EventPage
	err = s.store.View(ctx, func(tx Tx) error {
		id, err := find(tx)
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
		out.Page.Limit = limit
		if len(evs) > limit {
			evs = evs[:limit]
			out.Page.HasMore = true
			out.Page.NextCursor = encodeCursor("events", filter, cursorKey{Seq: evs[limit-1].Seq})
		}
		out.Items = evs
		return nil
	})
	return out, err
}
