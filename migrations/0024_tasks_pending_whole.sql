-- Issue 32 §3: tasks_pending (migration 0020) stopped at depth 64, so a
-- job on a deeper subtree left the tasks below that depth as they were:
-- live under a trashed root. Nesting has no limit, so neither has the walk.
-- It keeps its depth (the worker changes the deepest first), so it cannot
-- end a cycle by leaving out rows it found before; it ends it at the root
-- instead. A task has one parent, so a walk down from a root can only come
-- back to a task it found by coming back to the root itself: a cycle, which
-- the API refuses to make but a crafted import or old data could hold.
DROP VIEW tasks_pending;

CREATE VIEW tasks_pending (id, seq, job, depth) AS
WITH RECURSIVE sub (id, seq, job, depth) AS (
    SELECT root_id, 0, seq, 0 FROM task_jobs
    UNION ALL
    SELECT c.id, c.seq, sub.job, sub.depth + 1 FROM sub JOIN task_jobs j ON j.seq = sub.job JOIN tasks c ON c.parent_id = sub.id
    WHERE c.id <> j.root_id AND CASE j.kind
        WHEN 'trash' THEN c.deleted_at IS NULL
        WHEN 'restore' THEN c.deleted_at IS j.deleted_at
        ELSE c.project_id IS NOT j.project_id END
)
SELECT id, seq, job, depth FROM sub WHERE depth > 0;
