package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"tend/app"
)

type webhookRow struct {
	ID             string         `db:"id"`
	WorkspaceID    string         `db:"workspace_id"`
	ProjectID      sql.NullString `db:"project_id"`
	ProjectKey     sql.NullString `db:"project_key"`
	URL            string         `db:"url"`
	Events         string         `db:"events"`
	Description    string         `db:"description"`
	Active         bool           `db:"active"`
	CreatedBy      string         `db:"created_by"`
	Creator        string         `db:"creator"`
	Secret         string         `db:"secret"`
	PreviousSecret sql.NullString `db:"previous_secret"`
	PreviousUntil  sql.NullString `db:"previous_until"`
	FailingSince   sql.NullString `db:"failing_since"`
	DisabledAt     sql.NullString `db:"disabled_at"`
	DisabledReason sql.NullString `db:"disabled_reason"`
	Version        int            `db:"version"`
	CreatedAt      string         `db:"created_at"`
	UpdatedAt      string         `db:"updated_at"`
}

func (r webhookRow) webhook() (app.Webhook, error) {
	w := app.Webhook{ID: r.ID, WorkspaceID: r.WorkspaceID, ProjectID: r.ProjectID.String, ProjectKey: r.ProjectKey.String,
		URL: r.URL, Description: r.Description, Active: r.Active, CreatedBy: r.CreatedBy, Creator: r.Creator,
		Secret: r.Secret, PreviousSecret: r.PreviousSecret.String, PreviousUntil: parseTimePtr(r.PreviousUntil),
		FailingSince: parseTimePtr(r.FailingSince), DisabledAt: parseTimePtr(r.DisabledAt), DisabledReason: r.DisabledReason.String,
		Version: r.Version, CreatedAt: parseTime(r.CreatedAt), UpdatedAt: parseTime(r.UpdatedAt)}
	return w, json.Unmarshal([]byte(r.Events), &w.Events)
}

const webhookSelect = `SELECT w.id, w.workspace_id, w.project_id, p.key AS project_key, w.url, w.events, w.description, w.active,
	w.created_by, u.username AS creator, w.secret, w.previous_secret, w.previous_until, w.failing_since, w.disabled_at,
	w.disabled_reason, w.version, w.created_at, w.updated_at
	FROM webhooks w JOIN users u ON u.id = w.created_by LEFT JOIN projects p ON p.id = w.project_id `

// WebhookByID reads an endpoint of a workspace, its secrets included.
func (t *Tx) WebhookByID(ctx context.Context, workspaceID, id string) (app.Webhook, error) {
	return getRowChecked(ctx, t, webhookRow.webhook, webhookSelect+`WHERE w.workspace_id = ? AND w.id = ?`, workspaceID, id)
}

// Webhooks lists a workspace's endpoints in creation order.
func (t *Tx) Webhooks(ctx context.Context, workspaceID string) ([]app.Webhook, error) {
	return selectRowsChecked(ctx, t, webhookRow.webhook, webhookSelect+`WHERE w.workspace_id = ? ORDER BY w.seq`, workspaceID)
}

// InsertWebhook stores a new endpoint.
func (t *Tx) InsertWebhook(ctx context.Context, w *app.Webhook) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO webhooks (id, workspace_id, project_id, url, events, description, active,
		created_by, secret, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.ID, w.WorkspaceID, nullStr(w.ProjectID), w.URL, jsonText(w.Events), w.Description, w.Active, w.CreatedBy, w.Secret,
		w.Version, fmtTime(w.CreatedAt), fmtTime(w.UpdatedAt))
	return mapErr(err)
}

