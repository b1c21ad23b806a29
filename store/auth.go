package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

// credentialSelect reads, in one statement, everything a token check needs:
// the credential, its account, whether the account and everyone it answers
// to are active, and the revision all of that was read at (-1 before the
// instance exists). A single statement runs in its own read snapshot, so
// the check needs no explicit transaction.
var credentialSelect = `SELECT coalesce((SELECT auth_rev FROM instance), -1) AS auth_rev, t.id, t.prefix, t.hash, t.kind, t.title, t.user_id, t.issued_by, t.issued_by_token,
	t.scopes, t.workspace_id, t.project_scope, t.project_write_scope,
	CASE WHEN t.project_scope IS NULL THEN NULL ELSE (SELECT json_group_array(p.key) FROM json_each(t.project_scope) j
		JOIN projects p ON p.id = j.value) END AS project_scope_keys,
	CASE WHEN t.project_write_scope IS NULL THEN NULL ELSE (SELECT json_group_array(p.key) FROM json_each(t.project_write_scope) j
		JOIN projects p ON p.id = j.value) END AS project_write_scope_keys,
	t.expires_at, t.last_used_at, t.revoked_at, t.created_at,
	u.seq AS u_seq, u.username, u.display_name, u.email, u.timezone, u.is_service_account, u.is_superuser, u.answers_to,
	b.username AS answers_to_name,
	u.active, u.deactivated_at, u.reminder_minute, u.default_reminders, u.digest_minute, u.digest_day, u.tailscale_login, u.created_at AS u_created_at, u.updated_at AS u_updated_at, u.version AS u_version,
	` + chainActive("u") + ` AS chain_active
	FROM tokens t JOIN users u ON u.id = t.user_id LEFT JOIN users b ON b.id = u.answers_to WHERE t.prefix = ?`

type credentialRow struct {
	tokenRow
	AuthRev          int64          `db:"auth_rev"`
	USeq             int64          `db:"u_seq"`
	DisplayName      string         `db:"display_name"`
	Email            string         `db:"email"`
	Timezone         string         `db:"timezone"`
	IsServiceAccount bool           `db:"is_service_account"`
	IsSuperuser      bool           `db:"is_superuser"`
	AnswersTo        sql.NullString `db:"answers_to"`
	AnswersToName    sql.NullString `db:"answers_to_name"`
	Active           bool           `db:"active"`
	DeactivatedAt    sql.NullString `db:"deactivated_at"`
	UCreatedAt       string         `db:"u_created_at"`
	UUpdatedAt       string         `db:"u_updated_at"`
	UVersion         int            `db:"u_version"`
	ChainActive      sql.NullBool   `db:"chain_active"`
	ReminderMinute   int            `db:"reminder_minute"`
	DefaultReminders sql.NullString `db:"default_reminders"`
	DigestMinute     sql.NullInt64  `db:"digest_minute"`
	DigestDay        sql.NullString `db:"digest_day"`
	TailscaleLogin   sql.NullString `db:"tailscale_login"`
}

// Credential reads the credential with the given prefix, its account and
// whether its chain of responsible accounts is active. A credential found
// is cached under the instance's auth_rev, which every change to tokens,
// accounts and project keys moves in its own transaction (migration 0006):
// while the revision stands, the check reads that one row, or nothing at all
// while nothing was committed since it was read (authRev). The clock is
// read fresh each time, so expiry is never cached.
func (db *DB) Credential(ctx context.Context, prefix string) (app.CredentialCheck, error) {
	now := db.Now().UTC().Truncate(time.Millisecond)
	if rev, err := db.authRev(ctx); err == nil {
		if c, ok := db.creds.get(prefix, rev); ok {
			c.Now = now
			return c, nil
		}
	}
	var r credentialRow
	if err := db.auth.GetContext(ctx, &r, credentialSelect, prefix); err != nil {
		return app.CredentialCheck{}, mapErr(err)
	}
	u := app.User{ID: r.UserID, Seq: r.USeq, Username: r.Username, DisplayName: r.DisplayName, Email: r.Email, Timezone: r.Timezone,
		IsServiceAccount: r.IsServiceAccount, IsSuperuser: r.IsSuperuser, AnswersToID: r.AnswersTo.String, AnswersTo: r.AnswersToName.String, Active: r.Active,
		DeactivatedAt: parseTimePtr(r.DeactivatedAt), CreatedAt: parseTime(r.UCreatedAt), UpdatedAt: parseTime(r.UUpdatedAt),
		Version: r.UVersion, ReminderMinute: r.ReminderMinute, DigestMinute: digestMinute(r.DigestMinute), DigestDay: r.DigestDay.String,
		TailscaleLogin: r.TailscaleLogin.String}
	var err error
	if u.DefaultReminders, err = app.ParseRemindersText(r.DefaultReminders.String); err != nil {
		return app.CredentialCheck{}, err
	}
	c := app.CredentialCheck{Token: r.token(), User: u, ChainActive: r.ChainActive.Valid && r.ChainActive.Bool, Now: now}
	if r.AuthRev >= 0 {
		db.creds.putShared(prefix, r.AuthRev, c)
	}
	return c, nil
}
