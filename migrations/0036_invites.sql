-- Invites (issue 38 §1): a link a workspace's owner or admin hands to
-- people who have no account yet. Opening it lets a person pick a
-- username and join the workspace with the invite's role, signed in.
--
-- Like a sign-in link, only the SHA-256 of the secret is stored, under the
-- public prefix the lookup uses; an export leaves both tables out, as it
-- does login_links. uses counts redemptions: it is raised by a conditional
-- UPDATE (uses < max_uses) in the redeeming transaction, so the count
-- holds however many redeem at once.
CREATE TABLE invites (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    prefix       TEXT NOT NULL UNIQUE,
    hash         BLOB NOT NULL,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    role         TEXT NOT NULL,
    max_uses     INTEGER NOT NULL CHECK (max_uses BETWEEN 1 AND 100),
    uses         INTEGER NOT NULL DEFAULT 0 CHECK (uses BETWEEN 0 AND max_uses),
    note         TEXT NOT NULL DEFAULT '',
    expires_at   TEXT NOT NULL,
    revoked_at   TEXT,
    created_by   TEXT REFERENCES users (id),
    created_at   TEXT NOT NULL
) STRICT;

CREATE INDEX invites_workspace ON invites (workspace_id, seq);

-- Who joined by an invite, and when: one row per redemption.
CREATE TABLE invite_uses (
    invite_id TEXT NOT NULL REFERENCES invites (id),
    user_id   TEXT NOT NULL REFERENCES users (id),
    used_at   TEXT NOT NULL,
    PRIMARY KEY (invite_id, user_id)
) STRICT, WITHOUT ROWID;
