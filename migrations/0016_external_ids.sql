-- Issue 24: importers from other tools (tend import --from todoist, vikunja,
-- beads, github). Each item, project or comment an importer writes keeps
-- the id it had in the tool it came from, so that importing the same file
-- again updates what the first import wrote instead of adding it twice.
--
-- source names the tool; external_id is the id there, made unique within
-- the tool (a GitHub issue is owner/repo#number, a beads issue its own id).
-- entity_id is the tend row: a task, document, project or comment.
CREATE TABLE external_ids (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    source       TEXT NOT NULL,
    external_id  TEXT NOT NULL,
    entity_type  TEXT NOT NULL CHECK (entity_type IN ('task', 'document', 'project', 'comment')),
    entity_id    TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (workspace_id, source, external_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX external_ids_entity ON external_ids (entity_id);
