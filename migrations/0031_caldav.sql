-- CalDAV (issue 36): what a task app wrote that tend keeps for it. A task
-- any other surface made has no row and is served under its id; a row is
-- made when a CalDAV client writes the task, so the client finds its own
-- resource name and UID again. name and uid are unique in a workspace, not
-- a project, so a task keeps both when it is refiled.
CREATE TABLE dav_objects (
    task_id      TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name         TEXT NOT NULL,            -- the resource name, the last segment of its URL
    uid          TEXT NOT NULL,            -- the VTODO's UID as the client wrote it
    parent_uid   TEXT,                     -- RELATED-TO;RELTYPE=PARENT as written, kept while no task has that UID yet
    extra        TEXT NOT NULL DEFAULT '', -- the VTODO's lines tend does not model (X-*, VALARM, ...), unfolded, as written
    rev          INTEGER NOT NULL DEFAULT 1, -- counts the client's writes, which may change extra and no field of the task
    UNIQUE (workspace_id, name),
    UNIQUE (workspace_id, uid)
) STRICT;

CREATE INDEX dav_objects_parent_uid ON dav_objects (workspace_id, parent_uid) WHERE parent_uid IS NOT NULL;

-- A collection's getctag and sync-token are the newest event in its
-- project: read once per collection on every PROPFIND a client polls with.
CREATE INDEX events_project ON events (project_id, seq) WHERE project_id IS NOT NULL;