// UpdateWebhook writes every changeable column of w.
func (t *Tx) UpdateWebhook(ctx context.Context, w *app.Webhook) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE webhooks SET url = ?, events = ?, description = ?, active = ?, secret = ?,
		previous_secret = ?, previous_until = ?, failing_since = ?, disabled_at = ?, disabled_reason = ?, version = ?,
		updated_at = ? WHERE id = ?`,
		w.URL, jsonText(w.Events), w.Description, w.Active, w.Secret, nullStr(w.PreviousSecret), fmtTimePtr(w.PreviousUntil),
		fmtTimePtr(w.FailingSince), fmtTimePtr(w.DisabledAt), nullStr(w.DisabledReason), w.Version, fmtTime(w.UpdatedAt), w.ID)
	return mapErr(err)
}

// DeleteWebhook removes an endpoint, its outbox and its log.
func (t *Tx) DeleteWebhook(ctx context.Context, id string) error {
	for _, q := range []string{`DELETE FROM webhook_attempts WHERE webhook_id = ?`, `DELETE FROM webhook_deliveries WHERE webhook_id = ?`,
		`DELETE FROM webhooks WHERE id = ?`} {
		if _, err := t.tx.ExecContext(ctx, q, id); err != nil {
			return mapErr(err)
		}
	}
	return nil
}

type deliveryRow struct {
	Seq         int64  `db:"seq"`
	WebhookID   string `db:"webhook_id"`
	WorkspaceID string `db:"workspace_id"`
	EventSeq    int64  `db:"event_seq"`
	State       string `db:"state"`
	Attempts    int    `db:"attempts"`
	DueAt       string `db:"due_at"`
	CreatedAt   string `db:"created_at"`
}

func (r deliveryRow) delivery() app.WebhookDelivery {
	return app.WebhookDelivery{Seq: r.Seq, WebhookID: r.WebhookID, WorkspaceID: r.WorkspaceID, EventSeq: r.EventSeq,
		State: r.State, Attempts: r.Attempts, DueAt: parseTime(r.DueAt), CreatedAt: parseTime(r.CreatedAt)}
}

const deliverySelect = `SELECT d.seq, d.webhook_id, w.workspace_id, d.event_seq, d.state, d.attempts, d.due_at, d.created_at
	FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id `

// webhookHeads is each active endpoint's oldest pending delivery: one
// probe of the pending index per endpoint, where grouping the pending rows
// read all of them, 80 ms a lease, under the writer, with 100,000 queued.
const webhookHeads = `WITH heads AS (SELECT (SELECT min(p.seq) FROM webhook_deliveries p
	WHERE p.webhook_id = w.id AND p.state = 'pending') AS seq FROM webhooks w WHERE w.active = 1) `

// WebhookHeads lists the due, unleased heads of active endpoints' queues.
func (t *Tx) WebhookHeads(ctx context.Context, now time.Time, limit int) ([]app.WebhookDelivery, error) {
	var rows []deliveryRow
	at := fmtTime(now)
	err := t.tx.SelectContext(ctx, &rows, webhookHeads+deliverySelect+`JOIN heads h ON h.seq = d.seq
		WHERE d.due_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?) ORDER BY d.seq LIMIT ?`, at, at, limit)
	if err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.WebhookDelivery, len(rows))
	for i, r := range rows {
		out[i] = r.delivery()
	}
	return out, nil
}

// NextWebhookDue is when the soonest head falls due or its lease runs out.
func (t *Tx) NextWebhookDue(ctx context.Context) (*time.Time, error) {
	var at sql.NullString
	err := t.tx.GetContext(ctx, &at, webhookHeads+`SELECT min(max(d.due_at, coalesce(d.lease_until, ''))) FROM webhook_deliveries d
		JOIN heads h ON h.seq = d.seq`)
	return parseTimePtr(at), mapErr(err)
}

// LeaseWebhookDelivery claims a delivery for the worker until until.
func (t *Tx) LeaseWebhookDelivery(ctx context.Context, seq int64, until time.Time) error {
	return t.lease(ctx, "webhook_deliveries", seq, until)
}

// ReleaseWebhookLeases ends every lease of a pending delivery.
func (t *Tx) ReleaseWebhookLeases(ctx context.Context) error {
	return t.releaseLeases(ctx, "webhook_deliveries")
}

// WebhookDeliveryBySeq reads a delivery, of webhookID when it is given.
func (t *Tx) WebhookDeliveryBySeq(ctx context.Context, webhookID string, seq int64) (app.WebhookDelivery, error) {
	var r deliveryRow
	err := t.tx.GetContext(ctx, &r, deliverySelect+`WHERE d.seq = ?1 AND (?2 = '' OR d.webhook_id = ?2)`, seq, webhookID)
	return r.delivery(), mapErr(err)
}

// SetWebhookDelivery writes a delivery's state, attempts and due time and
// ends its lease.
func (t *Tx) SetWebhookDelivery(ctx context.Context, d app.WebhookDelivery) error {
	_, err := t.tx.ExecContext(ctx, `UPDATE webhook_deliveries SET state = ?, attempts = ?, due_at = ?, lease_until = NULL
		WHERE seq = ?`, d.State, d.Attempts, fmtTime(d.DueAt), d.Seq)
	return mapErr(err)
}

// InsertWebhookAttempt adds an entry to an endpoint's log.
func (t *Tx) InsertWebhookAttempt(ctx context.Context, webhookID string, a app.WebhookAttempt) error {
	var status any
	if a.Status != 0 {
		status = a.Status
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO webhook_attempts (webhook_id, delivery_seq, event_seq, at, outcome, status,
		duration_ms, error, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, webhookID, a.DeliverySeq, a.EventSeq, fmtTime(a.At),
		a.Outcome, status, a.Duration.Milliseconds(), nullStr(a.Error), nullStr(a.Answer))
	return mapErr(err)
}

// WebhookAttempts reads an endpoint's log, newest first.
func (t *Tx) WebhookAttempts(ctx context.Context, webhookID string, limit int) ([]app.WebhookAttempt, error) {
	var rows []struct {
		Seq         int64          `db:"seq"`
		DeliverySeq int64          `db:"delivery_seq"`
		EventSeq    int64          `db:"event_seq"`
		At          string         `db:"at"`
		Outcome     string         `db:"outcome"`
		Status      sql.NullInt64  `db:"status"`
		DurationMS  int64          `db:"duration_ms"`
		Error       sql.NullString `db:"error"`
		Answer      sql.NullString `db:"answer"`
	}
	if err := t.tx.SelectContext(ctx, &rows, `SELECT seq, delivery_seq, event_seq, at, outcome, status, duration_ms, error, answer
		FROM webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?`, webhookID, limit); err != nil {
		return nil, mapErr(err)
	}
	out := make([]app.WebhookAttempt, len(rows))
	for i, r := range rows {
		out[i] = app.WebhookAttempt{Seq: r.Seq, DeliverySeq: r.DeliverySeq, EventSeq: r.EventSeq, At: parseTime(r.At),
			Outcome: r.Outcome, Status: int(r.Status.Int64), Duration: time.Duration(r.DurationMS) * time.Millisecond,
			Error: r.Error.String, Answer: r.Answer.String}
	}
	return out, nil
}

// QueueWebhookEvent queues one event to an endpoint again.
func (t *Tx) QueueWebhookEvent(ctx context.Context, webhookID string, eventSeq int64, at time.Time) (app.WebhookDelivery, error) {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_seq, due_at, created_at) VALUES (?, ?, ?, ?)`,
		webhookID, eventSeq, fmtTime(at), fmtTime(at))
	if err != nil {
		return app.WebhookDelivery{}, mapErr(err)
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return app.WebhookDelivery{}, err
	}
	return t.WebhookDeliveryBySeq(ctx, webhookID, seq)
}

// QueueWebhookReplay queues to w its workspace's matching events from since
// on: for a webhook of one project, those of the project and the projects
// under it, as the events trigger queues them (migrations/0030).
func (t *Tx) QueueWebhookReplay(ctx context.Context, w app.Webhook, since int64, at time.Time, limit int) (int, error) {
	res, err := t.tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (webhook_id, event_seq, due_at, created_at)
		SELECT ?1, e.seq, ?2, ?2 FROM events e WHERE e.workspace_id = ?3 AND e.seq >= ?4
			AND (?5 IS NULL OR e.project_id IN (
				WITH RECURSIVE down (id) AS (SELECT ?5 UNION SELECT p.id FROM projects p JOIN down ON p.parent_id = down.id)
				SELECT id FROM down))
			AND EXISTS (SELECT 1 FROM json_each(?6) p WHERE e.action GLOB p.value)
		ORDER BY e.seq LIMIT ?7`, w.ID, fmtTime(at), w.WorkspaceID, since, nullStr(w.ProjectID), jsonText(w.Events), limit)
	if err != nil {
		return 0, mapErr(err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
