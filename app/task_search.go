package app

import (
	"context"
	"slices"
)

// taskSearch applies a parsed q to a task query: its words go to the
// full-text index, its terms narrow like the listing's own parameters and
// add to them (type=bug with type:feature matches nothing). A term naming
// something that does not exist is refused as the parameter would be.
func (s *Service) taskSearch(ctx context.Context, tx Tx, sc *scope, se Search, q *TaskQuery) error {
	q.Match, q.Exclude = se.Match, se.Exclude
	ws := sc.ws.Workspace.ID
	finished := false
	for _, t := range se.Terms {
		switch t.Key {
		case "type":
			id, err := itemTypeFor(ctx, tx, ws, "task", t.Value, "query.q")
			if err != nil {
				return err
			}
			q.TypeIDs = narrow(q.TypeIDs, id)
		case "status":
			id, err := statusFor(ctx, tx, ws, "task", t.Value, "query.q")
			if err != nil {
				return err
			}
			st, err := tx.StatusByID(ctx, id)
			if err != nil {
				return err
			}
			finished = finished || isFinished(st.Category)
			q.StatusIDs = narrow(q.StatusIDs, id)
		case "category":
			if !has(StatusCategories, t.Value) {
				return Invalidf("query.q", "category: is one of %s", joinWords(StatusCategories))
			}
			finished = finished || isFinished(t.Value)
			q.Categories = narrow(q.Categories, t.Value)
		case "tag":
			if err := tagFilter(ctx, tx, sc, t.Value, q); err != nil {
				return err
			}
		case "project":
			ids, err := readableSubtree(sc, t.Value, "query.q")
			if err != nil {
				return err
			}
			q.ProjectIDs = narrowAll(q.ProjectIDs, ids)
		case "assignee":
			id, err := accountFilter(ctx, tx, sc, t.Value, "query.q")
			if err != nil {
				return err
			}
			if q.AssigneeID != "" && q.AssigneeID != id {
				q.Nothing = true
			}
			q.AssigneeID = id
		}
	}
	if finished && !q.Ready {
		// As with status_category: naming finished work reaches it.
		q.OpenOnly = false
	}
	return nil
}

func isFinished(category string) bool {
	return category == CategoryDone || category == CategoryCancelled
}

// narrow adds a one-value filter to a list filter: nil means no filter yet,
// and an empty list matches nothing.
func narrow(have []string, id string) []string {
	return narrowAll(have, []string{id})
}

func narrowAll(have, ids []string) []string {
	if have == nil {
		return ids
	}
	out := []string{}
	for _, id := range ids {
		if slices.Contains(have, id) {
			out = append(out, id)
		}
	}
	return out
}

// readableSubtree lists the projects at and under a project whose items the
// reader may read. A project the reader cannot see is refused like one that
// does not exist.
func readableSubtree(sc *scope, project, loc string) ([]string, error) {
	n, err := sc.project(project)
	if err != nil {
		return nil, Invalidf(loc, "no such project: %s", project)
	}
	ids := []string{}
	for _, d := range n.subtree() {
		if d.canReadItems() {
			ids = append(ids, d.ID)
		}
	}
	return ids, nil
}
