package store

import (
	"context"
	"database/sql"
	"strings"

	"tend/app"
)

type passkeyRow struct {
	ID              string         `db:"id"`
	UserID          string         `db:"user_id"`
	CredentialID    []byte         `db:"credential_id"`
	PublicKey       []byte         `db:"public_key"`
	SignCount       int64          `db:"sign_count"`
	BackupEligible  bool           `db:"backup_eligible"`
	BackupState     bool           `db:"backup_state"`
	UserVerified    bool           `db:"user_verified"`
	AttestationType string         `db:"attestation_type"`
	AttestationFmt  string         `db:"attestation_fmt"`
	Transports      string         `db:"transports"`
	AAGUID          []byte         `db:"aaguid"`
	Name            string         `db:"name"`
	CreatedAt       string         `db:"created_at"`
	LastUsedAt      sql.NullString `db:"last_used_at"`
}

func (r passkeyRow) passkey() app.Passkey {
	return app.Passkey{ID: r.ID, UserID: r.UserID, CredentialID: r.CredentialID, PublicKey: r.PublicKey,
		SignCount: uint32(r.SignCount), BackupEligible: r.BackupEligible, BackupState: r.BackupState, UserVerified: r.UserVerified,
		AttestationType: r.AttestationType, AttestationFormat: r.AttestationFmt, Transports: strings.Fields(r.Transports),
		AAGUID: r.AAGUID, Name: r.Name, CreatedAt: parseTime(r.CreatedAt), LastUsedAt: parseTimePtr(r.LastUsedAt)}
}

const passkeySelect = `SELECT id, user_id, credential_id, public_key, sign_count, backup_eligible, backup_state, user_verified,
	attestation_type, attestation_fmt, transports, aaguid, name, created_at, last_used_at FROM passkeys`

// InsertPasskey stores a passkey; its credential id is unique, so one
// registered twice is a conflict.
func (t *Tx) InsertPasskey(ctx context.Context, p *app.Passkey) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO passkeys (id, user_id, credential_id, public_key, sign_count, backup_eligible,
		backup_state, user_verified, attestation_type, attestation_fmt, transports, aaguid, name, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, p.ID, p.UserID, p.CredentialID, p.PublicKey, int64(p.SignCount),
		p.BackupEligible, p.BackupState, p.UserVerified, p.AttestationType, p.AttestationFormat, strings.Join(p.Transports, " "),
		p.AAGUID, p.Name, fmtTime(p.CreatedAt))
	return mapErr(err)
}

// Passkeys lists an account's passkeys, oldest first.
func (t *Tx) Passkeys(ctx context.Context, userID string) ([]app.Passkey, error) {
	return selectRows(ctx, t, passkeyRow.passkey, passkeySelect+` WHERE user_id = ? ORDER BY created_at, id`, userID)
}

// PasskeyByID reads the account's passkey id.
func (t *Tx) PasskeyByID(ctx context.Context, userID, id string) (app.Passkey, error) {
	var r passkeyRow
	if err := t.tx.GetContext(ctx, &r, passkeySelect+` WHERE id = ? AND user_id = ?`, id, userID); err != nil {
		return app.Passkey{}, mapErr(err)
	}
	return r.passkey(), nil
}

// PasskeyByCredential reads the passkey an authenticator names.
func (t *Tx) PasskeyByCredential(ctx context.Context, credentialID []byte) (app.Passkey, error) {
	var r passkeyRow
	if err := t.tx.GetContext(ctx, &r, passkeySelect+` WHERE credential_id = ?`, credentialID); err != nil {
		return app.Passkey{}, mapErr(err)
	}
	return r.passkey(), nil
}

// UpdatePasskey writes a passkey's name, count, flags and last use.
func (t *Tx) UpdatePasskey(ctx context.Context, p *app.Passkey) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE passkeys SET name = ?, sign_count = ?, backup_state = ?, user_verified = ?,
		last_used_at = ? WHERE id = ?`, p.Name, int64(p.SignCount), p.BackupState, p.UserVerified, fmtTimePtr(p.LastUsedAt), p.ID)
	return mapErr(err)
}

// DeletePasskey removes a passkey.
func (t *Tx) DeletePasskey(ctx context.Context, id string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM passkeys WHERE id = ?`, id)
	return mapErr(err)
}

// InsertWebAuthnChallenge stores a ceremony's challenge and drops those
// expired by its start, so abandoned ceremonies do not pile up.
func (t *Tx) InsertWebAuthnChallenge(ctx context.Context, c *app.WebAuthnChallenge) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM webauthn_challenges WHERE expires_at <= ?`, fmtTime(c.CreatedAt)); err != nil {
		return mapErr(err)
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO webauthn_challenges (id_hash, kind, user_id, session, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, c.IDHash, c.Kind, nullStr(c.UserID), string(c.Session), fmtTime(c.ExpiresAt), fmtTime(c.CreatedAt))
	return mapErr(err)
}

// TakeWebAuthnChallenge deletes a challenge and returns what it held: a
// challenge answers once.
func (t *Tx) TakeWebAuthnChallenge(ctx context.Context, idHash []byte) (app.WebAuthnChallenge, error) {
	var r struct {
		Kind      string         `db:"kind"`
		UserID    sql.NullString `db:"user_id"`
		Session   string         `db:"session"`
		ExpiresAt string         `db:"expires_at"`
		CreatedAt string         `db:"created_at"`
	}
	if err := t.tx.GetContext(ctx, &r, `DELETE FROM webauthn_challenges WHERE id_hash = ?
		RETURNING kind, user_id, session, expires_at, created_at`, idHash); err != nil {
		return app.WebAuthnChallenge{}, mapErr(err)
	}
	return app.WebAuthnChallenge{IDHash: idHash, Kind: r.Kind, UserID: r.UserID.String, Session: []byte(r.Session),
		ExpiresAt: parseTime(r.ExpiresAt), CreatedAt: parseTime(r.CreatedAt)}, nil
}

// ActiveAdministratorNames lists the active people who administer the
// instance, oldest first: whom the signed-out page says to ask.
func (t *Tx) ActiveAdministratorNames(ctx context.Context) ([]app.PersonName, error) {
	var rows []struct {
		Username    string `db:"username"`
		DisplayName string `db:"display_name"`
	}
	err := t.tx.SelectContext(ctx, &rows, `SELECT username, display_name FROM users
		WHERE is_superuser = 1 AND active = 1 AND is_service_account = 0 ORDER BY seq`)
	out := make([]app.PersonName, len(rows))
	for i, r := range rows {
		out[i] = app.PersonName{Username: r.Username, DisplayName: r.DisplayName}
	}
	return out, mapErr(err)
}
