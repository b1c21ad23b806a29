package store

import (
	"context"
	"encoding/json"

	"tend/app"
)

// SetMentions replaces the mentions written in one source: the refs are
// resolved to tasks and documents of the workspace and recorded in one
// statement, so a text with mentions costs a create two statements at most.
func (t *Tx) SetMentions(ctx context.Context, m app.MentionWrite) error {
	if m.Clear {
		if _, err := t.tx.ExecContext(ctx, `DELETE FROM mentions WHERE source_id = ?`, m.SourceID); err != nil {
			return mapErr(err)
		}
	}
	if len(m.Refs) == 0 {
		return nil
	}
	refs, err := json.Marshal(m.Refs)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO mentions (target_id, source_id, source_type, workspace_id, created_at)
		SELECT x.id, ?1, ?2, ?3, ?4 FROM (
			SELECT id FROM tasks WHERE workspace_id = ?3 AND ref IN (SELECT value FROM json_each(?5))
			UNION ALL SELECT id FROM documents WHERE workspace_id = ?3 AND ref IN (SELECT value FROM json_each(?5))) x
		WHERE x.id <> ?6`, m.SourceID, m.SourceType, m.WorkspaceID, fmtTime(t.now), string(refs), m.Self)
	return mapErr(err)
}
