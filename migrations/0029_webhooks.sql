-- Webhooks (issue 35): endpoints that receive a workspace's events, signed
-- per Standard Webhooks v1. The secret is kept as written, not hashed,
-- because it must sign; it never leaves the server after creation and an
-- export leaves these tables out. previous_secret keeps signing beside a
-- rotated one until previous_until.
CREATE TABLE webhooks (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT NOT NULL UNIQUE,
    workspace_id    TEXT NOT NULL REFERENCES workspaces (id),
    project_id      TEXT REFERENCES projects (id),
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,  -- JSON array of GLOB patterns over actions ("task.*")
    description     TEXT NOT NULL DEFAULT '',
    active          INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_by      TEXT NOT NULL REFERENCES users (id),
    secret          TEXT NOT NULL,
    previous_secret TEXT,
    previous_until  TEXT,
    failing_since   TEXT,           -- first failure since the last success
    disabled_at     TEXT,
    disabled_reason TEXT,
    version         INTEGER NOT NULL DEFAULT 1,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
) STRICT;

CREATE INDEX webhooks_workspace ON webhooks (workspace_id) WHERE active = 1;

-- The outbox: one row per (event, endpoint), queued by the trigger below in
-- the very transaction that records the event, so an event committed is
-- an event that will be delivered, whatever happens to the process after.
-- A worker takes each endpoint's oldest pending row once due_at passes and
-- lease_until (its claim while it sends) has run out.
CREATE TABLE webhook_deliveries (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id  TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_seq   INTEGER NOT NULL,
    state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'skipped')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    due_at      TEXT NOT NULL,
    lease_until TEXT,
    created_at  TEXT NOT NULL
) STRICT;

CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_hook ON webhook_deliveries (webhook_id, seq);

-- The delivery log: each attempt, or each row skipped unsent.
CREATE TABLE webhook_attempts (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    webhook_id   TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    delivery_seq INTEGER NOT NULL,
    event_seq    INTEGER NOT NULL,
    at           TEXT NOT NULL,
    outcome      TEXT NOT NULL CHECK (outcome IN ('delivered', 'retry', 'failed', 'disabled', 'skipped')),
    status       INTEGER,           -- the HTTP status; NULL when no answer came
    duration_ms  INTEGER NOT NULL DEFAULT 0,
    error        TEXT,
    answer       TEXT               -- the answer's first 1 KB
) STRICT;

CREATE INDEX webhook_attempts_by_hook ON webhook_attempts (webhook_id, seq);

-- Costs a write one indexed probe while its workspace has no active endpoint.
CREATE TRIGGER events_webhook_outbox AFTER INSERT ON events
WHEN NEW.workspace_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM webhooks WHERE workspace_id = NEW.workspace_id AND active = 1)
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, event_seq, due_at, created_at)
    SELECT w.id, NEW.seq, NEW.created_at, NEW.created_at FROM webhooks w
    WHERE w.workspace_id = NEW.workspace_id AND w.active = 1
        AND (w.project_id IS NULL OR w.project_id = NEW.project_id)
        AND EXISTS (SELECT 1 FROM json_each(w.events) p WHERE NEW.action GLOB p.value)
    ORDER BY w.seq;
END;
