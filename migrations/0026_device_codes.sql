-- Issue 34 §6: tend login signs a terminal in through a browser, in the
-- manner of RFC 8628's device authorization grant. The terminal holds the
-- device code and the person types (or follows a link holding) the user
-- code; only a hash of each is kept, so the table lends nothing to whoever
-- reads it. A row lives ten minutes (expires_at) and is spent once
-- (spent_at), when the credential it yields is issued to the terminal.
CREATE TABLE device_codes (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    device_hash  BLOB NOT NULL UNIQUE,
    user_hash    BLOB NOT NULL UNIQUE,
    client       TEXT NOT NULL,
    interval_s   INTEGER NOT NULL,
    polled_at    TEXT,
    approved_by  TEXT REFERENCES users (id),
    workspace_id TEXT REFERENCES workspaces (id),
    approved_at  TEXT,
    denied_at    TEXT,
    spent_at     TEXT,
    expires_at   TEXT NOT NULL,
    created_at   TEXT NOT NULL
) STRICT;
