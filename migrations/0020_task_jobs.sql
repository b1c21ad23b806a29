-- Issue 25 §3: no request holds the writer past 50 ms. Trashing, restoring
-- or refiling a task with 100,000 descendants changed every one of them,
-- and filed an event for each, in one transaction (14.5 s). Now a subtree
-- larger than a step is left to the worker: the request changes the root
-- and keeps the job here; the worker changes the descendants a few hundred
-- a transaction, deepest first, files their events (event: as the app
-- wrote it, without ids and instant), and removes the row in the step that
-- finds none left. A server stopped in the middle finishes at its next
-- start (docs/api.md, "Work done in steps").
--
-- kind trash: descendants still live go to the trash at deleted_at.
-- kind restore: descendants trashed at deleted_at come back.
-- kind refile: descendants not in project_id are refiled there.
CREATE TABLE task_jobs (
    seq        INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('trash', 'restore', 'refile')),
    root_id    TEXT NOT NULL REFERENCES tasks (id),
    deleted_at TEXT,
    project_id TEXT REFERENCES projects (id),
    event      TEXT NOT NULL
) STRICT;

-- tasks_pending is every descendant a job has still to change, with its
-- depth below the job's root: what the worker reads, outside the writer,
-- to plan its steps. It changes the deepest first, so the descendants still
-- to change hang together below the root and the walk stops at the first
-- one changed. Reads leave the same tasks out by walking up from each row
-- (store/task_job.go, notPending).
CREATE VIEW tasks_pending (id, seq, job, depth) AS
WITH RECURSIVE sub (id, seq, job, depth) AS (
    SELECT root_id, 0, seq, 0 FROM task_jobs
    UNION ALL
    SELECT c.id, c.seq, sub.job, sub.depth + 1 FROM sub JOIN task_jobs j ON j.seq = sub.job JOIN tasks c ON c.parent_id = sub.id
    WHERE sub.depth < 64 AND CASE j.kind
        WHEN 'trash' THEN c.deleted_at IS NULL
        WHEN 'restore' THEN c.deleted_at IS j.deleted_at
        ELSE c.project_id IS NOT j.project_id END
)
SELECT id, seq, job, depth FROM sub WHERE depth > 0;
