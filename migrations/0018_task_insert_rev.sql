-- A new task is written once, and into one index fewer (issue 25). Since
-- 0014 the insert trigger moved the workspace's task_rev and then wrote the
-- new row a second time to store that revision as its fact_rev, which put
-- every new task into tasks_fact_rev. The agenda's read of what changed now
-- finds new tasks by seq instead (store/open_tasks.go: the tasks past the
-- highest seq its copy saw, seq being AUTOINCREMENT and never reused), so
-- an insert only moves task_rev; fact_rev stays 0 until the task changes.
DROP TRIGGER tasks_rev_ins;
CREATE TRIGGER tasks_rev_ins AFTER INSERT ON tasks BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id = NEW.workspace_id;
END;
