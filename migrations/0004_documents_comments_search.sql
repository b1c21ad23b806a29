-- Documents, comments, mentions (the backlinks' source), full-text search,
-- and what the change feed needs to filter events by project.

CREATE TABLE documents (
    seq                INTEGER PRIMARY KEY AUTOINCREMENT,
    id                 TEXT NOT NULL UNIQUE,
    workspace_id       TEXT NOT NULL REFERENCES workspaces (id),
    ref                INTEGER NOT NULL,
    project_id         TEXT NOT NULL REFERENCES projects (id),
    parent_id          TEXT REFERENCES documents (id),
    title              TEXT NOT NULL,
    body               TEXT,
    type_id            TEXT NOT NULL REFERENCES item_types (id),
    status_id          TEXT NOT NULL REFERENCES statuses (id),
    owner_id           TEXT REFERENCES users (id),
    -- Replacements of a non-empty body: a count and who did the last one,
    -- never a diff.
    revisions          INTEGER NOT NULL DEFAULT 0,
    revised_at         TEXT,
    revised_by         TEXT REFERENCES users (id),
    archived_at        TEXT,
    created_by         TEXT REFERENCES users (id),
    updated_by         TEXT REFERENCES users (id),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    content_updated_at TEXT NOT NULL,
    deleted_at         TEXT,
    version            INTEGER NOT NULL DEFAULT 1,
    UNIQUE (workspace_id, ref)
) STRICT;
CREATE INDEX documents_project ON documents (project_id, ref);
CREATE INDEX documents_parent ON documents (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE document_tags (
    document_id TEXT NOT NULL REFERENCES documents (id),
    tag_id      TEXT NOT NULL REFERENCES tags (id),
    PRIMARY KEY (document_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX document_tags_tag ON document_tags (tag_id, document_id);

-- Flat and chronological: a comment has no parent.
CREATE TABLE comments (
    seq          INTEGER PRIMARY KEY AUTOINCREMENT,
    id           TEXT NOT NULL UNIQUE,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    entity_type  TEXT NOT NULL CHECK (entity_type IN ('task', 'document', 'project')),
    entity_id    TEXT NOT NULL,
    author_id    TEXT REFERENCES users (id),
    body         TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    deleted_at   TEXT,
    version      INTEGER NOT NULL DEFAULT 1
) STRICT;
CREATE INDEX comments_entity ON comments (entity_id, seq);

-- A mention of #<ref> in a title, description, body or comment, recorded
-- when the text is written so backlinks never scan text at read time.
-- source_id is the task, document or comment whose text holds the mention.
CREATE TABLE mentions (
    target_id    TEXT NOT NULL,
    source_id    TEXT NOT NULL,
    source_type  TEXT NOT NULL CHECK (source_type IN ('task', 'document', 'comment')),
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    created_at   TEXT NOT NULL,
    PRIMARY KEY (target_id, source_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX mentions_source ON mentions (source_id);

-- The project an event happened in (null for workspace-level events), so
-- the change feed and the journal filter by what the reader may see
-- without joining every kind of entity.
ALTER TABLE events ADD COLUMN project_id TEXT;
UPDATE events SET project_id = COALESCE(
    (SELECT project_id FROM tasks WHERE tasks.id = events.entity_id),
    (SELECT id FROM projects WHERE projects.id = events.entity_id));
CREATE INDEX events_subject ON events (subject_id, seq) WHERE subject_id IS NOT NULL;
CREATE INDEX events_actor_token ON events (actor_token_id, seq) WHERE actor_token_id IS NOT NULL;

-- Full-text indexes over the text columns, kept by triggers in the same
-- transaction as the write, and touched on update only when the text
-- itself changed.
CREATE VIRTUAL TABLE tasks_fts USING fts5 (
    title, description, content = 'tasks', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO tasks_fts (tasks_fts) VALUES ('rebuild');
CREATE TRIGGER tasks_fts_ins AFTER INSERT ON tasks BEGIN
    INSERT INTO tasks_fts (rowid, title, description) VALUES (NEW.seq, NEW.title, NEW.description);
END;
CREATE TRIGGER tasks_fts_del AFTER DELETE ON tasks BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, title, description) VALUES ('delete', OLD.seq, OLD.title, OLD.description);
END;
CREATE TRIGGER tasks_fts_upd AFTER UPDATE OF title, description ON tasks
WHEN OLD.title IS NOT NEW.title OR OLD.description IS NOT NEW.description BEGIN
    INSERT INTO tasks_fts (tasks_fts, rowid, title, description) VALUES ('delete', OLD.seq, OLD.title, OLD.description);
    INSERT INTO tasks_fts (rowid, title, description) VALUES (NEW.seq, NEW.title, NEW.description);
END;

CREATE VIRTUAL TABLE documents_fts USING fts5 (
    title, body, content = 'documents', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER documents_fts_ins AFTER INSERT ON documents BEGIN
    INSERT INTO documents_fts (rowid, title, body) VALUES (NEW.seq, NEW.title, NEW.body);
END;
CREATE TRIGGER documents_fts_del AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, body) VALUES ('delete', OLD.seq, OLD.title, OLD.body);
END;
CREATE TRIGGER documents_fts_upd AFTER UPDATE OF title, body ON documents
WHEN OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body BEGIN
    INSERT INTO documents_fts (documents_fts, rowid, title, body) VALUES ('delete', OLD.seq, OLD.title, OLD.body);
    INSERT INTO documents_fts (rowid, title, body) VALUES (NEW.seq, NEW.title, NEW.body);
END;
