-- Projects grow members, roles and settings; tasks, their tags, typed links
-- between items, and verification records arrive.

ALTER TABLE projects ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE projects ADD COLUMN hidden_statuses TEXT NOT NULL DEFAULT '[]';
ALTER TABLE projects ADD COLUMN created_by TEXT REFERENCES users (id);
ALTER TABLE workspaces ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';

-- Sight of a private project; the owner's row is written when it is created.
CREATE TABLE project_members (
    project_id TEXT NOT NULL REFERENCES projects (id),
    user_id    TEXT NOT NULL REFERENCES users (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX project_members_user ON project_members (user_id);

-- A role of the project's own replaces the workspace role inside it (and
-- below it, unless a nearer project sets another).
CREATE TABLE project_roles (
    project_id TEXT NOT NULL REFERENCES projects (id),
    user_id    TEXT NOT NULL REFERENCES users (id),
    role       TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX project_roles_user ON project_roles (user_id);

CREATE TABLE tasks (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    id                 TEXT NOT NULL UNIQUE,
    workspace_id       TEXT NOT NULL REFERENCES workspaces (id),
    ref                INTEGER NOT NULL,
    project_id         TEXT NOT NULL REFERENCES projects (id),
    parent_id          TEXT REFERENCES tasks (id),
    title              TEXT NOT NULL,
    description        TEXT,
    type_id            TEXT NOT NULL REFERENCES item_types (id),
    status_id          TEXT NOT NULL REFERENCES statuses (id),
    importance         INTEGER CHECK (importance BETWEEN 1 AND 5),
    urgency            INTEGER CHECK (urgency BETWEEN 1 AND 5),
    due_at             TEXT,
    due_is_all_day     INTEGER NOT NULL DEFAULT 0,
    starts_at          TEXT,
    starts_is_all_day  INTEGER NOT NULL DEFAULT 0,
    snoozed_until      TEXT,
    snoozed_is_all_day INTEGER NOT NULL DEFAULT 0,
    estimate_minutes   INTEGER,
    assignee_id        TEXT REFERENCES users (id),
    claimed_by         TEXT REFERENCES users (id),
    claimed_at         TEXT,
    claim_expires_at   TEXT,
    repeat_rule        TEXT,
    timezone           TEXT,
    completed_at       TEXT,
    created_by         TEXT REFERENCES users (id),
    updated_by         TEXT REFERENCES users (id),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    content_updated_at TEXT NOT NULL,
    deleted_at         TEXT,
    version            INTEGER NOT NULL DEFAULT 1,
    UNIQUE (workspace_id, ref)
) STRICT;
CREATE INDEX tasks_project ON tasks (project_id, ref);
CREATE INDEX tasks_parent ON tasks (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX tasks_open ON tasks (workspace_id, ref) WHERE completed_at IS NULL AND deleted_at IS NULL;
CREATE INDEX tasks_assignee ON tasks (assignee_id) WHERE assignee_id IS NOT NULL;
CREATE INDEX tasks_claimed ON tasks (claimed_by) WHERE claimed_by IS NOT NULL;
CREATE INDEX tasks_due ON tasks (workspace_id, due_at) WHERE due_at IS NOT NULL;

CREATE TABLE task_tags (
    task_id TEXT NOT NULL REFERENCES tasks (id),
    tag_id  TEXT NOT NULL REFERENCES tags (id),
    PRIMARY KEY (task_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX task_tags_tag ON task_tags (tag_id, task_id);

-- One stored row per link, shown from both ends.
CREATE TABLE links (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    link_type_id TEXT NOT NULL REFERENCES link_types (id),
    source_type  TEXT NOT NULL CHECK (source_type IN ('task', 'document')),
    source_id    TEXT NOT NULL,
    target_type  TEXT NOT NULL CHECK (target_type IN ('task', 'document')),
    target_id    TEXT NOT NULL,
    created_by   TEXT REFERENCES users (id),
    created_at   TEXT NOT NULL,
    UNIQUE (link_type_id, source_id, target_id),
    CHECK (source_id <> target_id)
) STRICT;
CREATE INDEX links_source ON links (source_id, link_type_id);
CREATE INDEX links_target ON links (target_id, link_type_id);

CREATE TABLE verifications (
    id             TEXT PRIMARY KEY,
    task_id        TEXT NOT NULL REFERENCES tasks (id),
    passed         INTEGER NOT NULL CHECK (passed IN (0, 1)),
    summary        TEXT,
    commit_sha     TEXT,
    tree_hash      TEXT,
    output_excerpt TEXT,
    ran_at         TEXT NOT NULL,
    actor_user_id  TEXT REFERENCES users (id),
    actor_token_id TEXT
) STRICT;
CREATE INDEX verifications_task ON verifications (task_id, ran_at);
