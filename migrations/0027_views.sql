-- Saved views (issue 34): a person's listing of tasks under a name. params
-- is the listing's filters and order as GET /v1/tasks takes them, a JSON
-- object of its query parameters written by app (never by hand), so a view
-- holds only what the listing accepts. A name is unique among its owner's
-- views in a workspace, and among the workspace's shared views, so a name
-- resolves to one view for everyone who sees it.
CREATE TABLE views (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    user_id      TEXT NOT NULL REFERENCES users (id),
    name         TEXT NOT NULL COLLATE NOCASE,
    params       TEXT NOT NULL,
    shared       INTEGER NOT NULL DEFAULT 0 CHECK (shared IN (0, 1)),
    version      INTEGER NOT NULL DEFAULT 1,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (workspace_id, user_id, name)
) STRICT;

CREATE UNIQUE INDEX views_shared_name ON views (workspace_id, name) WHERE shared = 1;
