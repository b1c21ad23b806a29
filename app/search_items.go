package app

import "context"

// ItemSearchQuery is service_search: words and terms (the q grammar of the
// listings) over tasks and documents alike, open and finished.
type ItemSearchQuery struct {
	Workspace string
	Q         string
	Project   string
	Limit     int
}

// ItemSearch is the best matches of each kind, best first.
type ItemSearch struct {
	Tasks         []Task
	TasksMore     bool
	Documents     []Document
	DocumentsMore bool
}

// SearchItems searches tasks and documents in one read. A term that names
// a vocabulary of only one kind (type:decision, a document type) narrows the
// search to that kind; a term that fits neither is refused as q would be.
// Of the tasks, it ranks at most the newest SearchRankedMatches matches the
// reader may see: BM25 costs every match it scores, and a word most tasks
// hold would otherwise rank them all for one page.
func (s *Service) SearchItems(ctx context.Context, a Actor, in ItemSearchQuery) (ItemSearch, error) {
	if in.Q == "" {
		return ItemSearch{}, Invalidf("arguments.q", "q names words to look for")
	}
	limit, err := s.pageLimit(in.Limit)
	if err != nil {
		return ItemSearch{}, err
	}
	yes := true
	var out ItemSearch
	err = s.view(ctx, false, withScope(ctx, a, in.Workspace, func(tx Tx, sc *scope) (err error) {
		tq, terr := s.taskFilter(ctx, tx, sc, TaskListQuery{Q: in.Q, Project: in.Project, IncludeCompleted: &yes})
		dq, derr := documentFilter(ctx, tx, sc, DocumentListQuery{Q: in.Q, Project: in.Project})
		// A term one kind does not know (a document type, say) is that
		// filter's validation refusal and narrows the search to the other
		// kind; any other failure, a read that went wrong, fails the search.
		for _, ferr := range []error{terr, derr} {
			if c := CodeOf(ferr); ferr != nil && c != CodeValidation && c != CodeInvalid {
				return ferr
			}
		}
		if terr != nil && derr != nil {
			return terr
		}
		if terr == nil {
			// Ranking fewer than a page would hide that more exist.
			tq.Now, tq.Limit = tx.Now(), limit+1
			tq.RankNewest = max(s.limits.SearchRankedMatches, tq.Limit)
			if out.Tasks, out.TasksMore, err = searchTasks(ctx, tx, sc, tq, limit); err != nil {
				return err
			}
		}
		if derr == nil {
			dq.Limit = limit + 1
			if out.Documents, out.DocumentsMore, err = searchDocuments(ctx, tx, sc, dq, limit); err != nil {
				return err
			}
		}
		return nil
	}))
	return out, err
}

// searchTasks reads the best matches, limit of them, and whether there are more.
func searchTasks(ctx context.Context, tx Tx, sc *scope, q TaskQuery, limit int) ([]Task, bool, error) {
	var err error
	if q.Order, err = bestFirst(q.Match); err != nil {
		return nil, false, err
	}
	q.OpenOnly = false
	ts, err := sc.tasks(ctx, tx, q)
	if len(ts) > limit {
		return ts[:limit], true, err
	}
	return ts, false, err
}

// searchDocuments reads the best matches, limit of them, and whether there are more.
func searchDocuments(ctx context.Context, tx Tx, sc *scope, q DocumentQuery, limit int) ([]Document, bool, error) {
	var err error
	if q.Order, err = bestFirst(q.Match); err != nil {
		return nil, false, err
	}
	ds, err := sc.documents(ctx, tx, q)
	if len(ds) > limit {
		return ds[:limit], true, err
	}
	return ds, false, err
}

// bestFirst orders by relevance when there are words to match, by ref otherwise.
func bestFirst(match string) ([]OrderField, error) {
	order, err := searchOrder(nil, "", match, "query.order")
	if order == nil {
		order = []OrderField{{Field: "ref"}}
	}
	return order, err
}
