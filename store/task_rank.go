package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"

	"tend/app"
)

// fewMatches ranks in Go the matches of a search too few to fill q's page,
// and reports false when there may be more (or q is no first page of a
// search). BM25 costs a fixed read before its first row: the number of
// tasks holding each word, which it counts over the word's whole posting
// list (about 7 ms for two words all of 100,000 tasks hold), while the
// few matches themselves are read in well under a millisecond. When every
// match fits in the page there is no next page whose order must agree with
// this one, so app.SearchRelevance, computed from the text, ranks them. The
// returned page is the JSON array of [seq, relevance] pairs.
func (t *Tx) fewMatches(ctx context.Context, q app.TaskQuery) (string, bool, error) {
	if q.Match == "" || q.After != nil || q.Limit <= 0 || q.IDs != nil {
		return "", false, nil
	}
	b := taskFilters(q, false)
	b.add("tasks_fts MATCH :match")
	// The index drives in rowid order and the limit stops the walk: with
	// no rank asked for, FTS5 reads no statistics.
	query := readableCTE + "SELECT t.seq, t.title, coalesce(t.description, '') FROM tasks_fts CROSS JOIN tasks t ON t.seq = tasks_fts.rowid" +
		" JOIN statuses st ON st.id = t.status_id WHERE " + b.conds() + " LIMIT " + strconv.Itoa(q.Limit)
	rows, err := t.tx.QueryContext(ctx, query, b.args...)
	if err != nil {
		return "", false, mapErr(err)
	}
	defer rows.Close()
	var page [][2]any
	for rows.Next() {
		var seq int64
		var title, description string
		if err := rows.Scan(&seq, &title, &description); err != nil {
			return "", false, mapErr(err)
		}
		page = append(page, [2]any{seq, app.SearchRelevance(q.Ranks, title, description)})
	}
	if err := rows.Err(); err != nil {
		return "", false, mapErr(err)
	}
	if len(page) >= q.Limit {
		return "", false, nil
	}
	out, err := json.Marshal(page)
	return string(out), err == nil, err
}

// rankedPageSQL reads the page fewMatches ranked, in q's order.
func rankedPageSQL(q app.TaskQuery, page string) (string, []any) {
	args := []any{sql.Named("readable", q.Readable), sql.Named("now", fmtTime(q.Now)), sql.Named("page", page)}
	return readableCTE + ", page AS (SELECT value->>0 AS seq, value->>1 AS relevance FROM json_each(:page)) SELECT q0.*, " +
		priorityExpr + " AS priority_score FROM (" + taskInnerFor(fromPage, q) + ") q0 ORDER BY " + orderBy(q.Order, taskSortExprs, "seq"), args
}
