package store

import (
	"context"

	"tend/app"
)

// MoveDavRecord gives a task's CalDAV record, as r says it, to r.TaskID,
// which takes the resource over from the task from.
func (t *Tx) MoveDavRecord(ctx context.Context, from string, r app.DavRecord) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM dav_objects WHERE task_id = ?`, from); err != nil {
		return mapErr(err)
	}
	return t.PutDavRecord(ctx, r)
}
