package store

import (
	"context"
	"database/sql"

	"tend/app"
)

type deviceCodeRow struct {
	ID          string         `db:"id"`
	Client      string         `db:"client"`
	Interval    int            `db:"interval_s"`
	PolledAt    sql.NullString `db:"polled_at"`
	ApprovedBy  sql.NullString `db:"approved_by"`
	WorkspaceID sql.NullString `db:"workspace_id"`
	ApprovedAt  sql.NullString `db:"approved_at"`
	DeniedAt    sql.NullString `db:"denied_at"`
	SpentAt     sql.NullString `db:"spent_at"`
	ExpiresAt   string         `db:"expires_at"`
	CreatedAt   string         `db:"created_at"`
}

func (r deviceCodeRow) deviceCode() app.DeviceCode {
	return app.DeviceCode{ID: r.ID, Client: r.Client, Interval: r.Interval, PolledAt: parseTimePtr(r.PolledAt),
		ApprovedBy: r.ApprovedBy.String, WorkspaceID: r.WorkspaceID.String, ApprovedAt: parseTimePtr(r.ApprovedAt),
		DeniedAt: parseTimePtr(r.DeniedAt), SpentAt: parseTimePtr(r.SpentAt), ExpiresAt: parseTime(r.ExpiresAt),
		CreatedAt: parseTime(r.CreatedAt)}
}

const deviceCodeSelect = `SELECT id, client, interval_s, polled_at, approved_by, workspace_id, approved_at, denied_at, spent_at,
	expires_at, created_at FROM device_codes`

// InsertDeviceCode stores a device authorization: the hashes of its two
// codes, never the codes.
func (t *Tx) InsertDeviceCode(ctx context.Context, d *app.DeviceCode, deviceHash, userHash []byte) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO device_codes (id, device_hash, user_hash, client, interval_s, expires_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, d.ID, deviceHash, userHash, d.Client, d.Interval, fmtTime(d.ExpiresAt), fmtTime(d.CreatedAt))
	return mapErr(err)
}

// DeviceCode reads a device authorization by the hash of one of its codes:
// the device code's (user false) or the user code's.
func (t *Tx) DeviceCode(ctx context.Context, hash []byte, user bool) (app.DeviceCode, error) {
	col := "device_hash"
	if user {
		col = "user_hash"
	}
	var r deviceCodeRow
	if err := t.tx.GetContext(ctx, &r, deviceCodeSelect+` WHERE `+col+` = ?`, hash); err != nil {
		return app.DeviceCode{}, mapErr(err)
	}
	return r.deviceCode(), nil
}

// UpdateDeviceCode writes what a poll or a decision changed.
func (t *Tx) UpdateDeviceCode(ctx context.Context, d *app.DeviceCode) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE device_codes SET interval_s = ?, polled_at = ?, approved_by = ?, workspace_id = ?,
		approved_at = ?, denied_at = ?, spent_at = ? WHERE id = ?`, d.Interval, fmtTimePtr(d.PolledAt), nullStr(d.ApprovedBy),
		nullStr(d.WorkspaceID), fmtTimePtr(d.ApprovedAt), fmtTimePtr(d.DeniedAt), fmtTimePtr(d.SpentAt), d.ID)
	return mapErr(err)
}
