package store

import (
	"cmp"
	"context"
	"database/sql"
	"time"

	"tend/app"
)

type inviteRow struct {
	ID            string         `db:"id"`
	Prefix        string         `db:"prefix"`
	Hash          []byte         `db:"hash"`
	WorkspaceID   string         `db:"workspace_id"`
	WorkspaceSlug string         `db:"workspace_slug"`
	WorkspaceName string         `db:"workspace_name"`
	Role          string         `db:"role"`
	MaxUses       int            `db:"max_uses"`
	Uses          int            `db:"uses"`
	Note          string         `db:"note"`
	ExpiresAt     string         `db:"expires_at"`
	RevokedAt     sql.NullString `db:"revoked_at"`
	CreatedByID   sql.NullString `db:"created_by"`
	CreatedBy     sql.NullString `db:"creator"`
	CreatedAt     string         `db:"created_at"`
}

func (r inviteRow) app() app.Invite {
	return app.Invite{ID: r.ID, Prefix: r.Prefix, Hash: r.Hash, WorkspaceID: r.WorkspaceID, WorkspaceSlug: r.WorkspaceSlug,
		WorkspaceName: r.WorkspaceName, Role: r.Role, MaxUses: r.MaxUses, Uses: r.Uses, Note: r.Note,
		ExpiresAt: parseTime(r.ExpiresAt), RevokedAt: parseTimePtr(r.RevokedAt), CreatedByID: r.CreatedByID.String,
		CreatedBy: r.CreatedBy.String, CreatedAt: parseTime(r.CreatedAt)}
}

const inviteSelect = `SELECT i.id, i.prefix, i.hash, i.workspace_id, w.slug AS workspace_slug, w.name AS workspace_name, i.role,
	i.max_uses, i.uses, i.note, i.expires_at, i.revoked_at, i.created_by, u.username AS creator, i.created_at
	FROM invites i JOIN workspaces w ON w.id = i.workspace_id LEFT JOIN users u ON u.id = i.created_by `

// InsertInvite stores an invite; only its hash, never its secret.
func (t *Tx) InsertInvite(ctx context.Context, i *app.Invite) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO invites (id, prefix, hash, workspace_id, role, max_uses, note, expires_at, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, i.ID, i.Prefix, i.Hash, i.WorkspaceID, i.Role, i.MaxUses, i.Note,
		fmtTime(i.ExpiresAt), nullStr(i.CreatedByID), fmtTime(i.CreatedAt))
	return mapErr(err)
}

// InviteByPrefix reads an invite by its public prefix.
func (t *Tx) InviteByPrefix(ctx context.Context, prefix string) (app.Invite, error) {
	var r inviteRow
	if err := t.tx.GetContext(ctx, &r, inviteSelect+`WHERE i.prefix = ?`, prefix); err != nil {
		return app.Invite{}, mapErr(err)
	}
	return r.app(), nil
}

// Invites lists a workspace's invites newest first, each with who used it.
func (t *Tx) Invites(ctx context.Context, workspaceID string) ([]app.Invite, error) {
	var rows []inviteRow
	if err := t.tx.SelectContext(ctx, &rows, inviteSelect+`WHERE i.workspace_id = ? ORDER BY i.seq DESC`, workspaceID); err != nil {
		return nil, mapErr(err)
	}
	var uses []struct {
		InviteID string `db:"invite_id"`
		UserID   string `db:"user_id"`
		Username string `db:"username"`
		UsedAt   string `db:"used_at"`
	}
	if err := t.tx.SelectContext(ctx, &uses, `SELECT x.invite_id, x.user_id, u.username, x.used_at
		FROM invite_uses x JOIN invites i ON i.id = x.invite_id JOIN users u ON u.id = x.user_id
		WHERE i.workspace_id = ? ORDER BY x.used_at, u.username`, workspaceID); err != nil {
		return nil, mapErr(err)
	}
	by := map[string][]app.InviteUse{}
	for _, u := range uses {
		by[u.InviteID] = append(by[u.InviteID], app.InviteUse{UserID: u.UserID, Username: u.Username, UsedAt: parseTime(u.UsedAt)})
	}
	out := make([]app.Invite, len(rows))
	for n, r := range rows {
		out[n] = r.app()
		out[n].UsedBy = by[r.ID]
	}
	return out, nil
}

// RevokeInvite revokes an invite of a workspace, keeping the first
// revocation time.
func (t *Tx) RevokeInvite(ctx context.Context, workspaceID, id string, at time.Time) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE invites SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND workspace_id = ?`,
		fmtTime(at), id, workspaceID)
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return mapErr(cmp.Or(err, sql.ErrNoRows))
	}
	return nil
}

// UseInvite counts one use of an invite by userID when it has one left:
// the condition is in the UPDATE itself, so two redemptions can never both
// take the last use.
func (t *Tx) UseInvite(ctx context.Context, id, userID string, at time.Time) (bool, error) {
	res, err := t.tx.ExecContext(ctx, `UPDATE invites SET uses = uses + 1
		WHERE id = ? AND uses < max_uses AND revoked_at IS NULL AND expires_at > ?`, id, fmtTime(at))
	if err != nil {
		return false, mapErr(err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, mapErr(err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO invite_uses (invite_id, user_id, used_at) VALUES (?, ?, ?)`, id, userID, fmtTime(at))
	return err == nil, mapErr(err)
}
