package store

import (
	"context"
	"strings"
)

// ItemIDsByRef resolves refs to task and document ids in one workspace.
func (t *Tx) ItemIDsByRef(ctx context.Context, workspaceID string, refs []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(refs) == 0 {
		return out, nil
	}
	marks := strings.Repeat(",?", len(refs))[1:]
	args := []any{workspaceID}
	for _, r := range refs {
		args = append(args, r)
	}
	args = append(args, args...)
	var rows []struct {
		Ref int64  `db:"ref"`
		ID  string `db:"id"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT ref, id FROM tasks WHERE workspace_id = ? AND ref IN (`+marks+`)
		UNION ALL SELECT ref, id FROM documents WHERE workspace_id = ? AND ref IN (`+marks+`)`, args...)
	for _, r := range rows {
		out[r.Ref] = r.ID
	}
	return out, mapErr(err)
}

// SetMentions replaces the mentions written in one source.
func (t *Tx) SetMentions(ctx context.Context, workspaceID, sourceType, sourceID string, targetIDs []string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM mentions WHERE source_id = ?`, sourceID); err != nil {
		return mapErr(err)
	}
	for _, id := range targetIDs {
		if _, err := t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO mentions (target_id, source_id, source_type, workspace_id, created_at)
			VALUES (?, ?, ?, ?, ?)`, id, sourceID, sourceType, workspaceID, fmtTime(t.now)); err != nil {
			return mapErr(err)
		}
	}
	return nil
}
