-- Reminders (issue 37 §1). A task's reminders are a JSON array kept on the
-- task like any field, so a write versions them and the event records
-- them: [{"before": "30m"}, {"at": "2026-05-01T07:00:00Z"}]; NULL for none.
ALTER TABLE tasks ADD COLUMN reminders TEXT;

-- A person's own settings for reminders: the time of day an all-day due
-- date reminds at, in minutes after midnight in their timezone (09:00),
-- and the reminders a new dated task they create takes when it names none
-- (a JSON array of {"before": ...}; NULL for none).
ALTER TABLE users ADD COLUMN reminder_minute INTEGER NOT NULL DEFAULT 540 CHECK (reminder_minute BETWEEN 0 AND 1439);
ALTER TABLE users ADD COLUMN default_reminders TEXT;

-- What is to fire: one row per (task, person, reminder, fire time),
-- written in the transaction of the change that makes it, so a change
-- committed is a reminder that will fire whatever happens to the process
-- after. A change to the task deletes its pending rows and writes them
-- anew; a row already sent keeps its key, so the same reminder is not
-- queued twice. reminder is the reminder's canonical text ("before:30m",
-- "at:2026-05-01T07:00:00Z"); due_at is the occurrence's due it was
-- reckoned from. A delivery worker leases the pending rows whose fire_at
-- has come (lease_until is its claim while it sends) and records each
-- attempt; channel is the channel it went out on, once there are channels.
CREATE TABLE reminder_fires (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id     TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id),
    reminder    TEXT NOT NULL,
    fire_at     TEXT NOT NULL,
    due_at      TEXT,
    state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    lease_until TEXT,
    sent_at     TEXT,
    last_error  TEXT,
    created_at  TEXT NOT NULL,
    UNIQUE (task_id, user_id, reminder, fire_at)
) STRICT;

CREATE INDEX reminder_fires_pending ON reminder_fires (fire_at) WHERE state = 'pending';
CREATE INDEX reminder_fires_user ON reminder_fires (user_id, fire_at);
