package store

import (
	"context"
	"time"

	"tend/app"
)

// ExternalEntity finds the row an import from source wrote for externalID
// in a workspace; not_found when none did.
func (t *Tx) ExternalEntity(ctx context.Context, workspaceID, source, externalID string) (app.ExternalRef, error) {
	var r struct {
		Type string `db:"entity_type"`
		ID   string `db:"entity_id"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT entity_type, entity_id FROM external_ids
		WHERE workspace_id = ? AND source = ? AND external_id = ?`, workspaceID, source, externalID)
	if err != nil {
		return app.ExternalRef{}, mapErr(err)
	}
	return app.ExternalRef{EntityType: r.Type, EntityID: r.ID}, nil
}

// PutExternalID records (or moves) the row externalID from source names.
func (t *Tx) PutExternalID(ctx context.Context, workspaceID, source, externalID string, ref app.ExternalRef, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO external_ids (workspace_id, source, external_id, entity_type, entity_id, updated_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, source, external_id)
		DO UPDATE SET entity_type = excluded.entity_type, entity_id = excluded.entity_id, updated_at = excluded.updated_at`,
		workspaceID, source, externalID, ref.EntityType, ref.EntityID, fmtTime(at))
	return mapErr(err)
}
