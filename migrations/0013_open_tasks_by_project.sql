-- The Projects page counts each project's open tasks. Through tasks_open
-- (workspace_id, ref) that is a read of every open task's row and a sort;
-- this index holds the project of every open task, so the count is a walk
-- of the index alone, already grouped.
CREATE INDEX tasks_open_project ON tasks (workspace_id, project_id) WHERE completed_at IS NULL AND deleted_at IS NULL;
