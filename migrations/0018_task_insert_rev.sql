-- A new task's row is written once (issue 25). Since 0014 the insert
-- trigger bumped the workspace's task_rev and then wrote the new row a
-- second time to store it as the task's fact_rev. The store's InsertTask
-- now takes the ref and the next task_rev in one update of the workspace
-- and stores fact_rev with the row; the trigger stays for any insert that
-- leaves fact_rev 0, so no write path can still forget the revision.
DROP TRIGGER tasks_rev_ins;
CREATE TRIGGER tasks_rev_ins AFTER INSERT ON tasks WHEN NEW.fact_rev = 0 BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id = NEW.workspace_id;
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = NEW.workspace_id) WHERE seq = NEW.seq;
END;
