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
		Type     string `db:"entity_type"`
		ID       string `db:"entity_id"`
		Imported string `db:"imported"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT entity_type, entity_id, COALESCE(imported, '') AS imported FROM external_ids
		WHERE workspace_id = ? AND source = ? AND external_id = ?`, workspaceID, source, externalID)
	if err != nil {
		return app.ExternalRef{}, mapErr(err)
	}
	return app.ExternalRef{EntityType: r.Type, EntityID: r.ID, Imported: r.Imported}, nil
}

// PutExternalID records (or moves) the row externalID from source names,
// with the values the import read for it.
func (t *Tx) PutExternalID(ctx context.Context, workspaceID, source, externalID string, ref app.ExternalRef, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO external_ids (workspace_id, source, external_id, entity_type, entity_id, updated_at, imported)
		VALUES (?, ?, ?, ?, ?, ?, NULLIF(?, '')) ON CONFLICT (workspace_id, source, external_id)
		DO UPDATE SET entity_type = excluded.entity_type, entity_id = excluded.entity_id, updated_at = excluded.updated_at,
		imported = excluded.imported`,
		workspaceID, source, externalID, ref.EntityType, ref.EntityID, fmtTime(at), ref.Imported)
	return mapErr(err)
}
