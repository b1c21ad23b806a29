package store

import (
	"context"

	"tend/app"
)

// Memberships lists an account's workspaces in joining order. Every scoped
// request reads them, so the rows are scanned by hand rather than through
// sqlx's reflection.
func (t *Tx) Memberships(ctx context.Context, userID string) ([]app.Membership, error) {
	rows, err := t.tx.QueryContext(ctx, `SELECT `+workspaceCols+`, m.role, m.created_at
		FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
		WHERE m.user_id = ? ORDER BY m.created_at, w.created_at, w.id`, userID)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []app.Membership
	for rows.Next() {
		var r workspaceRow
		var role, joined string
		if err := rows.Scan(&r.ID, &r.Slug, &r.Name, &r.Timezone, &r.Settings, &r.CreatedAt, &r.UpdatedAt, &r.DeletedAt, &r.Version,
			&role, &joined); err != nil {
			return nil, mapErr(err)
		}
		out = append(out, app.Membership{Workspace: r.workspace(), Role: role, CreatedAt: parseTime(joined)})
	}
	return out, mapErr(rows.Err())
}

type memberRow struct {
	userRow
	WorkspaceID string `db:"workspace_id"`
	Role        string `db:"role"`
	JoinedAt    string `db:"joined_at"`
}

var memberSelect = `SELECT m.workspace_id, m.role, m.created_at AS joined_at, q.* FROM workspace_members m
	JOIN (` + userSelect + `) q ON q.id = m.user_id`

func (r memberRow) member() app.Member {
	return app.Member{WorkspaceID: r.WorkspaceID, UserID: r.ID, Role: r.Role, CreatedAt: parseTime(r.JoinedAt), User: r.user()}
}

// Members lists a workspace's members in joining order.
func (t *Tx) Members(ctx context.Context, workspaceID string) ([]app.Member, error) {
	var rows []memberRow
	if err := t.tx.SelectContext(ctx, &rows, memberSelect+` WHERE m.workspace_id = ? ORDER BY m.created_at, q.seq`, workspaceID); err != nil {
		return nil, mapErr(err)
	}
	w, err := t.WorkspaceByID(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	out := make([]app.Member, len(rows))
	for i, r := range rows {
		out[i] = r.member()
		out[i].Workspace = w
	}
	return out, nil
}

// MemberOf reads one membership.
func (t *Tx) MemberOf(ctx context.Context, workspaceID, userID string) (app.Member, error) {
	var r memberRow
	if err := t.tx.GetContext(ctx, &r, memberSelect+` WHERE m.workspace_id = ? AND m.user_id = ?`, workspaceID, userID); err != nil {
		return app.Member{}, mapErr(err)
	}
	m := r.member()
	w, err := t.WorkspaceByID(ctx, workspaceID)
	m.Workspace = w
	return m, err
}

// InsertMember adds a membership; an existing one is a conflict.
func (t *Tx) InsertMember(ctx context.Context, m *app.Member) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
		m.WorkspaceID, m.UserID, m.Role, fmtTime(m.CreatedAt))
	return mapErr(err)
}

// UpdateMember stores a membership's role.
func (t *Tx) UpdateMember(ctx context.Context, m *app.Member) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE workspace_members SET role = ? WHERE workspace_id = ? AND user_id = ?`,
		m.Role, m.WorkspaceID, m.UserID)
	return mapErr(err)
}

// DeleteMember removes a membership.
func (t *Tx) DeleteMember(ctx context.Context, workspaceID, userID string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM workspace_members WHERE workspace_id = ? AND user_id = ?`, workspaceID, userID)
	return mapErr(err)
}

// CountRole counts a workspace's members holding role.
func (t *Tx) CountRole(ctx context.Context, workspaceID, role string) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM workspace_members WHERE workspace_id = ? AND role = ?`, workspaceID, role)
	return n, mapErr(err)
}
