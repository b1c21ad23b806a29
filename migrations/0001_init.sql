-- tend's first schema: the instance, accounts, workspaces, vocabularies,
-- projects, credentials and the event log. Times are fixed-width UTC text
-- (2006-01-02T15:04:05.000Z) so that text order is time order.

CREATE TABLE instance (
    id         TEXT PRIMARY KEY,
    singleton  INTEGER NOT NULL DEFAULT 1 UNIQUE CHECK (singleton = 1),
    name       TEXT NOT NULL,
    timezone   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE users (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    id                 TEXT NOT NULL UNIQUE,
    username           TEXT NOT NULL UNIQUE COLLATE NOCASE,
    display_name       TEXT NOT NULL DEFAULT '',
    email              TEXT NOT NULL DEFAULT '',
    timezone           TEXT NOT NULL DEFAULT '',
    is_service_account INTEGER NOT NULL DEFAULT 0 CHECK (is_service_account IN (0, 1)),
    is_superuser       INTEGER NOT NULL DEFAULT 0 CHECK (is_superuser IN (0, 1)),
    answers_to         TEXT REFERENCES users (id),
    active             INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    deactivated_at     TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    version            INTEGER NOT NULL DEFAULT 1,
    CHECK ((is_service_account = 1) = (answers_to IS NOT NULL))
) STRICT;
CREATE INDEX users_answers_to ON users (answers_to) WHERE answers_to IS NOT NULL;

CREATE TABLE workspaces (
    id         TEXT PRIMARY KEY,
    slug       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name       TEXT NOT NULL,
    timezone   TEXT NOT NULL,
    next_ref   INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT,
    version    INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE workspace_members (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    user_id      TEXT NOT NULL REFERENCES users (id),
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    created_at   TEXT NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX workspace_members_user ON workspace_members (user_id, workspace_id);

CREATE TABLE statuses (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    entity_type  TEXT NOT NULL CHECK (entity_type IN ('task', 'project', 'document')),
    key          TEXT NOT NULL,
    label        TEXT NOT NULL,
    category     TEXT NOT NULL CHECK (category IN ('todo', 'in_progress', 'done', 'cancelled')),
    position     INTEGER NOT NULL,
    is_default   INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (workspace_id, entity_type, key)
) STRICT;
-- Exactly one default per entity type is kept by the service; this index
-- makes two impossible.
CREATE UNIQUE INDEX statuses_one_default ON statuses (workspace_id, entity_type) WHERE is_default = 1;

CREATE TABLE item_types (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    entity_type  TEXT NOT NULL CHECK (entity_type IN ('task', 'document')),
    key          TEXT NOT NULL,
    label        TEXT NOT NULL,
    category     TEXT NOT NULL DEFAULT '',
    position     INTEGER NOT NULL,
    is_default   INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    UNIQUE (workspace_id, entity_type, key)
) STRICT;
CREATE UNIQUE INDEX item_types_one_default ON item_types (workspace_id, entity_type) WHERE is_default = 1;

CREATE TABLE link_types (
    id            TEXT PRIMARY KEY,
    workspace_id  TEXT NOT NULL REFERENCES workspaces (id),
    key           TEXT NOT NULL,
    title         TEXT NOT NULL,
    inverse_title TEXT NOT NULL,
    is_symmetric  INTEGER NOT NULL DEFAULT 0 CHECK (is_symmetric IN (0, 1)),
    category      TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    UNIQUE (workspace_id, key)
) STRICT;

CREATE TABLE tags (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name         TEXT NOT NULL COLLATE NOCASE,
    description  TEXT,
    created_at   TEXT NOT NULL,
    UNIQUE (workspace_id, name)
) STRICT;

CREATE TABLE projects (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    key          TEXT NOT NULL,
    title        TEXT NOT NULL,
    description  TEXT,
    parent_id    TEXT REFERENCES projects (id),
    visibility   TEXT NOT NULL DEFAULT 'public' CHECK (visibility IN ('public', 'private')),
    is_inbox     INTEGER NOT NULL DEFAULT 0 CHECK (is_inbox IN (0, 1)),
    owner_id     TEXT REFERENCES users (id),
    status_id    TEXT NOT NULL REFERENCES statuses (id),
    template     TEXT NOT NULL DEFAULT '',
    colour       TEXT,
    archived_at  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    deleted_at   TEXT,
    version      INTEGER NOT NULL DEFAULT 1,
    UNIQUE (workspace_id, key)
) STRICT;
CREATE INDEX projects_parent ON projects (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE tokens (
    seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
    id                  TEXT NOT NULL UNIQUE,
    prefix              TEXT NOT NULL UNIQUE,
    hash                BLOB NOT NULL,
    kind                TEXT NOT NULL,
    title               TEXT NOT NULL,
    user_id             TEXT NOT NULL REFERENCES users (id),
    issued_by           TEXT REFERENCES users (id),
    issued_by_token     TEXT,
    scopes              TEXT NOT NULL,  -- JSON array of scope names
    workspace_id        TEXT REFERENCES workspaces (id),
    project_scope       TEXT,           -- JSON array of project ids; NULL: no narrowing
    project_write_scope TEXT,
    expires_at          TEXT,
    last_used_at        TEXT,
    revoked_at          TEXT,
    created_at          TEXT NOT NULL
) STRICT;
CREATE INDEX tokens_user ON tokens (user_id);
CREATE INDEX tokens_issued_by ON tokens (issued_by) WHERE issued_by IS NOT NULL;

CREATE TABLE events (
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT NOT NULL UNIQUE,
    workspace_id    TEXT REFERENCES workspaces (id),
    entity_type     TEXT NOT NULL,
    entity_id       TEXT NOT NULL,
    action          TEXT NOT NULL,
    actor_user_id   TEXT REFERENCES users (id),
    actor_token_id  TEXT,
    actor_interface TEXT,
    subject_type    TEXT,
    subject_id      TEXT,
    changes         TEXT,               -- JSON object, shape depends on action
    item_ref        INTEGER,
    item_title      TEXT,
    created_at      TEXT NOT NULL
) STRICT;
CREATE INDEX events_entity ON events (entity_id, seq);
CREATE INDEX events_workspace ON events (workspace_id, seq);
