package store

import (
	"context"

	"tend/app"
)

// Instance reads the instance; not_found before the first start.
func (t *Tx) Instance(ctx context.Context) (app.Instance, error) {
	var r struct {
		ID        string `db:"id"`
		Name      string `db:"name"`
		Timezone  string `db:"timezone"`
		CreatedAt string `db:"created_at"`
		UpdatedAt string `db:"updated_at"`
		Addr      string `db:"served_addr"`
		PublicURL string `db:"public_url"`
		IdleDays  int    `db:"session_idle_days"`
	}
	if err := t.tx.GetContext(ctx, &r, `SELECT id, name, timezone, created_at, updated_at, served_addr, public_url, session_idle_days
		FROM instance`); err != nil {
		return app.Instance{}, mapErr(err)
	}
	return app.Instance{ID: r.ID, Name: r.Name, Timezone: r.Timezone, CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt),
		Serving: app.Serving{Addr: r.Addr, PublicURL: r.PublicURL}, SessionIdleDays: r.IdleDays}, nil
}

// InsertInstance stores the instance; there is only ever one.
func (t *Tx) InsertInstance(ctx context.Context, in *app.Instance) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO instance (id, name, timezone, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		in.ID, in.Name, in.Timezone, fmtTime(in.CreatedAt), fmtTime(in.UpdatedAt))
	return mapErr(err)
}

// UpdateInstance stores the instance's name, timezone and session idle
// lifetime; its id never changes.
func (t *Tx) UpdateInstance(ctx context.Context, in *app.Instance) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE instance SET name = ?, timezone = ?, session_idle_days = ?, updated_at = ?`,
		in.Name, in.Timezone, in.SessionIdleDays, fmtTime(in.UpdatedAt))
	return mapErr(err)
}

// UpdateServing stores where tend serve listens and the public URL it was given.
func (t *Tx) UpdateServing(ctx context.Context, sv app.Serving) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE instance SET served_addr = ?, public_url = ?`, sv.Addr, sv.PublicURL)
	return mapErr(err)
}
