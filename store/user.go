package store

import (
	"context"
	"database/sql"

	"tend/app"
)

type userRow struct {
	Seq              int64          `db:"seq"`
	ID               string         `db:"id"`
	Username         string         `db:"username"`
	DisplayName      string         `db:"display_name"`
	Email            string         `db:"email"`
	Timezone         string         `db:"timezone"`
	IsServiceAccount bool           `db:"is_service_account"`
	IsSuperuser      bool           `db:"is_superuser"`
	AnswersToID      sql.NullString `db:"answers_to"`
	AnswersTo        sql.NullString `db:"answers_to_name"`
	Responsible      sql.NullString `db:"responsible"`
	Active           bool           `db:"active"`
	DeactivatedAt    sql.NullString `db:"deactivated_at"`
	CreatedAt        string         `db:"created_at"`
	UpdatedAt        string         `db:"updated_at"`
	Version          int            `db:"version"`
	ReminderMinute   int            `db:"reminder_minute"`
	DefaultReminders sql.NullString `db:"default_reminders"`
	DigestMinute     sql.NullInt64  `db:"digest_minute"`
	DigestDay        sql.NullString `db:"digest_day"`
	TailscaleLogin   sql.NullString `db:"tailscale_login"`
}

func (r userRow) user() app.User {
	return app.User{Seq: r.Seq, ID: r.ID, Username: r.Username, DisplayName: r.DisplayName, Email: r.Email,
		Timezone: r.Timezone, IsServiceAccount: r.IsServiceAccount, IsSuperuser: r.IsSuperuser,
		AnswersToID: r.AnswersToID.String, AnswersTo: r.AnswersTo.String, Responsible: r.Responsible.String,
		Active: r.Active, DeactivatedAt: parseTimePtr(r.DeactivatedAt), CreatedAt: parseTime(r.CreatedAt),
		UpdatedAt: parseTime(r.UpdatedAt), Version: r.Version, ReminderMinute: r.ReminderMinute,
		// Written by UpdateUser from a checked list: it reads back.
		DefaultReminders: mustReminders(r.DefaultReminders.String),
		DigestMinute:     digestMinute(r.DigestMinute), DigestDay: r.DigestDay.String, TailscaleLogin: r.TailscaleLogin.String}
}

// digestMinute reads a stored digest time; NULL is off.
func digestMinute(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	m := int(n.Int64)
	return &m
}

// nullMinute writes a digest time; nil is NULL.
func nullMinute(m *int) any {
	if m == nil {
		return nil
	}
	return *m
}

// mustReminders reads a stored list of reminders; one that does not read
// (written by hand) counts as none.
func mustReminders(s string) []app.Reminder {
	rs, err := app.ParseRemindersText(s)
	if err != nil {
		return nil
	}
	return rs
}

// userSelect reads an account with the name it answers to and the person at
// the top of its chain (itself, for a person; none for a chain that loops).
var userSelect = `SELECT u.seq, u.id, u.username, u.display_name, u.email, u.timezone, u.is_service_account,
	u.is_superuser, u.answers_to, b.username AS answers_to_name, u.active, u.deactivated_at, u.created_at,
	u.updated_at, u.version, u.reminder_minute, u.default_reminders, u.digest_minute, u.digest_day,
	u.tailscale_login, (` + usersUp("u.id, u.answers_to, u.active") + `SELECT y.username FROM up JOIN users y ON y.id = up.id WHERE up.next IS NULL) AS responsible
	FROM users u LEFT JOIN users b ON b.id = u.answers_to`

func (t *Tx) getUser(ctx context.Context, where string, arg any) (app.User, error) {
	return getRow(ctx, t, userRow.user, userSelect+" WHERE "+where, arg)
}

// UserByID reads an account by id.
func (t *Tx) UserByID(ctx context.Context, id string) (app.User, error) {
	return t.getUser(ctx, "u.id = ?", id)
}

