package store

import (
	"context"
	"time"
)

// LastSeen is, for each member of the workspace seen at all, the latest
// use of any of their sessions or credentials. A session's last_seen_at
// and a credential's last_used_at are refreshed at most once a minute, so
// this is as fresh as that. Both are stored in one fixed-width UTC layout,
// so the greatest string is the latest time.
func (t *Tx) LastSeen(ctx context.Context, workspaceID string) (map[string]time.Time, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT user_id, MAX(at) FROM (
		SELECT s.user_id, s.last_seen_at AS at FROM sessions s
			JOIN workspace_members m ON m.user_id = s.user_id AND m.workspace_id = ?
		UNION ALL
		SELECT k.user_id, k.last_used_at FROM tokens k
			JOIN workspace_members m ON m.user_id = k.user_id AND m.workspace_id = ?
			WHERE k.last_used_at IS NOT NULL
	) GROUP BY user_id`, workspaceID, workspaceID)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id, at string
		if err := rows.Scan(&id, &at); err != nil {
			return nil, mapErr(err)
		}
		out[id] = parseTime(at)
	}
	return out, mapErr(rows.Err())
}
