package app

import (
	"context"
	"slices"
)

// ItemFilter is what the task and document listings filter on alike; q's
// terms narrow it the way the listings' own parameters do.
type ItemFilter struct {
	ProjectIDs []string
	StatusIDs  []string
	Categories []string
	TypeIDs    []string
	TagIDs     []string     // every one of these tags
	Nothing    bool         // a filter named something nothing can match (a tag that does not exist, two assignees)
	Match      string       // FTS5 expression the text must match
	Words      []string     // Match's parts, each an FTS5 expression: Match is their AND
	Ranks      []SearchWord // Words as SearchRelevance reads them
	Exclude    string       // FTS5 expression it must not match
}

// requireTag adds a tag every item must carry; a tag that does not exist
// matches nothing.
func (f *ItemFilter) requireTag(ctx context.Context, tx Tx, sc *scope, name string) error {
	id, none, err := tagFilter(ctx, tx, sc, name)
	if none {
		f.Nothing = true
	} else if id != "" {
		f.TagIDs = append(f.TagIDs, id)
	}
	return err
}

// applySearch applies a parsed q to a filter of entity's items (task or
// document): its words go to the full-text index, its terms narrow like the
// listing's own parameters and add to them (type=bug with type:feature
// matches nothing). A term naming something that does not exist is refused
// as the parameter would be, naming q where loc says it was written. It
// reports whether a term named finished work and which accounts assignee:
// terms named (tasks only).
func applySearch(ctx context.Context, tx Tx, sc *scope, entity string, se Search, f *ItemFilter, loc string) (finished bool, assignees []string, err error) {
	f.Match, f.Words, f.Ranks, f.Exclude = se.Match, se.Words, se.Ranks, se.Exclude
	ws := sc.ws.Workspace.ID
	for _, t := range se.Terms {
		switch t.Key {
		case "type":
			it, err := itemTypeFor(ctx, tx, ws, entity, t.Value, loc)
			if err != nil {
				return false, nil, err
			}
			f.TypeIDs = narrow(f.TypeIDs, it.ID)
		case "status":
			st, err := statusFor(ctx, tx, ws, entity, t.Value, loc)
			if err != nil {
				return false, nil, err
			}
			finished = finished || isFinished(st.Category)
			f.StatusIDs = narrow(f.StatusIDs, st.ID)
		case "category":
			if !has(StatusCategories, t.Value) {
				return false, nil, Invalidf(loc, "category: is one of %s", joinWords(StatusCategories))
			}
			finished = finished || isFinished(t.Value)
			f.Categories = narrow(f.Categories, t.Value)
		case "tag":
			if err := f.requireTag(ctx, tx, sc, t.Value); err != nil {
				return false, nil, err
			}
		case "project":
			ids, err := readableSubtree(sc, t.Value, loc)
			if err != nil {
				return false, nil, err
			}
			f.ProjectIDs = narrowAll(f.ProjectIDs, ids)
		case "assignee":
			if entity != "task" {
				return false, nil, Invalidf(loc, "a %s has no assignee", entity)
			}
			assignees = append(assignees, t.Value)
		}
	}
	return finished, assignees, nil
}

// taskSearch applies a parsed q, written at loc, to a task query.
func (s *Service) taskSearch(ctx context.Context, tx Tx, sc *scope, se Search, q *TaskQuery, loc string) error {
	if se.Match != "" || se.Exclude != "" {
		// The text of tasks just created may wait to be indexed
		// (task_index.go): the search has the worker index it and reads again.
		if err := checkTasksIndexed(ctx, tx); err != nil {
			return err
		}
	}
	finished, assignees, err := applySearch(ctx, tx, sc, "task", se, &q.ItemFilter, loc)
	if err != nil {
		return err
	}
	for _, name := range assignees {
		id, err := accountFilter(ctx, tx, sc, name, loc)
		if err != nil {
			return err
		}
		if q.AssigneeID != "" && q.AssigneeID != id {
			q.Nothing = true
		}
		q.AssigneeID = id
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
		return nil, bodyRef(err, loc, "no such project: "+project)
	}
	return readableUnder(n), nil
}
