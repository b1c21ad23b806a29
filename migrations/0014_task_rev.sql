-- The agenda places a workspace's open tasks by a few of their columns and
-- their "blocks" links. The store keeps those facts in memory
-- (store/open_tasks.go) and, instead of reading every open task again after
-- each write, reads only the tasks changed since its copy:
--
-- - workspaces.task_rev moves whenever a task is added, a column the agenda
--   places by changes, or a link is added, changed or removed;
-- - tasks.fact_rev is the task_rev of the last such change to the task, or
--   to a link pointing at it, so "changed since revision r" is an index
--   range of tasks_fact_rev;
-- - workspaces.task_gen moves when a task row is deleted outright, which
--   leaves no row to find: the copy is then read again whole.
--
-- Triggers keep all three, so no write path can forget to. A change to a
-- task's title, description or other text moves none of them: the agenda
-- reads those from the tasks it lists.

ALTER TABLE workspaces ADD COLUMN task_rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE workspaces ADD COLUMN task_gen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN fact_rev INTEGER NOT NULL DEFAULT 0;
-- Partial, so that no other query can use it: only one that says
-- fact_rev > 0 (the agenda's read of what changed) implies its condition.
-- As (workspace_id, fact_rev) over every row it led the planner to read a
-- whole workspace for any query that named the workspace.
CREATE INDEX tasks_fact_rev ON tasks (workspace_id, fact_rev) WHERE fact_rev > 0;

CREATE TRIGGER tasks_rev_ins AFTER INSERT ON tasks BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id = NEW.workspace_id;
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = NEW.workspace_id) WHERE seq = NEW.seq;
END;
CREATE TRIGGER tasks_rev_upd AFTER UPDATE OF id, workspace_id, ref, project_id, type_id, status_id, importance, urgency,
    due_at, due_is_all_day, snoozed_until, assignee_id, claimed_by, claim_expires_at, timezone, completed_at, created_by,
    deleted_at ON tasks BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1, task_gen = task_gen + (OLD.workspace_id <> NEW.workspace_id)
        WHERE id IN (OLD.workspace_id, NEW.workspace_id);
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = NEW.workspace_id) WHERE seq = NEW.seq;
END;
CREATE TRIGGER tasks_rev_del AFTER DELETE ON tasks BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1, task_gen = task_gen + 1 WHERE id = OLD.workspace_id;
END;

CREATE TRIGGER links_rev_ins AFTER INSERT ON links BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id = NEW.workspace_id;
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = NEW.workspace_id) WHERE id = NEW.target_id;
END;
CREATE TRIGGER links_rev_upd AFTER UPDATE ON links BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id IN (OLD.workspace_id, NEW.workspace_id);
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = NEW.workspace_id)
        WHERE id IN (OLD.target_id, NEW.target_id);
END;
CREATE TRIGGER links_rev_del AFTER DELETE ON links BEGIN
    UPDATE workspaces SET task_rev = task_rev + 1 WHERE id = OLD.workspace_id;
    UPDATE tasks SET fact_rev = (SELECT task_rev FROM workspaces WHERE id = OLD.workspace_id) WHERE id = OLD.target_id;
END;
