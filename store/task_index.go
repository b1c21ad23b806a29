package store

import "context"

// TasksUnindexed reports whether any task's text waits to be indexed in
// tasks_fts (migration 0023): a read that matches tasks_fts would not find it.
func (t *Tx) TasksUnindexed(ctx context.Context) (bool, error) {
	var pending bool
	err := t.tx.GetContext(ctx, &pending, `SELECT EXISTS (SELECT 1 FROM tasks_unindexed)`)
	return pending, mapErr(err)
}

// IndexTasks indexes the text of the oldest limit tasks waiting in
// tasks_unindexed and takes them off it, and answers how many it took.
// The rows are bounded by seq first, so the insert and the delete cover the
// same ones.
func (t *Tx) IndexTasks(ctx context.Context, limit int) (int, error) {
	var r struct {
		Last  int64 `db:"last"`
		Count int   `db:"n"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT coalesce(max(seq), 0) AS last, count(*) AS n
		FROM (SELECT seq FROM tasks_unindexed ORDER BY seq LIMIT ?)`, limit)
	if err != nil || r.Count == 0 {
		return 0, mapErr(err)
	}
	_, err = t.tx.ExecContext(ctx, indexTasksSQL, r.Last)
	if err != nil {
		return 0, mapErr(err)
	}
	_, err = t.tx.ExecContext(ctx, `DELETE FROM tasks_unindexed WHERE seq <= ?`, r.Last)
	return r.Count, mapErr(err)
}

// indexTasksSQL indexes the tasks queued up to a seq. The queue drives:
// joined plainly, the planner walked every task below that seq.
const indexTasksSQL = `INSERT INTO tasks_fts (rowid, title, description)
	SELECT t.seq, t.title, t.description FROM tasks_unindexed p CROSS JOIN tasks t ON t.seq = p.seq WHERE p.seq <= ?`
