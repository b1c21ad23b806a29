package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"tend/app"
)

type tokenRow struct {
	ID                    string         `db:"id"`
	Prefix                string         `db:"prefix"`
	Hash                  []byte         `db:"hash"`
	Kind                  string         `db:"kind"`
	Title                 string         `db:"title"`
	UserID                string         `db:"user_id"`
	Username              string         `db:"username"`
	IssuedByID            sql.NullString `db:"issued_by"`
	IssuedBy              sql.NullString `db:"issued_by_name"`
	IssuedByToken         sql.NullString `db:"issued_by_token"`
	Scopes                string         `db:"scopes"`
	WorkspaceID           sql.NullString `db:"workspace_id"`
	ProjectScope          sql.NullString `db:"project_scope"`
	ProjectScopeKeys      sql.NullString `db:"project_scope_keys"`
	ProjectWriteScope     sql.NullString `db:"project_write_scope"`
	ProjectWriteScopeKeys sql.NullString `db:"project_write_scope_keys"`
	ExpiresAt             sql.NullString `db:"expires_at"`
	LastUsedAt            sql.NullString `db:"last_used_at"`
	RevokedAt             sql.NullString `db:"revoked_at"`
	CreatedAt             string         `db:"created_at"`
}

// jsonList decodes a stored JSON array; NULL stays nil ("no narrowing").
func jsonList(s sql.NullString) []string {
	if !s.Valid {
		return nil
	}
	out := []string{}
	_ = json.Unmarshal([]byte(s.String), &out)
	return out
}

func encodeList(l []string) any {
	if l == nil {
		return nil
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func (r tokenRow) token() app.Token {
	return app.Token{ID: r.ID, Prefix: r.Prefix, Hash: r.Hash, Kind: r.Kind, Title: r.Title, UserID: r.UserID,
		Username: r.Username, IssuedByID: r.IssuedByID.String, IssuedBy: r.IssuedBy.String, IssuedByTokenID: r.IssuedByToken.String,
		Scopes: jsonList(sql.NullString{String: r.Scopes, Valid: true}), WorkspaceID: r.WorkspaceID.String,
		ProjectScope: jsonList(r.ProjectScope), ProjectScopeKeys: jsonList(r.ProjectScopeKeys),
		ProjectWriteScope: jsonList(r.ProjectWriteScope), ProjectWriteScopeKeys: jsonList(r.ProjectWriteScopeKeys),
		ExpiresAt: parseTimePtr(r.ExpiresAt), LastUsedAt: parseTimePtr(r.LastUsedAt), RevokedAt: parseTimePtr(r.RevokedAt),
		CreatedAt: parseTime(r.CreatedAt)}
}

// tokenSelect reads a credential with its account's and issuer's names and
// the keys of the projects it is narrowed to (only looked up when narrowed,
// which keeps the per-request lookup cheap).
const tokenSelect = `SELECT t.id, t.prefix, t.hash, t.kind, t.title, t.user_id, u.username, t.issued_by,
	i.username AS issued_by_name, t.issued_by_token, t.scopes, t.workspace_id, t.project_scope, t.project_write_scope,
	CASE WHEN t.project_scope IS NULL THEN NULL ELSE (SELECT json_group_array(p.key) FROM json_each(t.project_scope) j
		JOIN projects p ON p.id = j.value) END AS project_scope_keys,
	CASE WHEN t.project_write_scope IS NULL THEN NULL ELSE (SELECT json_group_array(p.key) FROM json_each(t.project_write_scope) j
		JOIN projects p ON p.id = j.value) END AS project_write_scope_keys,
	t.expires_at, t.last_used_at, t.revoked_at, t.created_at
	FROM tokens t JOIN users u ON u.id = t.user_id LEFT JOIN users i ON i.id = t.issued_by`

func (t *Tx) getToken(ctx context.Context, where string, arg any) (app.Token, error) {
	return getRow(ctx, t, tokenRow.token, tokenSelect+" WHERE "+where, arg)
}

// TokenByID reads a credential by id.
func (t *Tx) TokenByID(ctx context.Context, id string) (app.Token, error) {
	return t.getToken(ctx, "t.id = ?", id)
}

// TokenByPrefix reads a credential by its public prefix.
func (t *Tx) TokenByPrefix(ctx context.Context, prefix string) (app.Token, error) {
	return t.getToken(ctx, "t.prefix = ?", prefix)
}

// InsertToken stores a credential; only its hash, never its secret.
func (t *Tx) InsertToken(ctx context.Context, k *app.Token) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO tokens (id, prefix, hash, kind, title, user_id, issued_by, issued_by_token,
		scopes, workspace_id, project_scope, project_write_scope, expires_at, last_used_at, revoked_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.Prefix, k.Hash, k.Kind, k.Title, k.UserID, nullStr(k.IssuedByID), nullStr(k.IssuedByTokenID),
		encodeList(k.Scopes), nullStr(k.WorkspaceID), encodeList(k.ProjectScope), encodeList(k.ProjectWriteScope),
		fmtTimePtr(k.ExpiresAt), fmtTimePtr(k.LastUsedAt), fmtTimePtr(k.RevokedAt), fmtTime(k.CreatedAt))
	return mapErr(err)
}

// Tokens lists credentials newest first.
func (t *Tx) Tokens(ctx context.Context, f app.TokenFilter) ([]app.Token, error) {
	q, args := tokenSelect, []any{}
	switch {
	case f.All:
	case f.UserID != "":
		q += " WHERE t.user_id = ? OR t.issued_by = ?"
		args = append(args, f.UserID, f.UserID)
	default:
		q += " WHERE t.id = ? OR t.issued_by_token = ?"
		args = append(args, f.TokenID, f.TokenID)
	}
	return selectRows(ctx, t, tokenRow.token, q+" ORDER BY t.seq DESC", args...)
}

// RevokeToken sets revoked_at unless it is set already, so the first
// revocation time is kept.
func (t *Tx) RevokeToken(ctx context.Context, id string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, fmtTime(at), id)
	return mapErr(err)
}

// TouchToken records when a credential was last used. The credential
// revision does not move for it (migration 0008), so the cached check stays
// and is given the new time once the write commits: otherwise every request
// after the first minute would find last_used_at stale and write it again.
func (t *Tx) TouchToken(ctx context.Context, id string, at time.Time) error {
	var prefix string
	err := t.tx.QueryRowxContext(ctx, `UPDATE tokens SET last_used_at = ? WHERE id = ? RETURNING prefix`, fmtTime(at), id).Scan(&prefix)
	if err != nil {
		return mapErr(err)
	}
	t.OnCommit(func() {
		t.db.creds.revise(prefix, func(c app.CredentialCheck) app.CredentialCheck {
			c.Token.LastUsedAt = &at
			return c
		})
	})
	return nil
}
