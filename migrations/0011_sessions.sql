-- Browser sign-in. A sign-in link is a single-use secret that, spent, opens
-- a session; a session is what the tend_session cookie names. Like
-- credentials, only the SHA-256 of either secret is stored, under a public
-- prefix the lookup uses. Sessions are checked fresh on every request (one
-- indexed read), not through the auth_rev cache, so these tables move no
-- revision.

CREATE TABLE login_links (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    id         TEXT NOT NULL UNIQUE,
    prefix     TEXT NOT NULL UNIQUE,
    hash       BLOB NOT NULL,
    user_id    TEXT NOT NULL REFERENCES users (id),
    issued_by  TEXT REFERENCES users (id),
    expires_at TEXT NOT NULL,
    spent_at   TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL
) STRICT;

CREATE INDEX login_links_user ON login_links (user_id) WHERE spent_at IS NULL AND revoked_at IS NULL;

CREATE TABLE sessions (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL UNIQUE,
    hash         BLOB NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id),
    link_id      TEXT REFERENCES login_links (id),
    last_seen_at TEXT NOT NULL,
    idle_until   TEXT NOT NULL, -- sliding: moves forward as the session is used
    expires_at   TEXT NOT NULL, -- absolute cap, never moves
    revoked_at   TEXT,
    created_at   TEXT NOT NULL
) STRICT;

CREATE INDEX sessions_user ON sessions (user_id) WHERE revoked_at IS NULL;
