-- A webhook for a project receives its subprojects' events too (issue 35),
-- as GET /v1/changes?project=KEY reads them: the trigger walks up from the
-- event's project to the top, so an endpoint on any project above it
-- matches. Walked once per event, and only in a workspace with an active
-- endpoint; UNION, not UNION ALL, ends the walk should the tree ever loop.
DROP TRIGGER events_webhook_outbox;

CREATE TRIGGER events_webhook_outbox AFTER INSERT ON events
WHEN NEW.workspace_id IS NOT NULL
    AND EXISTS (SELECT 1 FROM webhooks WHERE workspace_id = NEW.workspace_id AND active = 1)
BEGIN
    INSERT INTO webhook_deliveries (webhook_id, event_seq, due_at, created_at)
    SELECT w.id, NEW.seq, NEW.created_at, NEW.created_at FROM webhooks w
    WHERE w.workspace_id = NEW.workspace_id AND w.active = 1
        AND (w.project_id IS NULL OR w.project_id IN (
            WITH RECURSIVE up (id) AS (
                SELECT NEW.project_id
                UNION
                SELECT p.parent_id FROM projects p JOIN up ON p.id = up.id WHERE p.parent_id IS NOT NULL
            )
            SELECT id FROM up))
        AND EXISTS (SELECT 1 FROM json_each(w.events) p WHERE NEW.action GLOB p.value)
    ORDER BY w.seq;
END;
