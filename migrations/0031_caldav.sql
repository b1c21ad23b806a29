-- CalDAV (issue 36): what a task app wrote that tend keeps for it. A task
-- any other surface made has no row and is served under its id; a row is
-- made when a CalDAV client writes the task, so the client finds its own
-- resource name and UID again. A name and a UID name one task of a
-- collection (RFC 4791's no-uid-conflict), which app checks when a client
-- writes: no constraint over the workspace, which would answer a conflict
-- for a task in a project the writer cannot see. A task keeps both when it
-- is refiled.
CREATE TABLE dav_objects (
    task_id      TEXT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name         TEXT NOT NULL,            -- the resource name, the last segment of its URL
    uid          TEXT NOT NULL,            -- the VTODO's UID as the client wrote it
    parent_uid   TEXT,                     -- RELATED-TO;RELTYPE=PARENT as written, kept while no task has that UID yet
    extra        TEXT NOT NULL DEFAULT '', -- the VTODO's lines tend does not model (X-*, VALARM, ...), unfolded, as written
    rev          INTEGER NOT NULL DEFAULT 1 -- counts the client's writes, which may change extra and no field of the task
) STRICT;

CREATE INDEX dav_objects_name ON dav_objects (workspace_id, name);
CREATE INDEX dav_objects_uid ON dav_objects (workspace_id, uid);

CREATE INDEX dav_objects_parent_uid ON dav_objects (workspace_id, parent_uid) WHERE parent_uid IS NOT NULL;

-- A collection's getctag and sync-token are the newest event in its
-- project: read once per collection on every PROPFIND a client polls with.
CREATE INDEX events_project ON events (project_id, seq) WHERE project_id IS NOT NULL;

-- A task refiled out of a project leaves its collection: the move's event
-- is filed in the project it went to, so each move is also noted here under
-- the project it left (the project of the task's previous event), for that
-- collection's getctag, sync-token and sync-collection delta. Written by
-- the trigger, so an import that writes the events back rebuilds it.
CREATE TABLE dav_departures (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL, -- the move's event
    task_id    TEXT NOT NULL,
    PRIMARY KEY (project_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TRIGGER events_dav_departure AFTER INSERT ON events
WHEN NEW.entity_type = 'task' AND NEW.changes ->> '$.project' IS NOT NULL
BEGIN
    INSERT INTO dav_departures (project_id, seq, task_id)
    SELECT p.project_id, NEW.seq, NEW.entity_id
    FROM (SELECT project_id FROM events WHERE entity_id = NEW.entity_id AND seq < NEW.seq ORDER BY seq DESC LIMIT 1) p
    WHERE p.project_id IS NOT NEW.project_id AND p.project_id IN (SELECT id FROM projects);
END;
