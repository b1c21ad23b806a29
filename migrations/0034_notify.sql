-- Notifications (issue 37 §2, §3): where a person's reminders go, and the
-- outbox that sends them.
--
-- A channel is a person's own. ntfy: url is the topic URL and token the
-- access token, kept as written, not hashed, because it must be sent with
-- every message; it never leaves the server after creation and an export
-- leaves this table out, as it does webhooks. webpush: url is the push
-- service's endpoint (itself a capability) with the browser's p256dh and
-- auth keys. The same endpoint twice for one person is one channel:
-- browsers subscribe again and again.
CREATE TABLE channels (
    seq           INTEGER PRIMARY KEY AUTOINCREMENT,
    id            TEXT NOT NULL UNIQUE,
    user_id       TEXT NOT NULL REFERENCES users (id),
    type          TEXT NOT NULL CHECK (type IN ('ntfy', 'webpush')),
    name          TEXT NOT NULL DEFAULT '',
    url           TEXT NOT NULL,
    token         TEXT,
    p256dh        TEXT,
    auth          TEXT,
    last_ok_at    TEXT,
    failing_since TEXT,            -- first failure since the last success
    last_error    TEXT,
    created_at    TEXT NOT NULL
) STRICT;

CREATE INDEX channels_user ON channels (user_id, seq);
CREATE UNIQUE INDEX channels_endpoint ON channels (user_id, url) WHERE type = 'webpush';

-- The outbox: one row per (thing to tell, channel), written in the
-- transaction that decided to tell it (the worker's round that saw a
-- reminder fire come due, a digest hour pass, a test asked for), so what
-- is decided is sent whatever happens to the process after. The worker
-- leases pending rows whose due_at has come and whose lease_until has run
-- out, sends, and records the attempt. id is the stable id every channel
-- carries, so a receiver drops a repeat. A row outlives its channel (the
-- reason it failed stays readable): channel_id goes NULL when the channel
-- is removed. detail holds, for a late notification standing for several
-- reminders, the JSON list of what it stands for.
CREATE TABLE notifications (
    seq            INTEGER PRIMARY KEY AUTOINCREMENT,
    id             TEXT NOT NULL UNIQUE,
    user_id        TEXT NOT NULL REFERENCES users (id),
    channel_id     TEXT REFERENCES channels (id) ON DELETE SET NULL,
    kind           TEXT NOT NULL CHECK (kind IN ('reminder', 'digest', 'test', 'late')),
    fire_seq       INTEGER,
    task_id        TEXT,
    workspace_id   TEXT,
    title          TEXT NOT NULL,
    body           TEXT NOT NULL DEFAULT '',
    path           TEXT NOT NULL DEFAULT '', -- the page a click opens, under the instance's URL
    detail         TEXT,
    late           INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1)),
    state          TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts       INTEGER NOT NULL DEFAULT 0,
    due_at         TEXT NOT NULL,
    lease_until    TEXT,
    sent_at        TEXT,
    last_error     TEXT,
    action_used_at TEXT,
    created_at     TEXT NOT NULL
) STRICT;

CREATE INDEX notifications_pending ON notifications (due_at) WHERE state = 'pending';
CREATE INDEX notifications_user ON notifications (user_id, seq);

-- A person's daily digest: the time of day, in minutes after midnight in
-- their zone (NULL: off, the default), and the day (YYYY-MM-DD in their
-- zone) it was last queued for, so a day gets one.
ALTER TABLE users ADD COLUMN digest_minute INTEGER CHECK (digest_minute BETWEEN 0 AND 1439);
ALTER TABLE users ADD COLUMN digest_day TEXT;

CREATE INDEX users_digest ON users (digest_minute) WHERE digest_minute IS NOT NULL;

-- The instance's own keys, made on first need and kept only here: the key
-- action links are signed with ("action_hmac") and the VAPID key pair Web
-- Push is signed with ("vapid_public", "vapid_private"). Secrets: an
-- export leaves the table out.
CREATE TABLE instance_keys (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
