-- A workspace's scope revision moves whenever anything that decides who
-- sees which project changes: a project row, a project member row, or a
-- project role. Readers key a cache of the project tree on it, so a request
-- that changes none of these reads the tree from memory, and one that does
-- can never be answered from a stale copy (the revision is read in the same
-- snapshot as everything else). Triggers keep it, so no write path can
-- forget to.

ALTER TABLE workspaces ADD COLUMN scope_rev INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER projects_scope_ins AFTER INSERT ON projects BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = NEW.workspace_id;
END;
CREATE TRIGGER projects_scope_upd AFTER UPDATE ON projects BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id IN (OLD.workspace_id, NEW.workspace_id);
END;
CREATE TRIGGER projects_scope_del AFTER DELETE ON projects BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = OLD.workspace_id;
END;

CREATE TRIGGER project_members_scope_ins AFTER INSERT ON project_members BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = (SELECT workspace_id FROM projects WHERE id = NEW.project_id);
END;
CREATE TRIGGER project_members_scope_del AFTER DELETE ON project_members BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = (SELECT workspace_id FROM projects WHERE id = OLD.project_id);
END;

CREATE TRIGGER project_roles_scope_ins AFTER INSERT ON project_roles BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = (SELECT workspace_id FROM projects WHERE id = NEW.project_id);
END;
CREATE TRIGGER project_roles_scope_upd AFTER UPDATE ON project_roles BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = (SELECT workspace_id FROM projects WHERE id = NEW.project_id);
END;
CREATE TRIGGER project_roles_scope_del AFTER DELETE ON project_roles BEGIN
    UPDATE workspaces SET scope_rev = scope_rev + 1 WHERE id = (SELECT workspace_id FROM projects WHERE id = OLD.project_id);
END;
