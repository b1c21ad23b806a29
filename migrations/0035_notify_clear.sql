-- Clearing what a finished task no longer needs said (issue 37 §2): when a
-- task is completed, cancelled or put in the trash, each ntfy reminder of
-- it sent in the last day is cleared from every device that shows it
-- (ntfy 2.16 and later: PUT /<topic>/<sequence_id>/clear). The clear is a
-- notification of its own, kind 'clear', queued in the write that
-- finished the task and sent by the same worker, with the same retries;
-- clears names the notification whose message it clears.
--
-- SQLite cannot widen a CHECK in place, so the table is made again with
-- the new kind and column; nothing refers to it.
CREATE TABLE notifications_new (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    id             TEXT NOT NULL UNIQUE,
    user_id        TEXT NOT NULL REFERENCES users (id),
    channel_id     TEXT REFERENCES channels (id) ON DELETE SET NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('reminder', 'digest', 'test', 'late', 'clear')),
    fire_seq       INTEGER,
    task_id        TEXT,
    workspace_id   TEXT,
    title          TEXT NOT NULL,
    body           TEXT NOT NULL DEFAULT '',
    path           TEXT NOT NULL DEFAULT '',
    detail         TEXT,
    late           INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
    state          TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts       INTEGER NOT NULL DEFAULT 0,
    due_at         TEXT NOT NULL,
    lease_until    TEXT,
    sent_at        TEXT,
    last_error     TEXT,
    action_used_at TEXT,
    created_at     TEXT NOT NULL,
    clears         TEXT
) STRICT;

INSERT INTO notifications_new (seq, id, user_id, channel_id, kind, fire_seq, task_id, workspace_id, title, body, path,
    detail, late, state, attempts, due_at, lease_until, sent_at, last_error, action_used_at, created_at)
SELECT seq, id, user_id, channel_id, kind, fire_seq, task_id, workspace_id, title, body, path,
    detail, late, state, attempts, due_at, lease_until, sent_at, last_error, action_used_at, created_at
FROM notifications;

-- Keep AUTOINCREMENT's high-water mark: a seq is never handed out twice.
DELETE FROM sqlite_sequence WHERE name = 'notifications_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'notifications_new', seq FROM sqlite_sequence WHERE name = 'notifications';

DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;

CREATE INDEX notifications_pending ON notifications (due_at) WHERE state = 'pending';
CREATE INDEX notifications_user ON notifications (user_id, seq);
-- The reminders of a task, found when it is finished.
CREATE INDEX notifications_task ON notifications (task_id) WHERE task_id IS NOT NULL;