// UserByName reads an account by username, case-insensitively.
func (t *Tx) UserByName(ctx context.Context, username string) (app.User, error) {
	return t.getUser(ctx, "u.username = ?", username)
}

// InsertUser stores a new account and sets its Seq.
func (t *Tx) InsertUser(ctx context.Context, u *app.User) error {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO users (id, username, display_name, email, timezone,
		is_service_account, is_superuser, answers_to, active, deactivated_at, created_at, updated_at, version, reminder_minute)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Username, u.DisplayName, u.Email, u.Timezone, u.IsServiceAccount, u.IsSuperuser, nullStr(u.AnswersToID),
		u.Active, fmtTimePtr(u.DeactivatedAt), fmtTime(u.CreatedAt), fmtTime(u.UpdatedAt), u.Version, u.ReminderMinute)
	if err != nil {
		return mapErr(err)
	}
	u.Seq, err = res.LastInsertId()
	return err
}

// UpdateUser stores an account's changeable fields and bumps its version.
func (t *Tx) UpdateUser(ctx context.Context, u *app.User) error {
	u.Version++
	_, err := t.tx.ExecContext(ctx, `UPDATE users SET display_name = ?, timezone = ?, is_superuser = ?, answers_to = ?,
		active = ?, deactivated_at = ?, updated_at = ?, version = ?, reminder_minute = ?, default_reminders = ?,
		digest_minute = ?, digest_day = ?, tailscale_login = ? WHERE id = ?`,
		u.DisplayName, u.Timezone, u.IsSuperuser, nullStr(u.AnswersToID), u.Active, fmtTimePtr(u.DeactivatedAt),
		fmtTime(u.UpdatedAt), u.Version, u.ReminderMinute, nullStr(app.RemindersText(u.DefaultReminders)),
		nullMinute(u.DigestMinute), nullStr(u.DigestDay), nullStr(u.TailscaleLogin), u.ID)
	return mapErr(err)
}

// agentsCTE names every account answerable to ?, directly or through other agents.
const agentsCTE = `WITH RECURSIVE agents(id) AS (
	SELECT id FROM users WHERE answers_to = ?
	UNION SELECT x.id FROM users x JOIN agents a ON x.answers_to = a.id) `

func userWhere(f app.UserFilter) (string, string, []any) {
	prefix, where, args := "", "WHERE u.seq > ?", []any{f.AfterSeq}
	if f.AnswersToID != "" {
		prefix = agentsCTE
		where += " AND u.id IN (SELECT id FROM agents)"
		args = append([]any{f.AnswersToID}, args...)
	}
	return prefix, where, args
}

// Users lists accounts in creation order after f.AfterSeq.
func (t *Tx) Users(ctx context.Context, f app.UserFilter) ([]app.User, error) {
	prefix, where, args := userWhere(f)
	q := prefix + userSelect + " " + where + " ORDER BY u.seq"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	return selectRows(ctx, t, userRow.user, q, args...)
}

// CountUsers counts the accounts f selects, ignoring its paging.
func (t *Tx) CountUsers(ctx context.Context, f app.UserFilter) (int, error) {
	prefix, where, args := userWhere(f)
	var n int
	err := t.tx.GetContext(ctx, &n, prefix+"SELECT count(*) FROM users u "+where, args...)
	return n, mapErr(err)
}

// ActiveAdministrators counts active people who administer the instance.
func (t *Tx) ActiveAdministrators(ctx context.Context) (int, error) {
	var n int
	err := t.tx.GetContext(ctx, &n, `SELECT count(*) FROM users WHERE is_superuser = 1 AND active = 1 AND is_service_account = 0`)
	return n, mapErr(err)
}

// AnswersToChain lists the ids above an account, nearest first.
func (t *Tx) AnswersToChain(ctx context.Context, id string) ([]string, error) {
	var hops []hop
	err := t.tx.SelectContext(ctx, &hops, usersUp("id, answers_to, active FROM users WHERE id = ?")+"SELECT id, next FROM up", id)
	return nearestFirst(id, hops), mapErr(err)
}
