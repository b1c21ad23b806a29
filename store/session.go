package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

type loginLinkRow struct {
	ID        string         `db:"id"`
	Prefix    string         `db:"prefix"`
	Hash      []byte         `db:"hash"`
	UserID    string         `db:"user_id"`
	Username  string         `db:"username"`
	IssuedBy  sql.NullString `db:"issued_by"`
	ExpiresAt string         `db:"expires_at"`
	SpentAt   sql.NullString `db:"spent_at"`
	RevokedAt sql.NullString `db:"revoked_at"`
	CreatedAt string         `db:"created_at"`
	Via       string         `db:"via"`
}

// InsertLoginLink stores a sign-in link; only its hash, never its secret.
func (t *Tx) InsertLoginLink(ctx context.Context, l *app.LoginLink) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO login_links (id, prefix, hash, user_id, issued_by, expires_at, created_at, via)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, l.ID, l.Prefix, l.Hash, l.UserID, nullStr(l.IssuedByID), fmtTime(l.ExpiresAt), fmtTime(l.CreatedAt), l.Via)
	return mapErr(err)
}

// LoginLinkByPrefix reads a sign-in link by its public prefix.
func (t *Tx) LoginLinkByPrefix(ctx context.Context, prefix string) (app.LoginLink, error) {
	var r loginLinkRow
	err := t.tx.GetContext(ctx, &r, `SELECT l.id, l.prefix, l.hash, l.user_id, u.username, l.issued_by, l.expires_at, l.spent_at,
		l.revoked_at, l.created_at, l.via FROM login_links l JOIN users u ON u.id = l.user_id WHERE l.prefix = ?`, prefix)
	if err != nil {
		return app.LoginLink{}, mapErr(err)
	}
	return app.LoginLink{ID: r.ID, Prefix: r.Prefix, Hash: r.Hash, UserID: r.UserID, Username: r.Username, IssuedByID: r.IssuedBy.String,
		ExpiresAt: parseTime(r.ExpiresAt), SpentAt: parseTimePtr(r.SpentAt), RevokedAt: parseTimePtr(r.RevokedAt),
		CreatedAt: parseTime(r.CreatedAt), Via: r.Via}, nil
}

// SpendLoginLink marks a link spent and reports whether this call spent it.
func (t *Tx) SpendLoginLink(ctx context.Context, id string, at time.Time) (bool, error) {
	res, err := t.tx.ExecContext(ctx, `UPDATE login_links SET spent_at = ? WHERE id = ? AND spent_at IS NULL AND revoked_at IS NULL`, fmtTime(at), id)
	if err != nil {
		return false, mapErr(err)
	}
	n, err := res.RowsAffected()
	return n == 1, mapErr(err)
}

// InsertSession stores a session; only its hash, never its secret.
func (t *Tx) InsertSession(ctx context.Context, s *app.Session) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO sessions (id, prefix, hash, user_id, link_id, last_seen_at, idle_until, expires_at,
		created_at, via, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.ID, s.Prefix, s.Hash, s.UserID, nullStr(s.LinkID),
		fmtTime(s.LastSeenAt), fmtTime(s.IdleUntil), fmtTime(s.ExpiresAt), fmtTime(s.CreatedAt), s.Via, s.UserAgent)
	return mapErr(err)
}

type sessionRow struct {
	ID         string         `db:"id"`
	Prefix     string         `db:"prefix"`
	Hash       []byte         `db:"hash"`
	UserID     string         `db:"user_id"`
	LinkID     sql.NullString `db:"link_id"`
	LastSeenAt string         `db:"last_seen_at"`
	IdleUntil  string         `db:"idle_until"`
	ExpiresAt  string         `db:"expires_at"`
	RevokedAt  sql.NullString `db:"revoked_at"`
	CreatedAt  string         `db:"created_at"`
	Via        string         `db:"via"`
	UserAgent  string         `db:"user_agent"`
}

func (r sessionRow) session() app.Session {
	return app.Session{ID: r.ID, Prefix: r.Prefix, Hash: r.Hash, UserID: r.UserID, LinkID: r.LinkID.String,
		LastSeenAt: parseTime(r.LastSeenAt), IdleUntil: parseTime(r.IdleUntil), ExpiresAt: parseTime(r.ExpiresAt),
		RevokedAt: parseTimePtr(r.RevokedAt), CreatedAt: parseTime(r.CreatedAt), Via: r.Via, UserAgent: r.UserAgent}
}

