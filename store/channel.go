package store

import (
	"context"
	"database/sql"
	"time"

	"tend/app"
)

type channelRow struct {
	ID           string         `db:"id"`
	UserID       string         `db:"user_id"`
	Type         string         `db:"type"`
	Name         string         `db:"name"`
	URL          string         `db:"url"`
	Token        sql.NullString `db:"token"`
	P256dh       sql.NullString `db:"p256dh"`
	Auth         sql.NullString `db:"auth"`
	LastOKAt     sql.NullString `db:"last_ok_at"`
	FailingSince sql.NullString `db:"failing_since"`
	LastError    sql.NullString `db:"last_error"`
	CreatedAt    string         `db:"created_at"`
}

func (r channelRow) channel() app.Channel {
	return app.Channel{ID: r.ID, UserID: r.UserID, Type: r.Type, Name: r.Name, URL: r.URL, Token: r.Token.String,
		P256dh: r.P256dh.String, Auth: r.Auth.String, LastOKAt: parseTimePtr(r.LastOKAt),
		FailingSince: parseTimePtr(r.FailingSince), LastError: r.LastError.String, CreatedAt: parseTime(r.CreatedAt)}
}

const channelSelect = `SELECT id, user_id, type, name, url, token, p256dh, auth, last_ok_at, failing_since, last_error, created_at
	FROM channels `

// Channels lists a person's channels in creation order.
func (t *Tx) Channels(ctx context.Context, userID string) ([]app.Channel, error) {
	return selectRows(ctx, t, channelRow.channel, channelSelect+`WHERE user_id = ? ORDER BY seq`, userID)
}

// ChannelByID reads a channel of userID, or of anybody when userID is "".
func (t *Tx) ChannelByID(ctx context.Context, userID, id string) (app.Channel, error) {
	return getRow(ctx, t, channelRow.channel, channelSelect+`WHERE id = ? AND (? = '' OR user_id = ?)`, id, userID, userID)
}

// ChannelByEndpoint reads a person's Web Push channel at endpoint.
func (t *Tx) ChannelByEndpoint(ctx context.Context, userID, endpoint string) (app.Channel, error) {
	return getRow(ctx, t, channelRow.channel, channelSelect+`WHERE user_id = ? AND url = ? AND type = 'webpush'`, userID, endpoint)
}

// InsertChannel stores a new channel.
func (t *Tx) InsertChannel(ctx context.Context, c *app.Channel) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO channels (id, user_id, type, name, url, token, p256dh, auth, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, c.ID, c.UserID, c.Type, c.Name, c.URL, nullStr(c.Token), nullStr(c.P256dh),
		nullStr(c.Auth), fmtTime(c.CreatedAt))
	return mapErr(err)
}

// DeleteChannel removes a channel; its notifications keep their rows and
// lose the channel (ON DELETE SET NULL).
func (t *Tx) DeleteChannel(ctx context.Context, id string) error {
	_, err := t.tx.ExecContext(ctx, `DELETE FROM channels WHERE id = ?`, id)
	return mapErr(err)
}

// SetChannelHealth writes a channel's last success and failure.
func (t *Tx) SetChannelHealth(ctx context.Context, c app.Channel) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE channels SET last_ok_at = ?, failing_since = ?, last_error = ? WHERE id = ?`,
		fmtTimePtr(c.LastOKAt), fmtTimePtr(c.FailingSince), nullStr(c.LastError), c.ID)
	return mapErr(err)
}

// InstanceKey reads one of the instance's keys.
func (t *Tx) InstanceKey(ctx context.Context, name string) (string, error) {
	var v string
	err := t.tx.GetContext(ctx, &v, `SELECT value FROM instance_keys WHERE name = ?`, name)
	return v, mapErr(err)
}

// InsertInstanceKey keeps a key, unless one of the name is kept already.
func (t *Tx) InsertInstanceKey(ctx context.Context, name, value string, now time.Time) error {
	_, err := t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO instance_keys (name, value, created_at) VALUES (?, ?, ?)`,
		name, value, fmtTime(now))
	return mapErr(err)
}
