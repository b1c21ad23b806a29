package store

import (
	"context"
	"time"
)

// The outboxes (notifications, webhook_deliveries) lease their pending
// rows to a worker the same way: lease_until set while the worker holds
// one, NULL when nobody does. table is one of those names, never input.

// lease claims the row seq of the outbox table for the worker until until.
func (t *Tx) lease(ctx context.Context, table string, seq int64, until time.Time) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE `+table+` SET lease_until = ? WHERE seq = ?`, fmtTime(until), seq)
	return mapErr(err)
}

// releaseLeases ends every lease of a pending row of the outbox table.
func (t *Tx) releaseLeases(ctx context.Context, table string) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE `+table+` SET lease_until = NULL WHERE state = 'pending' AND lease_until IS NOT NULL`)
	return mapErr(err)
}
