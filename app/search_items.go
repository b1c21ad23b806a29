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
	err = s.store.View(ctx, func(tx Tx) error {
		sc, err := inWorkspace(ctx, tx, a, in.Workspace)
		if err != nil {
			return err
		}
		tq, terr := s.taskFilter(ctx, tx, sc, TaskListQuery{Q: in.Q, Project: in.Project, IncludeCompleted: &yes})
		dq, derr := documentFilter(ctx, tx, sc, DocumentListQuery{Q: in.Q, Project: in.Project})
		if terr != nil && derr != nil {
			return terr
		}
		if terr == nil {
			if tq.Order, err = searchOrder(nil, "", tq.Match); err != nil {
				return err
			}
			if tq.Order == nil {
				tq.Order = []OrderField{{Field: "ref"}}
			}
			tq.Now, tq.Limit, tq.OpenOnly = tx.Now(), limit+1, false
			if out.Tasks, err = sc.tasks(ctx, tx, tq); err != nil {
				return err
			}
			if out.TasksMore = len(out.Tasks) > limit; out.TasksMore {
				out.Tasks = out.Tasks[:limit]
			}
		}
		if derr == nil {
			if dq.Order, err = searchOrder(nil, "", dq.Match); err != nil {
				return err
			}
			if dq.Order == nil {
				dq.Order = []OrderField{{Field: "ref"}}
			}
			dq.Limit = limit + 1
			if out.Documents, err = sc.documents(ctx, tx, dq); err != nil {
				return err
			}
			if out.DocumentsMore = len(out.Documents) > limit; out.DocumentsMore {
				out.Documents = out.Documents[:limit]
			}
		}
		return nil
	})
	return out, err
}
