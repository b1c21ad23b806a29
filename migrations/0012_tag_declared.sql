-- A tag made by being used on an item was recorded as a workspace-level
-- tag.created event, so the change feed told every workspace reader the
-- name of a tag used only in a project they cannot read. Such events are
-- now filed in the item's project, and a tag declared on purpose with
-- POST /v1/tags is marked so: it is vocabulary every reader sees.

ALTER TABLE tags ADD COLUMN declared INTEGER NOT NULL DEFAULT 0;

-- A tag made by use was recorded in the transaction that wrote its item:
-- the next event that is not a tag event is that item's, by the same actor,
-- at the same moment. Its project becomes the tag event's.
UPDATE events SET project_id = (
    SELECT n.project_id FROM events n
    WHERE n.workspace_id = events.workspace_id AND n.seq > events.seq AND n.entity_type <> 'tag'
    ORDER BY n.seq LIMIT 1)
WHERE action = 'tag.created' AND project_id IS NULL AND EXISTS (
    SELECT 1 FROM (
        SELECT n.entity_type, n.actor_user_id, n.created_at FROM events n
        WHERE n.workspace_id = events.workspace_id AND n.seq > events.seq AND n.entity_type <> 'tag'
        ORDER BY n.seq LIMIT 1) n
    WHERE n.entity_type IN ('task', 'document') AND n.actor_user_id IS events.actor_user_id
        AND abs(julianday(n.created_at) - julianday(events.created_at)) * 86400 < 1);

-- What is left at workspace level was declared on purpose.
UPDATE tags SET declared = 1 WHERE EXISTS (
    SELECT 1 FROM events e WHERE e.entity_type = 'tag' AND e.entity_id = tags.id
        AND e.action = 'tag.created' AND e.project_id IS NULL);