const sessionColumns = `s.id, s.prefix, s.hash, s.user_id, s.link_id, s.last_seen_at, s.idle_until, s.expires_at,
	s.revoked_at, s.created_at, s.via, s.user_agent`

// SessionByPrefix reads a session and whether its account and everyone it
// answers to are active. Sessions are read fresh on every request rather
// than cached under auth_rev (migration 0014), so a revocation, expiry or
// deactivation takes effect on the next request without moving a revision.
func (t *Tx) SessionByPrefix(ctx context.Context, prefix string) (app.SessionCheck, error) {
	var r struct {
		sessionRow
		ChainActive sql.NullBool `db:"chain_active"`
		IdleDays    int          `db:"idle_days"`
	}
	err := t.tx.GetContext(ctx, &r, `SELECT `+sessionColumns+`, `+chainActive("u")+` AS chain_active,
		coalesce((SELECT session_idle_days FROM instance), 0) AS idle_days
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.prefix = ?`, prefix)
	if err != nil {
		return app.SessionCheck{}, mapErr(err)
	}
	u, err := t.UserByID(ctx, r.UserID)
	if err != nil {
		return app.SessionCheck{}, err
	}
	return app.SessionCheck{Session: r.session(), User: u, ChainActive: r.ChainActive.Valid && r.ChainActive.Bool,
		IdleLifetime: app.SessionIdleFor(r.IdleDays), Now: t.Now()}, nil
}

// TouchSession records a session's use and slides its idle expiry.
func (t *Tx) TouchSession(ctx context.Context, id string, seen, idleUntil time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE sessions SET last_seen_at = ?, idle_until = ? WHERE id = ?`, fmtTime(seen), fmtTime(idleUntil), id)
	return mapErr(err)
}

// RevokeSession ends a session, keeping the first revocation time.
func (t *Tx) RevokeSession(ctx context.Context, id string, at time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`, fmtTime(at), id)
	return mapErr(err)
}

// RevokeSignIns revokes every live session but keep (none when empty) and
// every unspent link of an account.
func (t *Tx) RevokeSignIns(ctx context.Context, userID, keep string, at time.Time) (app.SignedOut, error) {
	var out app.SignedOut
	res, err := t.tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?
		AND id != ?`, fmtTime(at), userID, fmtTime(at), keep)
	if err != nil {
		return out, mapErr(err)
	}
	n, _ := res.RowsAffected()
	out.Sessions = int(n)
	res, err = t.tx.ExecContext(ctx, `UPDATE login_links SET revoked_at = ? WHERE user_id = ? AND spent_at IS NULL AND revoked_at IS NULL
		AND expires_at > ?`, fmtTime(at), userID, fmtTime(at))
	if err != nil {
		return out, mapErr(err)
	}
	n, _ = res.RowsAffected()
	out.Links = int(n)
	return out, nil
}

// LiveSessions lists an account's sessions neither revoked nor past their
// idle or absolute expiry at now, most recently used first.
func (t *Tx) LiveSessions(ctx context.Context, userID string, now time.Time) ([]app.Session, error) {
	var rows []sessionRow
	at := fmtTime(now)
	err := t.tx.SelectContext(ctx, &rows, `SELECT `+sessionColumns+` FROM sessions s
		WHERE s.user_id = ? AND s.revoked_at IS NULL AND s.idle_until > ? AND s.expires_at > ?
		ORDER BY s.last_seen_at DESC, s.seq DESC`, userID, at, at)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.Session, len(rows))
	for i, r := range rows {
		out[i] = r.session()
	}
	return out, nil
}

// RevokeUserSession ends one live session of an account and reports
// whether there was one to end.
func (t *Tx) RevokeUserSession(ctx context.Context, userID, id string, at time.Time) (bool, error) {
	res, err := t.tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL
		AND idle_until > ? AND expires_at > ?`, fmtTime(at), id, userID, fmtTime(at), fmtTime(at))
	if err != nil {
		return false, mapErr(err)
	}
	n, err := res.RowsAffected()
	return n == 1, mapErr(err)
}
