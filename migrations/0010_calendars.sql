-- Calendar feeds (issue 12): an iCalendar URL that calendar apps poll
-- without logging in. Like a credential, only the SHA-256 of the secret is
-- stored; prefix is the public half that addresses the feed. secret_rev
-- moves on every reset, so the feed's ETag moves with it. etag and
-- changed_at remember the last feed served, so Last-Modified is the moment
-- the feed's content last changed and If-Modified-Since is answered
-- without building the feed.
CREATE TABLE calendars (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT NOT NULL UNIQUE,
    prefix           TEXT NOT NULL UNIQUE,
    hash             BLOB NOT NULL,
    secret_rev       INTEGER NOT NULL DEFAULT 1,
    title            TEXT NOT NULL,
    user_id          TEXT NOT NULL REFERENCES users (id),
    created_by_token TEXT,
    workspace_id     TEXT NOT NULL REFERENCES workspaces (id),
    audience         TEXT NOT NULL CHECK (audience IN ('me', 'workspace')),
    project_id       TEXT REFERENCES projects (id),
    item_type_ids    TEXT,           -- JSON array of item type ids; NULL: every type
    expires_at       TEXT,
    last_polled_at   TEXT,
    revoked_at       TEXT,
    etag             TEXT NOT NULL DEFAULT '',
    changed_at       TEXT,
    created_at       TEXT NOT NULL
) STRICT;

CREATE INDEX calendars_user ON calendars (user_id);
